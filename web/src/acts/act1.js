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
  { id: 'predict', label: 'Predict', done: (a) => !!a.prediction },
  // Exploring = changing at least one ledger control or component toggle after the prediction.
  { id: 'explore', label: 'Explore the ledger', done: (a) => !!a.explored },
  { id: 'reveal', label: 'Reveal', done: (a) => a.revealed },
  { id: 'reflect', label: 'Reflect', done: (a) => !!a.reflection },
];

// Any change to the ledger's settings counts as exploring (it is what unlocks the reveal).
function explore(s, patch) {
  const next = withConfig(s, patch);
  return next.acts.act1.explored || !next.acts.act1.prediction ? next : withAct1(next, { explored: true });
}

// An instructor may lock or hide every control (or lock the one that would switch the others back
// on); then there is nothing to explore and the reveal opens with the prediction.
function openNow(flags, config) {
  return openControls(ACT1_CONTROLS, flags).filter((k) => !controlsOff(config).includes(k));
}

// After the reveal the chart draws the prediction beside Adam's real extra memory over SGD.
function revealOverlay(a1, results, u) {
  if (!a1.revealed || !a1.prediction) return null;
  const predicted = `about ${formatBytesApprox(a1.prediction.predicted_bytes, u)}`;
  return {
    predicted_bytes: a1.prediction.predicted_bytes,
    predicted_label: `${predicted} extra (for FP32)`,
    predicted_short: predicted,
    gap_bytes: results.adam.memory.static_bytes - results.sgd.memory.static_bytes,
  };
}

// Step 2, the memory ledger: controls, banner, chart, toggles and table twin, appended to `main`.
// Returns [render, the panel's heading (the lock focuses it), the chart (destroy resets it)]; render
// draws the chart and banner now and runs ctx.afterChart (the other steps' numbers) a frame later.
function buildLedgerStep(ctx, main, devices) {
  const { n, store, flags, evaluate } = ctx;
  const deviceById = new Map(devices.map((d) => [d.id, d]));
  const controls = createControls({
    devices, flags,
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
  main.append(ledgerPanel.el);
  const chart = new LedgerChart(chartBox, { label: 'Training memory ledger chart' });
  // The chart's summary sentence is its accessible name; on screen it heads the table twin, so the
  // banner above the chart is the one sentence a student reads there (issue 23: words on screen).
  twin.append(summary);
  const table = new LedgerTable(twin, { caption: 'Training memory by component and optimizer' });
  if (flags.hide.includes('comp')) toggles.hidden = true;
  let toggleKeys = '';

  // The "Show in the chart" checkboxes, one per component present (rebuilt only when that set changes).
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

  return [(state) => {
    const { config } = state;
    const u = config.units;
    controls.update(config);
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
    Object.assign(sumPeakBox.dataset, { framework: sp.framework, sumBytes: sp.sum_bytes, peakBytes: sp.peak_bytes, phase: sp.peak_phase || '' });
    const b = bannerFor(sel, deviceName, u);
    bannerView.update(b);
    banner.dataset.binding = b.kind;
    chart.update(ledger, { units: u, deviceName, summary: sentence, overlay: revealOverlay(state.acts.act1, results, u) });
    setText(summary, sentence);
    renderToggles(ledger, config);
    // What is not on screen right after a change (the table twin, the comparison table, the Math
    // Peek, the ratio note) follows one frame later, so the chart and banner paint first.
    ctx.afterPaint(() => {
      table.update(ledger, { units: u, caption: `Training memory for GPT-2 XL (${describeConfig(config)}) on the ${deviceName}, in ${u === 'gib' ? 'GiB' : 'GB'}` });
      const pytorch = frameworkOf(config) === 'pytorch';
      for (const later of ctx.afterChart) later(config, pytorch, results);
    });
  }, ledgerPanel.heading, chart];
}

// The comparison table (at FP32, as the chapter counts) and the Math Peek (the textbook formula,
// which gives way to a note under PyTorch defaults), appended to `main`; both redraw after the chart.
function buildComparison(evaluate, afterChart, main) {
  const optTableBox = h('details', { class: 'opt-details' }, h('summary', { text: 'The comparison table' }));
  const optTablePanel = panel('Optimizer comparison',
    h('p', { class: 'panel__lead', text: 'The chapter’s 1× / 2× / 3× counts weights and optimizer state; a fit check also counts gradients.' }), optTableBox);
  const optTable = new OptimizerTable(optTableBox);
  const peekBox = h('div', { class: 'panel panel--peek' });
  const peek = new MathPeek(peekBox);
  const peekOff = h('p', { class: 'panel__note', text: T.PEEK_PYTORCH_NOTE, hidden: true });
  peekBox.append(peekOff);
  main.append(optTablePanel.el, peekBox);
  let lastOptKey = '';
  afterChart.push((config, pytorch, results) => {
    const u = config.units;
    const fp32 = {};
    for (const opt of OPTIMIZERS) fp32[opt] = evaluate(toScenario(config, { optimizer: opt, precision: 'fp32' }));
    const optKey = JSON.stringify([config.precision, u, config.replay, config.device, config.custom_capacity_gb, frameworkOf(config), config.batch_size]);
    if (optKey !== lastOptKey) { optTable.update(fp32, results, { units: u, precision: config.precision, replay: !!config.replay }); lastOptKey = optKey; }
    peek.el.hidden = pytorch;
    peekOff.hidden = !pytorch;
    if (!pytorch) peek.update(results[config.optimizer], u, { withoutCheckpointing: config.checkpointing === 'none' ? null : () => evaluate(toScenario(config, { checkpointing: 'none' })) });
  });
}

// Step 3, the reveal, appended to `main`: it opens once the ledger is explored and sets the
// prediction beside the engine's number. Returns its render function.
function buildRevealStep(n, store, flags, main) {
  const revealBody = h('div', { class: 'reveal', role: 'status', 'aria-atomic': 'false' });
  const revealHintId = uid('reveal-hint');
  const revealHint = h('p', { class: 'reveal-hint', id: revealHintId });
  const revealButton = h('button', { type: 'button', class: 'btn btn--primary', 'aria-describedby': revealHintId, text: 'Reveal: how far off was my prediction?' });
  const revealLead = h('p', { class: 'panel__lead' });
  const revealPanel = panel('3. Reveal', revealLead, revealHint, revealButton, revealBody);
  main.append(revealPanel.el);
  revealButton.addEventListener('click', () => {
    const st = store.getState();
    if (!st.acts.act1.explored && openNow(flags, st.config).length) return;
    store.update((s) => withAct1(s, { revealed: true }));
    revealPanel.heading.focus();
  });
  // labels: the prediction's options in words; open: the controls left to explore.
  return (a, u, labels, open, explored) => {
    revealButton.hidden = a.revealed;
    revealButton.disabled = !explored;
    setText(revealLead, open.length === 0 ? T.NOTHING_TO_EXPLORE : 'When you are ready, compare your prediction with the engine.');
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
  };
}

// Step 4, the reflection on mixed precision, appended to `main`: scored on its first answer, with
// the sums behind it and (after the chart) the ratio at the settings on screen. Its render function
// returns whether the answer on screen is right.
function buildReflectionStep(n, store, evaluate, afterChart, main) {
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
  main.append(reflectPanel.el);
  // The reflection is about the chapter's mixed precision: under PyTorch defaults its numbers stay the textbook layout's.
  afterChart.push((config, pytorch) => setText(currentRatio, T.currentRatioText(currentNumbers(evaluate, pytorch ? { ...config, framework: 'textbook' } : config), config.units, { textbookOfPytorch: pytorch })));
  return (a, u) => {
    setLocked(reflectPanel.el, !a.revealed);
    const r = lastTry(a.reflection); // the answer on screen; the first is the one scored
    reflection.update(r, r ? [
      { ok: r.ratio_correct, text: T.ratioFeedback(r.ratio_correct, n, u) },
      { ok: r.reason_correct, text: T.reasonFeedback(r.reason_choice, n, u) },
    ] : [], r ? firstAnswerNote(a.reflection.ratio_correct && a.reflection.reason_correct, a.reflection.attempts || 1) : null);
    reflectWhy.hidden = !r;
    replaceChildren(feedbackMore, r ? h('p', { text: T.reasonMore(r.reason_choice, n, u) }) : []);
    return !!(r && r.ratio_correct && r.reason_correct);
  };
}

// The notes beside the steps: the chapter-replay note, the chapter and physics notes, and (after
// the chart) PyTorch's mixed precision against the chapter's in numbers. Returns the aside and
// its render function.
function buildNotes(n, evaluate, afterChart) {
  const aside = h('aside', { class: 'act-notes', 'aria-label': 'Chapter and physics notes' });
  const replayNote = h('div', { class: 'replay-note' });
  aside.append(replayNote);
  const notes = new NotesPanel(aside);
  // PyTorch's mixed precision vs the chapter's: numbers for the scenario on screen (PyTorch defaults).
  const autocastBody = h('div', { class: 'autocast-note__body' });
  aside.append(h('section', { class: 'notes autocast-note', 'data-note': 'autocast', 'aria-label': T.AUTOCAST_HEADING },
    whyDetails(T.AUTOCAST_HEADING, autocastBody)));
  afterChart.push((config, pytorch) => {
    const u = config.units;
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
    Object.assign(autocastBody.dataset, { acPeak: acR.memory.peak_bytes, fpPeak: fpR.memory.peak_bytes, acCache: acR.memory.components.autocast_weight_cache });
  });
  return [aside, (a, u, replay) => {
    notes.update(T.NOTES.map((note) => (note.heldUntilReflection && !a.reflection ? { ...note, held: T.NOTE_HELD }
      : { ...note, physics: note.physics(n, u), why: typeof note.why === 'function' ? note.why(n, u) : note.why })));
    replaceChildren(replayNote, replay
      ? [h('h3', { text: 'Chapter replay is on' }), h('p', { text: T.replayNoteShort(n, u) }),
        whyDetails('Why? The chapter’s assumptions', h('p', { text: T.replayNoteText(n, u) }))]
      : []);
  }];
}

// Builds the steps in page order, then redraws what a store change touches: the ledger when the
// settings change, the words when the act's record changes.
export function mount({ root, engine, store, flags, announce }) {
  const evaluate = (s) => engine.evaluate(s);
  // What the ledger step works with: the store, the instructor's flags, the act's fixed numbers, and
  // afterChart, the redraws the other steps hand it to run one frame after the chart.
  const n = fixedNumbers(evaluate);
  const ctx = { store, flags, evaluate, n, afterChart: [] };
  const catalog = engine.catalog();
  ctx.afterPaint = createAfterPaint(root); // table twin, comparison table, Math Peek: after the chart paints

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
      focusNearTop(ledgerHeading);
    },
  });
  const predictPanel = panel('1. Predict', prediction.el);
  const lockedHint = h('p', { class: 'locked-hint' }, h('strong', { text: 'Locked: ' }), 'the ledger, the comparison table and the notes open once you lock in a prediction.');
  const main = h('div', { class: 'act-main' });
  const [renderLedger, ledgerHeading, chart] = buildLedgerStep(ctx, main, catalog.devices);
  buildComparison(evaluate, ctx.afterChart, main);
  const renderReveal = buildRevealStep(n, store, flags, main);
  const renderReflection = buildReflectionStep(n, store, evaluate, ctx.afterChart, main);
  const done = h('p', { class: 'done', role: 'status' });
  main.append(done);
  const [aside, renderNotes] = buildNotes(n, evaluate, ctx.afterChart);
  const unlocked = h('div', { class: 'act-unlocked' }, h('div', { class: 'act-grid' }, main, aside));
  const titleEl = h('h2', { id: 'act-title', tabindex: '-1', text: T.TITLE });
  root.append(h('section', { class: 'act', 'aria-labelledby': 'act-title', 'data-act': '1' },
    titleEl, stepList, h('p', { class: 'act-intro', text: T.INTRO }),
    predictPanel.el, lockedHint, unlocked));

  // The words: progress, the lock, the notes, the reveal, the reflection and the closing line.
  function renderWords(state) {
    const a = state.acts.act1;
    const u = state.config.units;
    const labels = Object.fromEntries(T.PREDICTION.options.map((o) => [o.id, o.label(n, u)]));
    prediction.update(labels, a.prediction ? a.prediction.choice : null);
    const open = openNow(flags, state.config);
    const explored = !!a.explored || (open.length === 0 && !!a.prediction);
    renderSteps(stepList, STEPS, { ...a, explored });
    setLocked(unlocked, !a.prediction);
    lockedHint.hidden = !!a.prediction;
    renderNotes(a, u, state.config.replay);
    renderReveal(a, u, labels, open, explored);
    const reflectionRight = renderReflection(a, u);
    // Complete means answered, not answered right (walk 10): a wrong reflection says where to look.
    replaceChildren(done, a.completed ? [`Act 1 complete. ${store.status().persistent ? 'Your answers are saved with your progress' : 'Your answers are kept in this tab only: export your design ledger to keep them'}${reflectionRight ? '' : '; the reflection’s feedback above says what to look at again (you may answer again)'}. Next: `, h('a', { href: withFlags('?act=2', flags), text: 'Act 2, the MFU gap' }), '.'] : []);
  }

  // Redraws the ledger when the settings (or the reveal's overlay) change, the words when the act's record does.
  let last = {};
  function render(state) {
    const a1 = state.acts.act1;
    const configKey = JSON.stringify([state.config, a1.revealed, a1.prediction && a1.prediction.predicted_bytes]);
    if (configKey !== last.config) renderLedger(state);
    const wordsKey = JSON.stringify([state.acts.act1, state.config.units, state.config.replay, frameworkOf(state.config)]);
    if (wordsKey !== last.words) renderWords(state);
    last = { config: configKey, words: wordsKey };
  }

  render(store.getState());
  const unsubscribe = store.subscribe((state) => render(state));
  return { focus: () => titleEl.focus(), destroy: () => { unsubscribe(); chart.reset(); root.replaceChildren(); } };
}
