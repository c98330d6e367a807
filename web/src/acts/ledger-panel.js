// The design-ledger panel (?act=ledger, beside the acts): the student's calibration summary, export
// (download, copy, readable summary) and import (file picker or drop) with the engine's verification as
// a table and "continue from this ledger". Building and the table's rows are DOM-free in
// ../design-ledger.js, reading and checking in ../ledger-check.js (around the engine's verify_ledger).
// A bad file never touches the store.
import { h, uid, setText, replaceChildren } from '../ui/dom.js';
import { panel } from '../ui/act-parts.js';
import { formatCount, wordList } from '../format/format.js';
import {
  buildDesignLedger, deviceNames, ledgerEngine, ledgerText, readableDate, LEDGER_MAX_BYTES,
} from '../ledger/design-ledger.js';
import { notRecomputedItems, verificationRows, verificationHeadline } from '../ledger/ledger-verify-view.js';
import { checkLedger, tooLargeMessage } from '../ledger/ledger-check.js';
import { fixAnswerKey } from '../ledger/ledger-rescore.js';
import './ledger-panel.css';
import { withFlags } from '../state/url-state.js';
import { downloadOutlook, frameChain, saveFile, COPY_HOW } from '../ui/download-outlook.js';
import { measureRunsText } from '../models/measure-record.js';
import { workbenchText } from '../models/workbench-view.js';
import { displayCalibration, act3Calibration, act3Reflections } from '../ledger/ledger-act3.js';

export const id = 'ledger';
export const shortTitle = 'Design ledger';


const ACT_NAMES = { 1: 'Act 1: the optimizer memory tax', 2: 'Act 2: the MFU gap' };
// The panel is a few named parts sharing one context `ctx`: the engine and store, the elements each
// part builds (ctx.cal, ctx.ex, ctx.im) and what the last export built or the last import read.
export function mount({ root, engine, store, announce, flags = {} }) {
  const eng = ledgerEngine(engine);
  let devices = null;
  try { devices = deviceNames(eng.catalog()); } catch { devices = null; }
  const ctx = { engine, store, announce, flags, eng, devices, current: null, imported: null };
  const title = h('h2', { id: 'act-title', tabindex: '-1', text: 'Your design ledger' });
  const lead = h('p', { class: 'act-intro', text: 'Everything you predicted, chose and found in this lab, as one file to hand in, and a check of any ledger against the engine.' });
  // Built in this order: each panel's heading id comes from one counter (ui/dom.js uid).
  ctx.cal = buildCalibrationPanel();
  ctx.ex = buildExportPanel(ctx);
  ctx.im = buildImportPanel(ctx);
  replaceChildren(root, h('section', { class: 'act act--ledger', 'aria-labelledby': 'act-title', 'data-act': 'ledger' },
    title, lead, ctx.cal.el, ctx.ex.el, ctx.im.el));
  const unwireDrop = wireDrop(ctx);
  renderLive(ctx, store.getState());
  const unsubscribe = store.subscribe((state) => renderLive(ctx, state));

  return {
    focus: () => title.focus(),
    destroy: () => { unsubscribe(); unwireDrop(); root.replaceChildren(); },
  };
}

// ---- calibration: every prediction, how far off and which way, one sentence over all

// The calibration panel's elements, empty until renderLive fills them from the store.
function buildCalibrationPanel() {
  const c = {};
  c.sentence = h('p', { class: 'ledger-cal__sentence' });
  c.list = h('ul', { class: 'ledger-cal__list' });
  c.reflections = h('p', { class: 'panel__note', 'data-note': 'reflections' });
  // Act 3's two questions, each with the answer chosen and whether it was right (its record lives in
  // lab_state.acts.act3; the file's reflections list has Acts 1 and 2 only).
  c.reflList = h('ul', { class: 'ledger-cal__answers', 'data-list': 'reflections', hidden: true });
  // Measure it's runs are in the file too (lab_state.measure_runs): the last one said here (student walk).
  c.measured = h('p', { class: 'panel__note', 'data-note': 'measure-runs', hidden: true });
  // The workbench's record (result_snapshot.workbench), in one line: the file holds it too.
  c.workbench = h('p', { class: 'panel__note', 'data-note': 'workbench', hidden: true });
  c.el = panel('How well calibrated were your predictions?', c.sentence, c.list, c.reflections, c.reflList, c.measured, c.workbench).el;
  return c;
}

// ---- export

// The export panel: download, copy, the readable summary, and the box to copy by hand where neither works.
function buildExportPanel(ctx) {
  const x = {};
  x.status = h('p', { class: 'ledger-status', role: 'status' });
  const download = h('button', { type: 'button', class: 'btn btn--primary', text: 'Download the ledger (.json)', onclick: () => downloadLedger(ctx) });
  const copyJson = h('button', { type: 'button', class: 'btn', text: 'Copy the ledger to the clipboard', onclick: () => copyLedger(ctx, 'json') });
  const summaryId = uid('ledger-summary');
  x.summaryBox = h('textarea', { id: summaryId, class: 'ledger-summary', readonly: true, rows: '14', spellcheck: 'false' });
  const copySummary = h('button', { type: 'button', class: 'btn btn--small', text: 'Copy the summary', onclick: () => copyLedger(ctx, 'text') });
  // The file is the record: it holds the engine's answers even before a Reveal (an instructor's check
  // needs them). Said before a student exports or checks it, as the page holds them back (walk 6).
  x.unrevealedNote = h('p', { class: 'panel__note', 'data-note': 'unrevealed', hidden: true });
  // Where the file cannot be saved or copied from here (a sandboxed frame, a refused clipboard): the
  // ledger's text, selected, to copy by hand.
  const copyId = uid('ledger-copy');
  x.copyBox = h('textarea', { id: copyId, class: 'ledger-copy__text', readonly: true, rows: '10', spellcheck: 'false', 'data-copy': 'ledger' });
  x.copyPart = h('div', { class: 'ledger-copy', hidden: true }, h('label', { for: copyId, text: 'Your design ledger (JSON), to copy' }), x.copyBox);
  x.el = panel('Export',
    h('p', { class: 'panel__lead', text: 'You can export at any point; the file records your settings, answers and the engine’s values as they are now.' }),
    x.unrevealedNote,
    h('div', { class: 'ledger-actions' }, download, copyJson), x.status, x.copyPart,
    h('details', { class: 'ledger-readable' }, h('summary', { text: 'A readable summary to paste into a report' }),
      h('label', { for: summaryId, text: 'Summary (plain text)' }), x.summaryBox, copySummary)).el;
  return x;
}

// The ledger of the store as it is now, kept in ctx.current for the file's name.
function buildLedgerNow(ctx) {
  ctx.current = buildDesignLedger(ctx.store.getState(), ctx.eng);
  return ctx.current;
}

// An export that went wrong, said in the status line.
function exportFailed(ctx, message) {
  ctx.ex.status.className = 'ledger-status ledger-status--bad';
  setText(ctx.ex.status, `✕ ${message}`);
}

// The ledger's text selected in the copy box, with the status saying why.
function showCopyBox(ctx, text, status, cls = 'ledger-status') {
  const { copyBox, copyPart } = ctx.ex;
  copyBox.value = text;
  copyPart.hidden = false;
  copyBox.focus();
  copyBox.select();
  ctx.ex.status.className = cls;
  setText(ctx.ex.status, status);
}

// "Download the ledger": a file where the page can save one, else (or perhaps) the copy box.
function downloadLedger(ctx) {
  const { status, copyPart } = ctx.ex;
  let text;
  try { text = JSON.stringify(buildLedgerNow(ctx), null, 2); } catch (err) { exportFailed(ctx, `The ledger could not be built: ${err.message}`); return; }
  const name = `lab08-design-ledger-${ctx.current.timestamp.slice(0, 10)}.json`;
  // A sandboxed frame drops a download without a word to the page: never claim one that cannot be seen.
  const outlook = downloadOutlook(frameChain(window));
  if (outlook === 'no') {
    showCopyBox(ctx, text, `✕ This embedded lab may not save files (its course page does not allow downloads). The ledger is selected in the box below: ${COPY_HOW}, then paste it into a new file named ${name}.`, 'ledger-status ledger-status--bad');
    return;
  }
  saveFile(document, name, text, 'application/json');
  if (outlook === 'unknown') {
    showCopyBox(ctx, text, `⚠ Your browser was asked to save ${name}, but this embedded lab cannot tell whether its course page allows downloads. If no file arrived, the ledger is selected in the box below: ${COPY_HOW}, then paste it into a new file with that name.`);
    return;
  }
  copyPart.hidden = true;
  status.className = 'ledger-status';
  setText(status, `✓ Downloaded ${name} (${text.length.toLocaleString('en-US')} characters).`);
}

// "Copy the ledger" (kind 'json') or "Copy the summary" (kind 'text') to the clipboard.
async function copyLedger(ctx, kind) {
  const { status, summaryBox } = ctx.ex;
  let text;
  try { text = kind === 'json' ? JSON.stringify(buildLedgerNow(ctx), null, 2) : summaryBox.value; } catch (err) { exportFailed(ctx, `The ledger could not be built: ${err.message}`); return; }
  try {
    await navigator.clipboard.writeText(text);
    status.className = 'ledger-status';
    setText(status, kind === 'json' ? '✓ The ledger is on the clipboard.' : '✓ The summary is on the clipboard.');
  } catch {
    // Clipboard refused (permissions, some iframes): show the text selected so Ctrl+C / ⌘C copies it.
    const refused = `This page may not use the clipboard here; the text is selected in the box below: ${COPY_HOW}.`;
    if (kind === 'json') { showCopyBox(ctx, text, `✕ ${refused}`, 'ledger-status ledger-status--bad'); return; }
    summaryBox.closest('details').open = true;
    summaryBox.focus();
    summaryBox.select();
    exportFailed(ctx, refused);
  }
}

// ---- import and verification

// The import panel: the file picker inside the drop zone, the error line and the verification's place.
function buildImportPanel(ctx) {
  const m = {};
  const fileId = uid('ledger-file');
  const fileInput = h('input', { type: 'file', id: fileId, accept: '.json,application/json', onchange: () => fileInput.files[0] && loadLedgerFile(ctx, fileInput.files[0]) });
  m.drop = h('div', { class: 'ledger-drop', 'data-drop': 'ledger' },
    h('label', { for: fileId, text: 'Choose a ledger file' }), fileInput, h('p', { class: 'ledger-drop__hint', text: '…or drop a .json ledger file here.' }));
  m.error = h('div', { class: 'ledger-error', role: 'alert' });
  m.result = h('div', { class: 'ledger-result', hidden: true });
  m.el = panel('Check a ledger (import)',
    h('p', { class: 'panel__lead', text: 'The engine re-computes every value a ledger records from the settings it records, and marks each one that differs. Your own progress is only replaced if you choose “Continue from this ledger”.' }),
    m.drop, m.error, m.result).el;
  return m;
}

// Dropping a file anywhere on the page must not open it in the tab (that would leave the lab).
// Returns the function that takes the window's listeners off again.
function wireDrop(ctx) {
  const { drop } = ctx.im;
  const onDragOver = (event) => { event.preventDefault(); drop.classList.toggle('ledger-drop--over', drop.contains(event.target)); };
  const onDrop = (event) => {
    event.preventDefault();
    drop.classList.remove('ledger-drop--over');
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) loadLedgerFile(ctx, file);
  };
  window.addEventListener('dragover', onDragOver);
  window.addEventListener('drop', onDrop);
  return () => { window.removeEventListener('dragover', onDragOver); window.removeEventListener('drop', onDrop); };
}

// Reads a chosen or dropped file and checks it with the engine; a bad file never touches the store.
async function loadLedgerFile(ctx, file) {
  replaceChildren(ctx.im.error);
  ctx.im.result.hidden = true;
  ctx.announce(''); // the last file's verdict must not linger in the live region (walk 10)
  ctx.imported = null;
  if (file.size > LEDGER_MAX_BYTES) { showImportError(ctx, `${file.name} cannot be used: ${tooLargeMessage(file.size)}. Your progress is unchanged.`); return; }
  let text;
  try { text = await file.text(); } catch { showImportError(ctx, `${file.name} could not be read.`); return; }
  let verifier;
  try { verifier = await ctx.engine.ledgerVerifier(); } catch (err) {
    showImportError(ctx, `The ledger check could not be loaded (${err && err.message ? err.message : err}). Try reloading the page. Your progress is unchanged.`);
    return;
  }
  const checked = checkLedger(text, { ...ctx.eng, verifyLedger: verifier.verifyLedger });
  if (checked.status === 'invalid') {
    const e = checked.error;
    showImportError(ctx, `${file.name} cannot be used: ${e.field ? `${e.field}: ` : ''}${e.message}. Your progress is unchanged.`);
    return;
  }
  ctx.imported = { file: file.name, ledger: checked.ledger, from: checked.from, verified: checked };
  showVerification(ctx);
}

// A file that cannot be used, said in the import panel.
function showImportError(ctx, message) {
  // importError is role="alert": screen readers read it once; the page's announcer would read it twice.
  replaceChildren(ctx.im.error, h('p', { class: 'banner banner--error' }, h('span', { class: 'banner__title', text: message })));
}

// One table per group: the values that differ (shown), and those that re-computed identically
// (folded in a <details>, so the page stays short). On phones each row is a card (table--reflow):
// every value follows its column's name, the exact value on a second line.
function valueCell(column, v, cls) {
  return h('td', { 'data-label': column, title: v.exact, class: cls || null },
    h('span', { class: 'ledger-value', text: v.text }), v.showExact ? [' ', h('span', { class: 'ledger-exact', text: v.exact })] : null);
}
function verifyTable(caption, rows) {
  const table = h('table', { class: 'data-table verify-table table--reflow' }, h('caption', { text: caption }),
    h('thead', {}, h('tr', {}, ['Value', 'Recorded', 'Re-computed', 'Result'].map((c) => h('th', { scope: 'col', text: c })))),
    h('tbody', {}, rows.map((r) => h('tr', { 'data-row': r.key, class: r.differs ? 'ledger-row--differs' : null },
      h('th', { scope: 'row' }, h('span', { class: 'ledger-label', text: r.label }), h('code', { class: 'ledger-field', text: r.field })),
      valueCell('Recorded', r.recorded), valueCell('Re-computed', r.recomputed),
      h('td', { 'data-label': 'Result', class: r.differs ? 'ledger-cell--differs' : 'ledger-cell--same', text: r.differs ? '✕ differs' : '✓ same' })))));
  return h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': caption }, table);
}

// The two tables of an imported ledger's rows: those that differ, and those folded away as the same.
function verificationTables(file, rows) {
  const differ = rows.filter((r) => r.differs);
  const same = rows.filter((r) => !r.differs);
  const differTable = differ.length ? verifyTable(`The ${differ.length === 1 ? 'value' : `${differ.length} values`} in ${file} that differ${differ.length === 1 ? 's' : ''} from the re-computation`, differ) : null;
  const sameBox = same.length ? h('details', { class: 'ledger-same' },
    h('summary', { text: `${formatCount(same.length, 'value')} re-computed identically` }),
    verifyTable(`Values in ${file} that re-computed identically`, same)) : null;
  return [differTable, sameBox];
}

// Facts about the imported file: the engine versions, when and by which lab version, its calibration.
function verificationFacts({ ledger, verified, from }, units) {
  return h('ul', { class: 'ledger-facts' },
    h('li', { text: `Made with engine ${verified.engine_version.recorded}; checked with ${verified.engine_version.current}${verified.engine_version.differs ? ' (a different version: values may differ without any editing)' : ''}.` }),
    h('li', { text: `Exported ${readableDate(ledger.timestamp)} (the student’s clock). ${from ? `Written by an older version of the lab (ledger version ${from}) and read through its migration.` : ''}`.trim() }),
    // The sentence rebuilt from the verified predictions (checkLedger flags a recorded one that differs).
    h('li', { text: `Calibration: ${displayCalibration(ledger.lab_state, units).sentence}` }));
}

// What the check did not re-compute, each in words first, the reason, then the field path (for
// instructors) in small type; null when everything was.
function notRecomputedList({ ledger, verified }) {
  const items = notRecomputedItems(verified, { ledger });
  return items.length ? h('details', { class: 'ledger-notre' },
    h('summary', { text: `Not re-computed (${items.length})` }),
    h('ul', {}, items.map((n) => h('li', {}, h('span', { class: 'ledger-label', text: n.label }), `: ${n.reason} `,
      h('code', { class: 'ledger-field', text: n.field }))))) : null;
}

// An imported ledger's verification: headline, facts, tables, and the way to continue from it.
function showVerification(ctx) {
  const { verified, file } = ctx.imported;
  const units = ctx.store.getState().config.units;
  const rows = verificationRows(verified, { units, devices: ctx.devices, ledger: ctx.imported.ledger });
  const [differTable, sameBox] = verificationTables(file, rows);
  const headline = h('p', { class: `banner ${verified.status === 'ok' ? 'banner--ok' : 'banner--error'}`, role: 'status' }, h('span', { class: 'banner__title', text: verificationHeadline(verified) }));
  const facts = verificationFacts(ctx.imported, units);
  const notRe = notRecomputedList(ctx.imported);
  const proves = h('details', { class: 'ledger-proves' }, h('summary', { text: 'What this check can and cannot prove' }),
    h('p', { text: verified.can_prove }), h('p', { text: verified.cannot_prove }));
  const c = continueControls(ctx);
  replaceChildren(ctx.im.result, headline, facts, differTable, sameBox, notRe, proves, c.cont, c.confirmBox, c.restored);
  ctx.im.result.hidden = false;
  ctx.announce(verificationHeadline(verified));
}

// "Continue from this ledger", its confirmation and the line that says it was done. A ledger whose
// values differ can still be continued from (only its lab state is restored, and every result is
// re-computed from it), but the button says so.
function continueControls(ctx) {
  const { file } = ctx.imported;
  const ok = ctx.imported.verified.status === 'ok';
  const c = {};
  c.confirmBox = h('div', { class: 'reset-confirm', role: 'group', 'aria-label': 'Confirm continuing from the ledger', hidden: true });
  c.cont = h('button', { type: 'button', class: 'btn', text: ok ? 'Continue from this ledger' : 'Continue from this ledger anyway', 'aria-expanded': 'false',
    onclick: () => { c.confirmBox.hidden = false; c.cont.setAttribute('aria-expanded', 'true'); yes.focus(); } });
  const no = h('button', { type: 'button', class: 'btn btn--small', text: 'Keep my current progress',
    onclick: () => { c.confirmBox.hidden = true; c.cont.setAttribute('aria-expanded', 'false'); c.cont.focus(); } });
  const ledger = ctx.imported.ledger;
  const yes = h('button', { type: 'button', class: 'btn btn--small btn--danger', text: 'Yes, replace it', onclick: () => restoreFromLedger(ctx, ledger, file, c) });
  c.confirmBox.append(h('p', { text: `Replace your settings and answers in this browser with the ones in ${file}?${ok ? '' : ' Some of its values differ from the engine’s.'}` }), yes, no);
  c.restored = h('p', { class: 'ledger-status', role: 'status' });
  return c;
}

// "Yes, replace it": the store becomes the ledger's lab state, and a link leads to its act.
function restoreFromLedger(ctx, ledger, file, c) {
  const { store } = ctx;
  store.update(() => structuredClone(ledger.lab_state));
  if (store.flush) store.flush();
  c.confirmBox.hidden = true;
  c.cont.setAttribute('aria-expanded', 'false');
  const act = ledger.lab_state.current_act;
  replaceChildren(c.restored, `✓ Your settings and progress now come from ${file}. `, h('a', { href: withFlags(`?act=${act}`, ctx.flags), text: `Go to ${ACT_NAMES[act]}` }));
  c.restored.querySelector('a').focus();
}

// ---- live parts: calibration and the readable summary follow the store

// Everything on the panel that follows the store, redrawn on each change.
function renderLive(ctx, state) {
  const units = state.config.units;
  const cal = ctx.cal;
  renderUnrevealedNote(ctx, state);
  const calibration = displayCalibration(state, units, { holdUnseen: true }); // an answer waits for its act’s Reveal
  setText(cal.sentence, calibration.sentence);
  replaceChildren(cal.list, calibration.items.map((it) => h('li', { 'data-prediction': it.id, text: it.phrase })));
  const refl3 = act3Reflections(state);
  setText(cal.reflections, reflectionsText(state, refl3));
  replaceChildren(cal.reflList, refl3.map((r) => h('li', { 'data-reflection': r.id, text: r.phrase })));
  cal.reflList.hidden = !refl3.length;
  const measured = measureRunsText(state.measure_runs, units);
  cal.measured.hidden = !measured;
  setText(cal.measured, measured || '');
  renderWorkbenchAndSummary(ctx, state, refl3);
}

// Which acts' answers the file holds before their Reveal, said above the export buttons.
function renderUnrevealedNote(ctx, state) {
  const note = ctx.ex.unrevealedNote;
  const unrevealed = [1, 2, 3].filter((n) => state.acts[`act${n}`] && state.acts[`act${n}`].prediction && !state.acts[`act${n}`].revealed);
  note.hidden = !unrevealed.length;
  const acts = wordList(unrevealed.map((n) => `Act ${n}`));
  const [answers, them] = unrevealed.length > 1 ? ['answers to your', 'them'] : ['answer to your', 'it'];
  setText(note, unrevealed.length ? `Not revealed yet: ${acts}. The file contains the engine’s ${answers} ${acts} prediction${unrevealed.length > 1 ? 's' : ''}, and checking it below would show ${them}. Reveal in ${acts} first if you would rather find out there.` : '');
}

// One line over every reflection answered: how many were right in every part.
function reflectionsText(state, refl3) {
  const { act1, act2 } = state.acts;
  const refl = [act1.reflection, act2.reflection_fix, act2.reflection_ckpt, ...refl3].filter(Boolean);
  const right = refl3.filter((r) => r.correct).length + [act1.reflection && act1.reflection.ratio_correct && act1.reflection.reason_correct,
    act2.reflection_fix && act2.reflection_fix.correct,
    act2.reflection_ckpt && act2.reflection_ckpt.ratio_correct && act2.reflection_ckpt.overhead_correct && act2.reflection_ckpt.reason_correct].filter(Boolean).length;
  // The answering rule (scoring.js withTry): any question may be answered again; the first answer counts.
  const again = refl.some((r) => (r.attempts || 1) > 1);
  return refl.length ? `Reflections: ${right} of ${refl.length} answered right in every part${again ? ' (your first answer to each is the one scored)' : ''}.` : 'No reflections answered yet.';
}

// The workbench's line and the readable summary, both from the ledger the store would export now.
function renderWorkbenchAndSummary(ctx, state, refl3) {
  const units = state.config.units;
  const { workbench } = ctx.cal;
  const { summaryBox } = ctx.ex;
  try {
    const ledger = buildDesignLedger(state, ctx.eng);
    const wb = ledger.result_snapshot.workbench;
    workbench.hidden = wb === undefined;
    setText(workbench, wb === undefined ? '' : workbenchText(wb, state.workbench.scenario, units));
    summaryBox.value = ledgerText(ledger, units, { devices: ctx.devices, holdUnseen: true, fixKey: fixAnswerKey(ctx.eng),
      act3: { item: act3Calibration(state, { holdUnseen: true }), reflections: refl3 } });
  } catch (err) {
    summaryBox.value = `The summary could not be built: ${err.message}`;
  }
}
