// The workbench's "Check it on your GPU" (issue 27): download or copy the script that measures the
// workbench's step in PyTorch, one line on how to run it, paste back what it printed, and see the
// prediction against the measurement phase by phase. The script and the comparison are DOM-free
// (pytorch-script.js, pytorch-compare.js), the words pytorch-check-view.js. show(scenario) follows the
// workbench; the pasted text is never cleared by the panel (an error leaves it for correction).
import { h, setText, setHidden } from '../ui/dom.js';
import { DataTable } from '../charts/data-table.js';
import { downloadOutlook, frameChain, saveFile, COPY_HOW } from '../ui/download-outlook.js';
import { checkFor, pytorchScript, forBuild, cpuRunSeconds, SCRIPT_FILE_NAME, RUN_COMMAND, RUN_NOTEBOOK } from '../models/pytorch-script.js';
import { compareMeasured, readShape, refusalText } from '../models/pytorch-compare.js';
import { checkRows, verdict, timingText, measuredOnText } from '../models/pytorch-check-view.js';
import { formatInt } from '../format/format.js';
import { checkRecord, withGpuCheck } from '../models/gpu-check-record.js';
import './workbench-check.css';

function buildDom() {
  const d = {};
  d.title = h('summary', { class: 'wb-check__title', text: 'Check it on your GPU' });
  d.lead = h('p', { text: 'Run this script where PyTorch runs, then paste the line it prints below.' });
  d.run = h('p', { class: 'wb-check__run' }, 'Run it with ', h('code', { text: RUN_COMMAND }), `, or ${RUN_NOTEBOOK}.`);
  d.where = h('fieldset', { class: 'wb-check__where' }, h('legend', { text: 'Run it on' }),
    ...[['cuda', 'a CUDA GPU'], ['cpu-1.13', 'this computer’s CPU (predicted as PyTorch 1.13 allocates there)']].map(([value, label]) =>
      h('label', {}, h('input', { type: 'radio', name: 'wb-check-where', value, checked: value === 'cuda' }), ` ${label}`)));
  d.download = h('button', { type: 'button', class: 'btn btn--primary', text: `Download ${SCRIPT_FILE_NAME}` });
  d.copy = h('button', { type: 'button', class: 'btn', text: 'Copy the script' });
  d.status = h('p', { class: 'wb-check__status', role: 'status' });
  d.slow = h('p', { class: 'wb-check__slow', hidden: true });
  d.scriptBox = h('textarea', { class: 'wb-check__script', readonly: true, rows: 6, 'aria-label': 'The script', hidden: true });
  d.cannot = h('p', { class: 'wb-check__error', role: 'alert', hidden: true });
  d.pasteLabel = h('label', { for: 'wb-check-paste', text: 'What the script printed' });
  d.paste = h('textarea', { id: 'wb-check-paste', class: 'wb-check__paste', rows: 4, spellcheck: 'false', autocomplete: 'off' });
  d.compare = h('button', { type: 'button', class: 'btn', text: 'Compare with the prediction' });
  d.error = h('p', { class: 'wb-check__error', role: 'alert', hidden: true });
  d.verdict = h('p', { class: 'wb-check__verdict' });
  d.on = h('p', { class: 'wb-check__on' });
  // Each step's peak stays on screen; the phases behind a disclosure (the workbench's words budget).
  d.peaksBox = h('div');
  d.tableBox = h('div');
  d.phases = h('details', { class: 'wb-check__phases' }, h('summary', { text: 'Each phase' }), d.tableBox);
  d.timing = h('p', { class: 'wb-check__timing' });
  d.result = h('div', { class: 'wb-check__result', hidden: true }, d.verdict, d.on, d.peaksBox, d.phases, d.timing);
  d.actions = h('div', { class: 'wb-check__actions' }, d.download, d.copy);
  // Closed until asked for: the workbench's words on screen stay the results' (words-workbench test).
  d.root = h('details', { class: 'wb-check' }, d.title, d.lead, d.where, d.slow, d.run, d.actions,
    d.status, d.scriptBox, d.cannot, d.pasteLabel, d.paste, h('div', { class: 'wb-check__actions' }, d.compare), d.error, d.result);
  // Cards below 600 px (styles.css table--reflow): four columns do not fit a phone.
  d.peaks = new DataTable(d.peaksBox, { caption: 'Each step’s peak, predicted and measured', className: 'wb-check__peaks table--reflow' });
  d.table = new DataTable(d.tableBox, { caption: 'Predicted and measured, phase by phase', className: 'wb-check__table table--reflow' });
  return d;
}

// mountWorkbenchCheck(root, { engine, store }): appends the panel to root. engine as engine.js gives it
// (evaluate(object) → object); store (optional) gives the units and records each comparison
// (lab_state.gpu_checks: the design ledger). The named parts below share one context `c`: the
// elements, the scenario shown, its script's check, and whether a comparison was asked for.
export function mountWorkbenchCheck(root, { engine, store = null }) {
  const c = { d: buildDom(), store, evaluate: (s) => engine.evaluate(s), scenario: null, check: null, compared: false };
  const { d } = c;
  root.append(d.root);
  d.download.addEventListener('click', () => downloadScript(c));
  d.copy.addEventListener('click', () => copyScript(c));
  d.where.addEventListener('change', () => showScript(c, c.scenario));
  d.compare.addEventListener('click', () => { c.compared = true; showComparison(c); });

  return {
    el: d.root,
    // A new workbench scenario: a new script; a comparison on screen is made again (a result of the
    // old scenario is then refused, naming what differs).
    show(s) {
      showScript(c, s);
      if (c.compared) showComparison(c);
    },
    destroy() { d.root.remove(); },
  };
}

// Where the script is to run, as the radio buttons say: 'cuda' or 'cpu-1.13'.
const chosenBuild = (c) => c.d.where.querySelector('input:checked').value;

// The units the store's lab uses (GB where there is no store).
const unitsOf = ({ store }) => (store && store.getState && store.getState().config && store.getState().config.units) || 'gb';

// The script for scenario `s` where it is to run: the buttons, or why there is none, and a slow-run warning.
function showScript(c, s) {
  const { d } = c;
  c.scenario = s;
  c.check = s ? checkFor(c.evaluate, forBuild(s, chosenBuild(c))) : { error: { field: 'scenario', message: 'no scenario yet' } };
  const bad = !!c.check.error;
  d.download.disabled = bad;
  d.copy.disabled = bad;
  setHidden(d.cannot, !bad);
  if (bad) setText(d.cannot, `No script for this scenario: ${c.check.error.message}.`);
  // A big step on a CPU runs for minutes: said before the download (a rough estimate, whole minutes).
  const minutes = !bad && chosenBuild(c) === 'cpu-1.13' ? cpuRunSeconds(c.check) / 60 : 0;
  setHidden(d.slow, minutes < 1);
  if (minutes >= 1) setText(d.slow, `⚠ On a CPU this may run for about ${formatInt(Math.ceil(minutes))} minutes; a smaller batch or sequence is quicker.`);
  setHidden(d.scriptBox, true);
  setText(d.status, '');
}

// The script selected in its box, where it cannot be saved or copied from here, with the status saying why.
function showScriptCopy({ d }, text, message) {
  d.scriptBox.value = text;
  setHidden(d.scriptBox, false);
  d.scriptBox.focus();
  d.scriptBox.select();
  setText(d.status, message);
}

// "Download": a file where the page can save one, else (or perhaps) the script box.
function downloadScript(c) {
  if (c.check.error) return;
  const text = pytorchScript(c.check);
  const outlook = downloadOutlook(frameChain(window));
  if (outlook === 'no') { showScriptCopy(c, text, `✕ This embedded lab may not save files. The script is selected in the box below: ${COPY_HOW}, then save it as ${SCRIPT_FILE_NAME}.`); return; }
  saveFile(document, SCRIPT_FILE_NAME, text, 'text/x-python');
  if (outlook === 'unknown') showScriptCopy(c, text, `⚠ If no file arrived, the script is selected in the box below: ${COPY_HOW}.`);
  else setText(c.d.status, `✓ Downloaded ${SCRIPT_FILE_NAME} (${formatInt(text.split('\n').length)} lines).`);
}

// "Copy the script" to the clipboard, or into the script box where the clipboard is refused.
async function copyScript(c) {
  if (c.check.error) return;
  const text = pytorchScript(c.check);
  try {
    await navigator.clipboard.writeText(text);
    setHidden(c.d.scriptBox, true);
    setText(c.d.status, '✓ The script is on the clipboard.');
  } catch {
    showScriptCopy(c, text, `This page may not use the clipboard here; the script is selected in the box below: ${COPY_HOW}.`);
  }
}

// The pasted result against the prediction: the verdict, the peaks and phase tables, and the record.
function showComparison(c) {
  const { d } = c;
  // Compared with the prediction for where the result says it ran (a CPU result pasted while the
  // GPU is chosen is still this step).
  const read = readShape(d.paste.value); // where it ran, even when its numbers are refused below
  const ranOn = read.measured && read.measured.scenario.pytorch_build;
  const where = d.where.querySelector(`input[value="${ranOn}"]`);
  if (where && !where.checked) { where.checked = true; showScript(c, c.scenario); } // the script for where it ran
  const cmp = compareMeasured(c.evaluate, forBuild(c.scenario || {}, ranOn || chosenBuild(c)), d.paste.value);
  setHidden(d.error, !cmp.error);
  setHidden(d.result, !!cmp.error);
  if (cmp.error) {
    setText(d.error, `✕ Not compared. ${refusalText(cmp.error)}. Your paste is kept.`);
    return;
  }
  const v = verdict(cmp);
  setText(d.verdict, `${v.ok ? '✓' : '✕'} ${v.text}`);
  d.verdict.className = `wb-check__verdict ${v.ok ? 'is-ok' : 'is-bad'}`;
  setText(d.on, measuredOnText(cmp, cmp.style));
  const rows = comparisonRows(cmp, unitsOf(c));
  const columns = ['Step: phase', 'Predicted', 'Measured', 'Error'];
  d.peaks.update({ columns, rows: rows.filter((r) => r.cls === 'is-peak') });
  d.table.update({ columns, rows });
  setText(d.timing, timingText(cmp));
  // Recorded in the store (lab_state.gpu_checks) for the design ledger.
  if (c.store) c.store.update((s) => withGpuCheck(s, checkRecord(cmp, d.paste.value)));
}

// The comparison's phases as DataTable rows, each step's peak marked.
function comparisonRows(cmp, units) {
  return checkRows(cmp, units).map((r, i) => ({ key: `${cmp.phases[i].step}-${cmp.phases[i].phase}`, header: `${r.step}: ${r.phase}`,
    cls: r.isPeak ? 'is-peak' : null,
    cells: [{ text: r.predicted, value: cmp.phases[i].predicted_bytes }, { text: r.measured, value: cmp.phases[i].measured_bytes },
      { text: r.error, value: cmp.phases[i].error_pct }] }));
}
