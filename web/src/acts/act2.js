// Act 2, "The MFU gap": predict → explore the step → reveal → reference → design and laptop
// challenges (act2-design.js, act2-laptop.js) → reflect (act2-reflect.js). Sections 2 and 3, the
// instruments, are in act2-step.js; words in act2-text.js, fixed engine numbers in act2-numbers.js,
// view models in ../models/, charts in ../charts/. The act reads and writes only the store.
import './act2.css';
import { h, setText, setLocked, replaceChildren } from '../ui/dom.js';
import { panel, renderSteps } from '../ui/act-parts.js';
import { createPrediction } from '../ui/prediction.js';
import { createAfterPaint } from '../ui/after-paint.js';
import { createOffscreenParts } from '../ui/offscreen-parts.js';
import { focusNearTop } from '../ui/keep-in-view.js';
import { DEVICES2, CHAPTER_TUNED2, BATCH_SIZES2, toScenario2 } from '../state/scenario.js';
import { rangeError, withNotAsked } from '../models/act2-model.js';
import { createAct2Search } from '../models/act2-search.js';
import { formatRatio } from '../format/format.js';
import { withAct2 } from '../state/store.js';
import { act2Complete } from '../state/completion.js';
import { openControls, withFlags } from '../state/url-state.js';
import { fixedNumbers } from '../models/act2-numbers.js';
import { renderReference, renderMathPeek } from './act2-panels.js';
import { buildStepSection, buildGaugeSection, renderStep, renderStepTables } from './act2-step.js';
import { createLaptopChallenge } from './act2-laptop.js';
import { createAct2Reflections } from './act2-reflect.js';
import { createDesignPanel } from './act2-design.js';
import * as T from '../content/act2-text.js';
import { whyDetails } from '../ui/why-details.js';

export const id = 2;
export const title = T.TITLE;
export const shortTitle = T.SHORT_TITLE;

// Each step carries the number of its section, so the list and the headings agree; sections 3 and 5,
// the gauges and the reference, are read rather than done, and count as done once reached (the
// gauges with the exploring, the reference with the reveal that opens it). Walks 7 and 10: a list
// without them read 1, 2, 4, 6 as if steps were missing.
const STEPS = [
  { id: 'predict', section: 1, label: 'Predict', done: (a) => Boolean(a.prediction) },
  { id: 'explore', section: 2, label: 'Explore the step', done: (a) => Boolean(a.explored) },
  { id: 'gauges', section: 3, label: 'Read the gauges', done: (a) => Boolean(a.explored) },
  { id: 'reveal', section: 4, label: 'Reveal', done: (a) => a.revealed },
  { id: 'reference', section: 5, label: 'Compare with the chapter', done: (a) => a.revealed },
  { id: 'design', section: 6, label: 'Design challenge', done: (a) => a.design.regime_reached },
  { id: 'laptop', section: 7, label: 'Laptop challenge', done: (a) => a.laptop.finished },
  { id: 'reflect', section: 8, label: 'Reflect', done: (a) => Boolean(a.reflection_fix && a.reflection_ckpt) },
];

// An instructor may lock or hide every control; then there is nothing to explore and the reveal opens.
const ACT2_CONTROLS = ['workers', 'prefetch', 'pin', 'prec', 'ckpt', 'batch', 'dev', 'replay'];

// Builds the act's sections in page order (the order also numbers their ids), then renders on every
// store change. Each part is a named function below, reading and writing the act's context.
export function mount({ root, engine, store, flags, announce, arrival = {} }) {
  const ctx = actContext({ root, engine, store, flags, announce, arrival });
  buildPrediction(ctx);
  buildStepSection(ctx); // act2-step.js
  buildGaugeSection(ctx);
  buildReveal(ctx);
  buildLaterSections(ctx);
  assemble(ctx);
  ctx.afterPaint = createAfterPaint(root);
  // What is out of view when the settings change is drawn just after the paint, or when it scrolls
  // in (ui/offscreen-parts.js): at 1,280 px the gauges sit below the step, at 390 px the bar and the
  // timeline sit below the controls, and the frame after an input then costs only what is seen.
  const offscreen = ctx.offscreen = createOffscreenParts();
  offscreen.watch(ctx.calibNote, ctx.barFigure, ctx.tlFigure, ctx.gaugePanel.el);

  const renderer = createRenderer(ctx);
  renderer.render(store.getState());
  const unsubscribe = store.subscribe((state) => renderer.render(state));
  // Once it is known whether the tuned regime is in reach, the panel and the step list are drawn again.
  ctx.design.start(store.getState().config2, renderer.redrawDesignAndWords);
  const { search, bar, timeline, gauge, titleEl } = ctx;
  return { focus: () => titleEl.focus(), destroy: () => { unsubscribe(); search.stop(); offscreen.stop(); bar.reset(); timeline.reset(); gauge.reset(); root.replaceChildren(); } };
}

// The act's context: what mount was given, the engine's fixed numbers, the GPUs and the controls an
// instructor left open; the builders add their elements and parts to it.
function actContext({ root, engine, store, flags, announce, arrival }) {
  const evaluate = (s) => engine.evaluate(s);
  const catalog = engine.catalog();
  const n = fixedNumbers(evaluate, catalog);
  const devices = DEVICES2.map((d) => catalog.devices.find((x) => x.id === d)).filter(Boolean);
  const open2 = new Set(openControls(ACT2_CONTROLS, flags));
  return { root, engine, store, flags, announce, arrival, evaluate, n, devices, open2,
    nothingToExplore: open2.size === 0, replayOpen: openControls(['replay'], flags).length > 0 };
}

// Section 1: the prediction that unlocks the rest, with the progress list above and the hint below.
function buildPrediction(ctx) {
  ctx.stepList = h('ol', { class: 'steps', 'aria-label': 'Your progress in Act 2' });
  ctx.prediction = createPrediction({
    question: T.PREDICTION.question, options: T.PREDICTION.options, unlocks: '',
    onLock: (choice) => lockPrediction(ctx, choice),
  });
  ctx.predictPanel = panel('1. Predict', ctx.prediction.el);
  ctx.lockedHint = h('p', { class: 'locked-hint' }, h('strong', { text: 'Locked: ' }), 'the step timing, the gauges and the challenges open once you lock in a prediction.');
}

// Records the prediction with the engine's tuned MFU and its error, then sends the reader to section 2.
function lockPrediction({ store, n, announce, stepPanel }, choice) {
  const opt = T.PREDICTION.options.find((o) => o.id === choice);
  const { ratio, direction } = rangeError(opt.range[0], opt.range[1], n.tuned.mfu);
  store.update((s) => withAct2(s, { prediction: {
    choice, predicted_mfu: opt.value, truth_mfu: n.tuned.mfu, error_ratio: Number.isFinite(ratio) ? ratio : null,
    direction, answered_at: new Date().toISOString(), scenario: { ...CHAPTER_TUNED2 },
  } }));
  announce('Prediction locked in. The pipeline instruments are now open.');
  focusNearTop(stepPanel.heading);
}

// Section 4: the button that compares the prediction with the engine, and the place for the answer.
function buildReveal(ctx) {
  const { store } = ctx;
  const revealBody = h('div', { class: 'reveal', role: 'status' });
  const revealHint = h('p', { class: 'control__note' });
  const revealButton = h('button', { type: 'button', class: 'btn btn--primary reveal-button', text: 'Reveal: how far off was my prediction?',
    onclick: () => { store.update((s) => withAct2(s, { revealed: true })); revealPanel.heading.focus(); } });
  const revealPanel = panel('4. Reveal', revealHint, revealButton, revealBody);
  Object.assign(ctx, { revealBody, revealHint, revealButton, revealPanel });
}

// Sections 5 to 8 and the Math Peek: the reference, the design and laptop challenges, the
// reflections, and the searches the design challenge and the fit banner share.
function buildLaterSections(ctx) {
  const { evaluate, engine, store, announce, flags, devices, arrival, nothingToExplore, open2 } = ctx;
  const afterReveal = () => h('p', { class: 'locked-hint', text: 'Opens after the reveal.' });
  ctx.refLocked = afterReveal();
  ctx.refBody = h('div');
  ctx.refPanel = panel('5. The chapter’s walkthrough beside the engine', ctx.refLocked, ctx.refBody);

  // The fit table and the best-setting search, scheduled off the input path (act2-search.js).
  const search = ctx.search = createAct2Search({ evaluate, solveBest: (c) => {
    const sv = engine.call('solve', { ...toScenario2(c, { schedule_steps: 0 }), max_batch_size: BATCH_SIZES2[BATCH_SIZES2.length - 1] });
    return sv.error ? null : sv.best_throughput;
  } });
  ctx.tableFor = (c) => search.tableFor(c);
  ctx.design = createDesignPanel({ evaluate, store, search, devices, arrival, nothingToExplore, open: open2,
    allOpen: open2.size === ACT2_CONTROLS.length });
  ctx.laptop = createLaptopChallenge({ engine, store, announce, flags });
  ctx.laptopPanel = panel('7. Laptop challenge: fit GPT-2 XL training in 8 GB', ctx.laptop.el);

  ctx.reflect = createAct2Reflections({ evaluate, store, fixes: ctx.n.fixes, lockedHint: afterReveal() });
  ctx.peek = h('details', { class: 'panel panel--peek math-peek' }, h('summary', { text: 'Math Peek: MFU and the Iron Law' }));
  ctx.peekBody = h('div');
  ctx.peek.append(ctx.peekBody);
  ctx.done = h('p', { class: 'done', role: 'status' });
}

// Puts the sections on the page: the prediction first, the rest locked until it is made.
function assemble(ctx) {
  const { stepPanel, gaugePanel, peek, revealPanel, refPanel, design, laptopPanel, reflect, done } = ctx;
  ctx.unlocked = h('div', { class: 'act-unlocked' },
    stepPanel.el, gaugePanel.el, peek, revealPanel.el, refPanel.el, design.el, laptopPanel.el, reflect.el, done);
  ctx.titleEl = h('h2', { id: 'act-title', tabindex: '-1', text: T.TITLE });
  ctx.root.append(h('section', { class: 'act act2', 'aria-labelledby': 'act-title', 'data-act': '2' },
    ctx.titleEl, ctx.stepList, T.INTRO.map((p) => h('p', { class: 'act-intro', text: p })), ctx.predictPanel.el, ctx.lockedHint, ctx.unlocked));

  // Tables wider than a phone scroll inside their box: make each box reachable by keyboard and named.
  for (const [twin, name] of [[ctx.barTwin, 'Step table'], [ctx.tlTwin, 'Timeline table']]) {
    const box = twin.querySelector('.table-scroll');
    if (box) { box.tabIndex = 0; box.setAttribute('role', 'region'); box.setAttribute('aria-label', `${name} (scrolls sideways on narrow screens)`); }
  }
}

// Sections 2 and 3 for the settings in `state` (act2-step.js); the parts not on screen right after a
// change (the table twins, the design challenge below the fold, the Math Peek, the reflections'
// numbers) follow one frame later, so the charts and gauges paint first. Returns the engine's result.
function renderInstrument(ctx, state) {
  const drawn = renderStep(ctx, state);
  if (!drawn) return null;
  const { r, b, tl } = drawn;
  ctx.afterPaint(() => {
    ctx.offscreen.flush();
    ctx.design.render(ctx.store.getState(), r); // section 6 is below the fold: after the paint too
    renderStepTables(ctx, b, tl);
    renderMathPeek(ctx.peekBody, r);
    ctx.reflect.renderNumbers(state.config2, state.config.units);
  });
  return r;
}

// The words that follow the student's progress: the step list, the locks, the reveal, the reference,
// the reflections and the completion line.
function renderWords(ctx, state) {
  const a = state.acts.act2;
  const u = state.config.units;
  const { design, nothingToExplore, refBody } = ctx;
  const labels = Object.fromEntries(T.PREDICTION.options.map((o) => [o.id, o.label]));
  ctx.prediction.update(labels, a.prediction ? a.prediction.choice : null);
  // With every setting fixed, or the tuned regime out of reach of those left open, the design
  // challenge is not asked for: the step list says so.
  renderSteps(ctx.stepList, STEPS, { ...a, explored: a.explored || (nothingToExplore && Boolean(a.prediction)) }, design.asked() ? {} : { design: nothingToExplore ? 'not asked here' : 'its tuned regime is not asked here' });
  setLocked(ctx.unlocked, !a.prediction);
  ctx.lockedHint.hidden = Boolean(a.prediction);
  renderReveal(ctx, a, labels);
  setLocked(refBody, !a.revealed);
  ctx.refLocked.hidden = a.revealed;
  if (a.revealed) renderReference(refBody, ctx.n.reference, u);
  ctx.reflect.update(a, u);
  renderCompletion(ctx, a);
}

// Section 4: the button and its hint until the reveal, then the prediction against the engine.
function renderReveal(ctx, a, labels) {
  const { revealButton, revealBody, nothingToExplore } = ctx;
  revealButton.hidden = a.revealed;
  const explored = a.explored || nothingToExplore;
  revealButton.disabled = !explored;
  setText(ctx.revealHint, a.revealed ? '' : nothingToExplore ? 'Every setting of the step is fixed in this lab, so there is nothing to explore: compare your prediction with the engine when you are ready.'
    : explored ? 'When you are ready, compare your prediction with the engine.' : 'Change a setting in section 2 first; then the reveal opens.');
  if (a.revealed && a.prediction) {
    const i = T.PREDICTION.options.findIndex((o) => o.id === a.prediction.choice);
    const opt = T.PREDICTION.options[i];
    const err = rangeError(opt.range[0], opt.range[1], a.prediction.truth_mfu);
    const errText = err.direction === 'exact' ? 'That is inside the range you chose: right.' : `The nearer end of your range is off by ${formatRatio(err.ratio)} (${err.direction === 'under' ? 'too low' : 'too high'}).`;
    const lines = T.revealLines(ctx.n, `${String.fromCharCode(65 + i)} (${labels[a.prediction.choice]})`, errText);
    replaceChildren(revealBody, h('p', { class: 'reveal__key', text: lines[0] }), h('p', { text: lines[1] }),
      whyDetails('Why? The three numbers', lines.slice(2).map((t) => h('p', { text: t }))));
    revealBody.dataset.revealed = 'true';
  } else { revealBody.replaceChildren(); delete revealBody.dataset.revealed; }
}

// Whether the act is complete, kept in the store, and the line that links to the design ledger.
function renderCompletion(ctx, a) {
  const { design, store } = ctx;
  const complete = act2Complete(a, { asked: design.asked() }); // one DOM-free rule (completion.js)
  // The record keeps why the regime was not asked, so a ledger completed under an instructor's
  // locks says so (regime_reached false beside completed true, explained).
  const notAsked = design.notAsked();
  if (complete !== a.completed || withNotAsked(a.design, notAsked) !== a.design) {
    queueMicrotask(() => store.update((s) => withAct2(s, { completed: complete, design: withNotAsked(s.acts.act2.design, notAsked) })));
  }
  replaceChildren(ctx.done, complete ? ['Act 2 complete: you have seen where a step’s time goes, why MFU sits below busy time, and where one GPU runs out of memory. ',
    h('a', { href: withFlags('?act=ledger', ctx.flags), text: 'Compare your predictions and export your design ledger' }), '.'] : []);
}

// render(state) redraws only the parts whose slice of the state changed, keyed by that slice;
// redrawDesignAndWords() redraws the design panel and the words even if nothing changed.
function createRenderer(ctx) {
  const { controls, design, laptop, arrival } = ctx;
  let last = {};
  function render(state) {
    const configKey = JSON.stringify([state.config2, state.config.units]);
    let r = last.result;
    const configChanged = configKey !== last.config;
    if (configChanged) { controls.update(state.config2); r = renderInstrument(ctx, state); }
    const a = state.acts.act2;
    const designKey = JSON.stringify([configKey, a.design, Boolean(a.prediction), a.explored, Boolean(arrival.act2FromLink)]);
    // A settings change renders the design panel after the paint (renderInstrument schedules it).
    if (designKey !== last.design && !(configChanged && r)) design.render(state, r);
    const wordsKey = JSON.stringify([a.prediction, a.explored, a.revealed, a.reflection_fix, a.reflection_ckpt, a.completed, a.design.regime_reached, a.laptop.finished, state.config.units]);
    if (wordsKey !== last.words) renderWords(ctx, state);
    const lapKey = JSON.stringify([a.laptop, state.config.units]);
    if (lapKey !== last.lap) laptop.render(state);
    last = { config: configKey, words: wordsKey, design: designKey, lap: lapKey, result: r };
  }
  return { render, redrawDesignAndWords: () => { last = { ...last, design: null, words: null }; render(ctx.store.getState()); } };
}
