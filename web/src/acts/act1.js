// Act 1, "The optimizer memory tax": the steps (predict → explore → reveal → reflect) and their hooks.
// Words and sourced constants live in act1-text.js, engine-derived numbers in act1-numbers.js, the
// instruments in ui/ and charts/. The act reads and writes only the store; it never touches the URL.
import { h, setText, setLocked, replaceChildren, uid } from '../ui/dom.js';
import { panel, renderSteps } from '../ui/act-parts.js';
import { createAfterPaint } from '../ui/after-paint.js';
import { focusNearTop } from '../ui/keep-in-view.js';
import { createPrediction } from '../ui/prediction.js';
import { createReflection } from '../ui/reflection.js';
import { createControls } from '../ui/controls.js';
import { NotesPanel } from '../ui/notes.js';
import { MathPeek } from '../ui/math-peek.js';
import { OptimizerTable } from '../ui/optimizer-table.js';
import { Banner } from '../ui/banner.js';
import { LedgerChart } from '../charts/ledger-chart.js';
import { LedgerTable } from '../charts/ledger-table.js';
import { buildLedger, bannerFor, ledgerSummary, describeConfig, COMPONENT_LABELS, sumPeak, sumPeakText, phaseWords } from '../models/ledger-model.js';
import { OPTIMIZERS, toScenario, REPLAY_DEVICE, frameworkOf, controlsOff, LABELS } from '../state/scenario.js';
import { scenarioFacts } from '../format/sentences.js';
import { errorRatio, describeError, nearestOption, withTry, lastTry, firstAnswerNote } from '../format/scoring.js';
import { withConfig, withAct1 } from '../state/store.js';
import { act1Complete } from '../state/completion.js';
import { openControls, withFlags } from '../state/url-state.js';
import { fixedNumbers, currentNumbers } from '../models/act1-numbers.js';
import { formatBytesApprox } from '../format/format.js';
import { whyDetails } from '../ui/why-details.js';
import * as T from '../content/act1-text.js';
import { act1CheckHref } from '../state/act1-check-link.js';

export const id = 1;
export const title = T.TITLE;
export const shortTitle = T.SHORT_TITLE;

// The controls whose change counts as exploring (component toggles included): ui/controls.js's keys.
const ACT1_CONTROLS = ['opt', 'prec', 'batch', 'ckpt', 'dev', 'replay', 'fw', 'comp'];

const STEPS = [
  { id: 'predict', label: 'Predict', done: (a) => Boolean(a.prediction) },
  // Exploring = changing at least one ledger control or component toggle after the prediction.
  { id: 'explore', label: 'Explore the ledger', done: (a) => Boolean(a.explored) },
  { id: 'reveal', label: 'Reveal', done: (a) => a.revealed },
  { id: 'reflect', label: 'Reflect', done: (a) => Boolean(a.reflection) },
];


export function mount({ root, engine, store, flags, announce }) {
  const evaluate = (s) => engine.evaluate(s);
  const n = fixedNumbers(evaluate);
  const catalog = engine.catalog();
  const afterPaint = createAfterPaint(root); // table twin, comparison table, Math Peek: after the chart paints

  // ---- prediction lock
  const stepList = h('ol', { class: 'steps', 'aria-label': 'Your progress in Act 1' });
  const prediction = createPrediction({
    question: T.PREDICTION.question,
    unlocks: 'The ledger is open.',
    options: T.PREDICTION.options,
    onLock: (choice) => {
      const opt = T.PREDICTION.options.find((o) => o.id === choice);
      const predicted = opt.value(n);
      const { ratio, direction } = errorRatio(predicted, n.adamDelta);
      store.update((s) => withAct1(s, {
        prediction: {
          choice, predicted_bytes: predicted, truth_bytes: n.adamDelta,
          error_ratio: Number.isFinite(ratio) ? ratio : null, direction, answered_at: new Date().toISOString(),
        },
      }));
      announce('Prediction locked in. The memory ledger and the notes are now open.');
      focusNearTop(ledgerPanel.heading);
    },
  });
  const predictPanel = panel('1. Predict', prediction.el);
  const lockedHint = h('p', { class: 'locked-hint' }, h('strong', { text: 'Locked: ' }), 'the ledger, the comparison table and the notes open once you lock in a prediction.');

  // ---- ledger instrument
  // Any change to the ledger's settings counts as exploring (it is what unlocks the reveal).
  const explore = (s, patch) => {
    const next = withConfig(s, patch);
    return next.acts.act1.explored || !next.acts.act1.prediction ? next : withAct1(next, { explored: true });
  };
  const deviceById = new Map(catalog.devices.map((d) => [d.id, d]));
  const controls = createControls({
    devices: catalog.devices, flags,
    onChange: (patch) => store.update((s) => explore(s, patch)),
    onReplayStep: (step) => store.update((s) => explore(s, { ...step.config, replay: true })),
    replayText: (u) => T.replayAssumptions(n, u),
    deviceText: (cfg) => T.deviceNoteText(cfg.device === 'custom' && !cfg.replay
      ? { custom: true, capacity_bytes: Math.round(cfg.custom_capacity_gb * 1e9) }
      : deviceById.get(cfg.replay ? REPLAY_DEVICE : cfg.device) || { name: '', capacity_bytes: NaN }, cfg.units),
    frameworkText: { legend: T.FRAMEWORK_LEGEND, note: T.FRAMEWORK_NOTE, ckptReason: T.CKPT_PYTORCH_REASON, replayReason: T.REPLAY_PYTORCH_REASON },
  });
  const bannerView = new Banner();
  const banner = bannerView.el;
  const summaryId = uid('ledger-summary');
  const summary = h('p', { class: 'chart-summary', id: summaryId });
  // Sum of components and peak during a step, side by side, for the selected optimizer.
  const sumPeakBox = h('p', { class: 'panel__note ledger-sumpeak', 'data-testid': 'sum-peak' });
  // Under PyTorch counting: this step in the workbench, where "Check it on your GPU" writes its script.
  const checkLink = h('a', { href: '?act=workbench', 'data-testid': 'act1-check-link', text: T.CHECK_LINK });
  const checkLinkBox = h('p', { class: 'panel__note', hidden: true }, checkLink);
  const chartBox = h('div', { class: 'chart-box ledger-box' });
  const toggles = h('fieldset', { class: 'toggles', 'data-control': 'comp' }, h('legend', { text: 'Show in the chart (totals always count everything)' }));
  const twin = h('details', { class: 'twin' }, h('summary', { text: 'The chart’s numbers as a table' }));
  const ledgerPanel = panel('2. Training memory ledger',
    h('p', { class: 'panel__lead', text: `One column per optimizer; yours is outlined. The dashed line is what the device can hold.${openControls(['dev'], flags).length ? ' Try the 8 GB laptop GPU: can GPT-2 XL fit?' : ''}` }),
    controls.el, banner,
    h('figure', { class: 'chart-figure' }, chartBox),
    sumPeakBox, checkLinkBox, toggles, twin);
  const chart = new LedgerChart(chartBox, { label: 'Training memory ledger chart' });
  // The chart's summary sentence is its accessible name; on screen it heads the table twin, so the
  // banner above the chart is the one sentence a student reads there (issue 23: words on screen).
  twin.append(summary);
  const table = new LedgerTable(twin, { caption: 'Training memory by component and optimizer' });
  if (flags.hide.includes('comp')) toggles.hidden = true;
  let toggleKeys = '';

  const optTableBox = h('details', { class: 'opt-details' }, h('summary', { text: 'The comparison table' }));
  const optTablePanel = panel('Optimizer comparison',
    h('p', { class: 'panel__lead', text: 'The chapter’s 1× / 2× / 3× counts weights and optimizer state; a fit check also counts gradients.' }), optTableBox);
  const optTable = new OptimizerTable(optTableBox);
  const peekBox = h('div', { class: 'panel panel--peek' });
  const peek = new MathPeek(peekBox);
  // Under PyTorch defaults the Math Peek (the textbook formula) gives way to a note.
  const peekOff = h('p', { class: 'panel__note', text: T.PEEK_PYTORCH_NOTE, hidden: true });
  peekBox.append(peekOff);

  // ---- reveal and reflection
  const revealBody = h('div', { class: 'reveal', role: 'status', 'aria-atomic': 'false' });
  const revealHintId = uid('reveal-hint');
  // An instructor may lock or hide every control (or lock the one that would switch the others back
  // on); then there is nothing to explore and the reveal opens with the prediction.
  const openNow = (config) => openControls(ACT1_CONTROLS, flags).filter((k) => !controlsOff(config).includes(k));
  const revealHint = h('p', { class: 'reveal-hint', id: revealHintId });
  const revealButton = h('button', { type: 'button', class: 'btn btn--primary', 'aria-describedby': revealHintId, text: 'Reveal: how far off was my prediction?' });
  const revealLead = h('p', { class: 'panel__lead' });
  const revealPanel = panel('3. Reveal', revealLead, revealHint, revealButton, revealBody);
  revealButton.addEventListener('click', () => {
    const st = store.getState();
    if (!st.acts.act1.explored && openNow(st.config).length) return;
    store.update((s) => withAct1(s, { revealed: true }));
    revealPanel.heading.focus();
  });
  const reflection = createReflection({
    prompt: T.REFLECTION.prompt,
    ratioOptions: T.REFLECTION.ratioOptions,
    reasonOptions: T.REFLECTION.reasonOptions,
    onSubmit: (ratioChoice, reasonChoice) => {
      const values = T.REFLECTION.ratioOptions.map((o) => o.value);
      const best = T.REFLECTION.ratioOptions[nearestOption(values, n.replayRatio)].id;
      // The answering rule (scoring.js withTry): the first answer is scored, every try is kept.
      store.update((s) => {
        const reflection = withTry(s.acts.act1.reflection, {
          ratio_choice: ratioChoice, reason_choice: reasonChoice,
          ratio_correct: ratioChoice === best, reason_correct: reasonChoice === T.REFLECTION.correctReason,
          engine_ratio: n.replayRatio, answered_at: new Date().toISOString(),
        });
        return withAct1(s, { reflection, completed: act1Complete({ ...s.acts.act1, reflection }) });
      });
    },
  });
  const currentRatio = h('p', { class: 'panel__note' });
  // The feedback above says right or not in a sentence each; the sums behind it wait here.
  const feedbackMore = h('div', { class: 'feedback-more' });
  const reflectWhy = whyDetails('Why? The numbers', feedbackMore, currentRatio);
  const reflectPanel = panel('4. Reflect: mixed precision', reflection.el, reflectWhy);
  const done = h('p', { class: 'done', role: 'status' });

  // ---- notes
  const aside = h('aside', { class: 'act-notes', 'aria-label': 'Chapter and physics notes' });
  const replayNote = h('div', { class: 'replay-note' });
  aside.append(replayNote);
  const notes = new NotesPanel(aside);
  // PyTorch's mixed precision vs the chapter's: numbers for the scenario on screen (PyTorch defaults).
  const autocastBody = h('div', { class: 'autocast-note__body' });
  aside.append(h('section', { class: 'notes autocast-note', 'data-note': 'autocast', 'aria-label': T.AUTOCAST_HEADING },
    whyDetails(T.AUTOCAST_HEADING, autocastBody)));

  const unlocked = h('div', { class: 'act-unlocked' },
    h('div', { class: 'act-grid' },
      h('div', { class: 'act-main' }, ledgerPanel.el, optTablePanel.el, peekBox, revealPanel.el, reflectPanel.el, done),
      aside));
  const titleEl = h('h2', { id: 'act-title', tabindex: '-1', text: T.TITLE });
  root.append(h('section', { class: 'act', 'aria-labelledby': 'act-title', 'data-act': '1' },
    titleEl, stepList, h('p', { class: 'act-intro', text: T.INTRO }),
    predictPanel.el, lockedHint, unlocked));

  // ---- render
  let last = {};
  function renderBanner(b) {
    bannerView.update(b);
    banner.dataset.binding = b.kind;
  }
  function renderToggles(ledger, config) {
    const key = ledger.present.join(',');
    if (key !== toggleKeys) {
      toggleKeys = key;
      replaceChildren(toggles, h('legend', { text: 'Show in the chart (totals always count everything)' }),
        ledger.present.map((k) => {
          const cid = uid(`comp-${k}`);
          const box = h('input', { type: 'checkbox', id: cid, value: k, 'data-component': k,
            disabled: flags.lock.includes('comp'),
            onchange: () => store.update((s) => explore(s, {
              hidden_components: box.checked ? s.config.hidden_components.filter((x) => x !== k) : [...s.config.hidden_components, k],
            })) });
          return h('div', { class: 'toggle' }, box, h('label', { for: cid }, h('span', { class: `swatch swatch--${k}`, 'aria-hidden': 'true' }), COMPONENT_LABELS[k]));
        }),
        flags.lock.includes('comp') ? h('p', { class: 'control__note control__note--lock', text: 'Locked by your instructor.' }) : null);
    }
    for (const box of toggles.querySelectorAll('input')) box.checked = !config.hidden_components.includes(box.value);
  }

  function renderInstrument(state) {
    const { config } = state;
    const u = config.units;
    const results = {};
    for (const opt of OPTIMIZERS) {
      const r = evaluate(toScenario(config, { optimizer: opt }));
      if (r.error) {
        bannerView.update({ state: 'error', title: 'The engine could not compute this setting.', text: `${r.error.field}: ${r.error.message}` });
        return;
      }
      results[opt] = r;
    }
    const sel = results[config.optimizer];
    const deviceName = sel.device.name;
    const ledger = buildLedger(results, config.optimizer, config.hidden_components);
    const sentence = ledgerSummary(ledger, config, deviceName, u);
    const sp = sumPeak(ledger);
    setText(sumPeakBox, sumPeakText(sp, u));
    // In the textbook layout the peak is the sum and the banner already gives it: the line stays for
    // PyTorch defaults, where the two differ.
    sumPeakBox.hidden = sp.framework !== 'pytorch';
    checkLinkBox.hidden = sp.framework !== 'pytorch' || !sel.scenario;
    if (!checkLinkBox.hidden) checkLink.href = act1CheckHref(sel.scenario, u);
    Object.assign(sumPeakBox.dataset, { framework: sp.framework, sumBytes: String(sp.sum_bytes), peakBytes: String(sp.peak_bytes), phase: sp.peak_phase || '' });
    const b = bannerFor(sel, deviceName, u);
    renderBanner(b);
    const a1 = state.acts.act1;
    // After the reveal the chart draws the prediction beside Adam's real extra memory over SGD.
    const overlay = a1.revealed && a1.prediction ? {
      predicted_bytes: a1.prediction.predicted_bytes,
      predicted_label: `about ${formatBytesApprox(a1.prediction.predicted_bytes, u)} extra (for FP32)`,
      predicted_short: `about ${formatBytesApprox(a1.prediction.predicted_bytes, u)}`,
      gap_bytes: results.adam.memory.static_bytes - results.sgd.memory.static_bytes,
    } : null;
    chart.update(ledger, { units: u, deviceName, summary: sentence, overlay });
    setText(summary, sentence);
    renderToggles(ledger, config);
    // What is not on screen right after a change (the table twin, the comparison table, the Math
    // Peek, the ratio note) follows one frame later, so the chart and banner paint first.
    afterPaint(() => {
      table.update(ledger, { units: u, caption: `Training memory for GPT-2 XL (${describeConfig(config)}) on the ${deviceName}, in ${u === 'gib' ? 'GiB' : 'GB'}` });
      const fp32 = {};
      for (const opt of OPTIMIZERS) fp32[opt] = evaluate(toScenario(config, { optimizer: opt, precision: 'fp32' }));
      const optKey = JSON.stringify([config.precision, u, config.replay, config.device, config.custom_capacity_gb, frameworkOf(config), config.batch_size]);
      if (optKey !== lastOptKey) { optTable.update(fp32, results, { units: u, precision: config.precision, replay: Boolean(config.replay) }); lastOptKey = optKey; }
      const pytorch = frameworkOf(config) === 'pytorch';
      peek.el.hidden = pytorch;
      peekOff.hidden = !pytorch;
      if (!pytorch) peek.update(sel, u, { withoutCheckpointing: config.checkpointing === 'none' ? null : () => evaluate(toScenario(config, { checkpointing: 'none' })) });
      // The reflection is about the chapter's mixed precision: under PyTorch defaults its numbers stay the textbook layout's.
      setText(currentRatio, T.currentRatioText(currentNumbers(evaluate, pytorch ? { ...config, framework: 'textbook' } : config), u, { textbookOfPytorch: pytorch }));
      renderAutocast(config, u, pytorch);
    });
  }

  let lastOptKey = '';

  function renderAutocast(config, u, pytorch) {
    autocastBody.dataset.framework = pytorch ? 'pytorch' : 'textbook';
    if (!pytorch) { replaceChildren(autocastBody, h('p', { text: T.AUTOCAST_TEXTBOOK })); return; }
    const acR = evaluate(toScenario(config, { precision: 'mixed' }));
    const fpR = evaluate(toScenario(config, { precision: 'fp32' }));
    if (acR.error || fpR.error) { replaceChildren(autocastBody); return; }
    const label = LABELS.optimizer[config.optimizer];
    const facts = (r) => ({ ...scenarioFacts(r), optimizerLabel: label, batch: r.scenario.batch_size });
    const where = (r) => phaseWords(r.memory.step_phases.peak_phase, r.model.layers);
    const lines = T.autocastText({ ac: facts(acR), fp: facts(fpR), acCache: acR.memory.components.autocast_weight_cache, acWhere: where(acR), fpWhere: where(fpR) }, u);
    replaceChildren(autocastBody, lines.map((t) => h('p', { text: t })));
    Object.assign(autocastBody.dataset, { acPeak: String(acR.memory.peak_bytes), fpPeak: String(fpR.memory.peak_bytes), acCache: String(acR.memory.components.autocast_weight_cache) });
  }

  function renderWords(state) {
    const a = state.acts.act1;
    const u = state.config.units;
    const labels = Object.fromEntries(T.PREDICTION.options.map((o) => [o.id, o.label(n, u)]));
    prediction.update(labels, a.prediction ? a.prediction.choice : null);
    const open = openNow(state.config);
    const nothingToExplore = open.length === 0;
    const explored = Boolean(a.explored) || (nothingToExplore && Boolean(a.prediction));
    renderSteps(stepList, STEPS, { ...a, explored });
    setLocked(unlocked, !a.prediction);
    lockedHint.hidden = Boolean(a.prediction);
    notes.update(T.NOTES.map((note) => (note.heldUntilReflection && !a.reflection ? { ...note, held: T.NOTE_HELD }
      : { ...note, physics: note.physics(n, u), why: typeof note.why === 'function' ? note.why(n, u) : note.why })));
    replaceChildren(replayNote, state.config.replay
      ? [h('h3', { text: 'Chapter replay is on' }), h('p', { text: T.replayNoteShort(n, u) }),
        whyDetails('Why? The chapter’s assumptions', h('p', { text: T.replayNoteText(n, u) }))]
      : []);
    revealButton.hidden = a.revealed;
    revealButton.disabled = !explored;
    setText(revealLead, nothingToExplore ? T.NOTHING_TO_EXPLORE : 'When you are ready, compare your prediction with the engine.');
    // An instruction, done once revealed (walk 10); until the ledger is explored the hint says what to do.
    revealLead.hidden = a.revealed || !explored;
    setText(revealHint, T.revealHint(open));
    revealHint.hidden = a.revealed || explored;
    if (a.revealed && a.prediction) {
      const p = a.prediction;
      const i = T.PREDICTION.options.findIndex((o) => o.id === p.choice);
      const chosen = labels[p.choice];
      const lines = T.revealText(n, `${String.fromCharCode(65 + i)}, ${chosen.charAt(0).toLowerCase()}${chosen.slice(1)}`, describeError(p.predicted_bytes, p.truth_bytes, u), u);
      const [tradeoff, tradeoffMore] = T.tradeoffText(n, u);
      // On screen: the answer, the engine's number and the static total; the chapter's rounding and
      // the laptop and H100 cases behind "Why?".
      replaceChildren(revealBody,
        h('p', { text: lines[0] }), h('p', { class: 'reveal__key', text: lines[1] }), h('p', { text: lines[3] }),
        whyDetails('Why? The exact count and the chapter’s rounding', h('p', { text: lines[2] })),
        h('h4', { text: 'The convergence trade-off' }), h('p', { text: tradeoff }),
        whyDetails('Why? The source, the laptop and the H100', h('p', { text: tradeoffMore })));
      revealBody.dataset.revealed = 'true';
    } else {
      revealBody.replaceChildren();
      delete revealBody.dataset.revealed;
    }
    setLocked(reflectPanel.el, !a.revealed);
    const r = lastTry(a.reflection); // the answer on screen; the first is the one scored
    reflection.update(r, r ? [
      { ok: r.ratio_correct, text: T.ratioFeedback(r.ratio_correct, n, u) },
      { ok: r.reason_correct, text: T.reasonFeedback(r.reason_choice, n, u) },
    ] : [], r ? firstAnswerNote(a.reflection.ratio_correct && a.reflection.reason_correct, a.reflection.attempts || 1) : null);
    reflectWhy.hidden = !r;
    replaceChildren(feedbackMore, r ? h('p', { text: T.reasonMore(r.reason_choice, n, u) }) : []);
    // Complete means answered, not answered right (walk 10): a wrong reflection says where to look.
    const reflectionRight = Boolean(r && r.ratio_correct && r.reason_correct);
    replaceChildren(done, a.completed ? [`Act 1 complete. ${store.status().persistent ? 'Your answers are saved with your progress' : 'Your answers are kept in this tab only: export your design ledger to keep them'}${reflectionRight ? '' : '; the reflection’s feedback above says what to look at again (you may answer again)'}. Next: `, h('a', { href: withFlags('?act=2', flags), text: 'Act 2, the MFU gap' }), '.'] : []);
  }

  function render(state) {
    const a1 = state.acts.act1;
    const configKey = JSON.stringify([state.config, a1.revealed, a1.prediction && a1.prediction.predicted_bytes]);
    if (configKey !== last.config) { controls.update(state.config); renderInstrument(state); }
    const wordsKey = JSON.stringify([state.acts.act1, state.config.units, state.config.replay, frameworkOf(state.config)]);
    if (wordsKey !== last.words) renderWords(state);
    last = { config: configKey, words: wordsKey };
  }

  render(store.getState());
  const unsubscribe = store.subscribe((state) => render(state));
  return { focus: () => titleEl.focus(), destroy: () => { unsubscribe(); chart.reset(); root.replaceChildren(); } };
}
