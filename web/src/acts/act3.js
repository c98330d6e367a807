// Act 3, "Past one GPU": predict how many laptop GPUs fully sharded GPT-2 XL needs → explore GPUs,
// strategy, interconnect and batch → reveal the solver's answer and the step time over real wires →
// reflect on the chapter's two checkpoint questions, with a Math Peek. The engine is lab_scale
// (engine.scale(), loaded with this act); the view model is ../act3-model.js, words act3-text.js,
// parts act3-parts.js. The act reads and writes only the store.
import './act3.css';
import { h, setText, setLocked, replaceChildren } from '../ui/dom.js';
import { panel, renderSteps } from '../ui/act-parts.js';
import { Banner } from '../ui/banner.js';
import { whyDetails } from '../ui/why-details.js';
import { withAct3, defaultAct3 } from '../store.js';
import { withFlags, openControls, useAct3Url } from '../url-state.js';
import * as act3Url from '../act3-url.js';
import { withConfig3 } from '../act3-url.js';
import { normalizeConfig3, DEVICES3 } from '../act3-config.js';
import { PREDICT3, toScenario3, taxPoints, devicesNeeded, countError, stepByInterconnect, state3, stepParts, reflectNumbers, reflectKeys, act3Record, REVEAL_INTERCONNECTS } from '../act3-model.js';
import { withTry } from '../scoring.js';
import { act3Complete } from '../completion.js';
import { MODEL_ID } from '../scenario.js';
import { createCountLock, createControls3, chartSlot, createReflections3, renderPeek3 } from './act3-parts.js';
import * as T from './act3-text.js';
import { formatBytes, formatSeconds, formatRatio, formatInt, formatPercent } from '../format.js';

// Issue 28's four charts (web/src/charts/, each `mountX(container, { format })` → { update(result,
// context), destroy() }), mounted when they are in this build; until then each slot shows its sentence.
const CHART_FILES = import.meta.glob(['../charts/parallel-memory-chart.js', '../charts/parallel-timeline-chart.js',
  '../charts/comm-tax-chart.js', '../charts/crossover-chart.js']);

// The address of Act 3 carries its knobs from now on (an act switch in place loads this module after
// the app wrote the address without them; mount() writes it again).
useAct3Url(act3Url);

export const id = 3;
export const title = T.TITLE;
export const shortTitle = T.SHORT_TITLE;

const STEPS = [
  { id: 'predict', label: 'Predict', done: (a) => Boolean(a.prediction) },
  { id: 'explore', label: 'Explore', done: (a) => a.explored },
  { id: 'reveal', label: 'Reveal', done: (a) => a.revealed },
  { id: 'reflect', label: 'Reflect', done: (a) => Boolean(a.reflection_dp && a.reflection_ceiling) },
];
const CONTROLS3 = ['gpus', 'strategy', 'net', 'batch', 'dev'];
const act3Of = (s) => s.acts.act3 || defaultAct3();

export function mount({ root, engine, store, flags, announce }) {
  // A new state object even when Act 3 was opened before, so the app writes the address with Act 3's knobs.
  store.update((s) => withConfig3(withAct3(s, {}), {}));
  const nothingToExplore = openControls(CONTROLS3, flags).length === 0;
  const sk = { scale: null, spec: null, answer: null, nums: null, keys: null, names: {} };

  const stepList = h('ol', { class: 'steps', 'aria-label': 'Your progress in Act 3' });
  const engineNote = h('p', { class: 'boot__status', role: 'status', text: 'Loading the multi-device engine…' });
  const lock = createCountLock({ onLock: (devices) => {
    const err = countError(devices, sk.answer.devices);
    store.update((s) => withAct3(s, { prediction: { devices, truth_devices: sk.answer.devices, error_ratio: err.ratio, direction: err.direction,
      answered_at: new Date().toISOString(), scenario: sk.answer.scenario } }));
    announce('Prediction locked in. The explorer is now open.');
    explorePanel.heading.focus();
  } });
  lock.setEnabled(false);
  const predictPanel = panel('1. Predict', engineNote, lock.el);
  const lockedHint = h('p', { class: 'locked-hint' }, h('strong', { text: 'Locked: ' }), 'the explorer, the reveal and the questions open once you lock in a prediction.');

  // ---- 2. explore
  let controls = null;
  const controlsBox = h('div');
  const banner = new Banner();
  const layout = h('p', { class: 'control__note', 'data-summary': 'layout' });
  const slots = {
    memory: chartSlot('parallel-memory', 'Memory per GPU against its capacity'),
    timeline: chartSlot('parallel-timeline', 'One step: compute, communication and the pipeline bubble'),
    tax: chartSlot('comm-tax', 'Speedup against the number of GPUs'),
    crossover: chartSlot('crossover', 'Compute and communication time against tokens per GPU'),
  };
  const charts = [];
  const explorePanel = panel('2. Explore: add GPUs', controlsBox, banner.el, layout, slots.memory.el, slots.timeline.el,
    whyDetails('The communication tax and the crossover', slots.tax.el, slots.crossover.el));
  const peek = h('details', { class: 'panel panel--peek math-peek' }, h('summary', { text: 'Math Peek: sharding, the bubble and the tax' }));
  const peekBody = h('div');
  peek.append(peekBody);

  // ---- 3. reveal, 4. reflect
  const revealHint = h('p', { class: 'control__note' });
  const revealBody = h('div', { class: 'reveal', role: 'status' });
  const revealButton = h('button', { type: 'button', class: 'btn btn--primary reveal-button', text: 'Reveal: how many GPUs does it take?',
    onclick: () => { store.update((s) => withAct3(s, { revealed: true })); revealPanel.heading.focus(); } });
  const revealPanel = panel('3. Reveal', revealHint, revealButton, revealBody);
  const reflectHint = h('p', { class: 'locked-hint', text: 'Opens after the reveal.' });
  const reflections = createReflections3({ onAnswer: (key, choice) => {
    const field = key === 'dp' ? 'reflection_dp' : 'reflection_ceiling';
    const correct = choice === sk.keys[key];
    store.update((s) => withAct3(s, { [field]: withTry(act3Of(s)[field], { choice, correct, answered_at: new Date().toISOString() }) }));
  } });
  const reflectPanel = panel('4. Reflect', reflectHint, reflections.el);
  const done = h('p', { class: 'done', role: 'status' });

  const unlocked = h('div', { class: 'act-unlocked' }, explorePanel.el, peek, revealPanel.el, reflectPanel.el, done);
  const titleEl = h('h2', { id: 'act-title', tabindex: '-1', text: T.TITLE });
  root.append(h('section', { class: 'act act3', 'aria-labelledby': 'act-title', 'data-act': '3' },
    titleEl, stepList, T.INTRO.map((p) => h('p', { class: 'act-intro', text: p })), predictPanel.el, lockedHint, unlocked));

  // The engine arrives with this act's module: until then (or if it cannot load) nothing opens.
  let destroyed = false;
  let unsubscribe = () => {};
  const loading = engine.scale ? engine.scale() : Promise.reject(new Error('this copy of the lab has no multi-device engine'));
  loading.then((scale) => { if (!destroyed) ready(scale); }, (err) => {
    if (destroyed) return;
    engineNote.setAttribute('role', 'alert');
    setText(engineNote, `Act 3 cannot start: its multi-device engine did not load (${err && err.message ? err.message : err}). Try reloading the page.`);
  });
  render(store.getState());

  function ready(scale) {
    const catalog = scale.catalog();
    const model = catalog.models.find((m) => m.id === MODEL_ID);
    sk.scale = scale;
    sk.spec = model.spec || model;
    sk.names = Object.fromEntries((catalog.interconnects || []).map((x) => [x.id, x.name]));
    sk.answer = devicesNeeded(scale, sk.spec);
    if (sk.answer.error || sk.answer.devices === null) {
      engineNote.setAttribute('role', 'alert');
      setText(engineNote, `The engine could not answer this question: ${sk.answer.error ? sk.answer.error.message : 'no count up to 1,024 GPUs fits'}.`);
      return;
    }
    sk.nums = reflectNumbers(scale, sk.spec, sk.answer.devices);
    sk.keys = sk.nums.error ? {} : reflectKeys(sk.nums);
    const devices = DEVICES3.map((d) => catalog.devices.find((x) => x.id === d)).filter(Boolean);
    controls = createControls3({ flags, devices, interconnects: catalog.interconnects || [], onChange: (patch) => {
      store.update((s) => withAct3(withConfig3(s, patch), { explored: true }));
    } });
    replaceChildren(controlsBox, controls.el);
    engineNote.remove();
    lock.setEnabled(true);
    last = {};
    render(store.getState());
    unsubscribe = store.subscribe((s) => render(s));
    mountCharts();
  }

  // Each chart file present in this build replaces its slot's empty box; its sentence stays below it.
  function mountCharts() {
    const format = { bytes: (b) => formatBytes(b, store.getState().config.units), seconds: formatSeconds, ratio: formatRatio, int: formatInt, percent: formatPercent };
    for (const slot of Object.values(slots)) {
      const load = CHART_FILES[`../charts/${slot.box.dataset.chart}-chart.js`];
      if (!load) continue;
      load().then((mod) => {
        const mountX = Object.entries(mod).find(([name, fn]) => name.startsWith('mount') && typeof fn === 'function');
        if (destroyed || !mountX) return;
        slot.box.removeAttribute('role');
        slot.box.removeAttribute('aria-label');
        charts.push({ slot, chart: mountX[1](slot.box, { format }) });
        last = { ...last, config: null };
        render(store.getState());
      });
    }
  }

  // What the charts need beside the result: the engine's points for the tax curve, and the units.
  function chartContext(state, c) {
    return { units: state.config.units, points: charts.some((x) => x.slot === slots.tax) ? taxPoints(sk.scale, c, sk.spec) : null };
  }

  function renderExplore(state) {
    const c = normalizeConfig3(state.config3);
    const u = state.config.units;
    controls.update(c);
    const r = sk.scale.evaluate(toScenario3(c, sk.spec));
    if (r.error) {
      banner.update({ state: 'error', title: 'The engine could not compute this setting.', text: r.error.message });
      return null;
    }
    const st = state3(r);
    const device = sk.scale.catalog().devices.find((d) => d.id === c.device);
    banner.update({ state: st, title: T.memoryTitle(r, u, device ? device.name : c.device) });
    setText(layout, T.layoutWords(r.parallel, c.gpus));
    setText(slots.memory.summary, T.memorySentence(r.memory, u));
    const parts = stepParts(r.parallel);
    setText(slots.timeline.summary, `${T.stepSentence(r.parallel, st === 'ok')}${parts.adds_up ? '' : ` ${T.notAddingUp}`}`);
    setText(slots.tax.summary, T.taxSentence(r.parallel));
    setText(slots.crossover.summary, T.crossoverSentence(r.parallel));
    renderPeek3(peekBody, r, u);
    if (charts.length) {
      const context = chartContext(state, c);
      for (const x of charts) x.chart.update(r, context);
    }
    return r;
  }

  // The ledger's record, recomputed when the settings or the answers change after the reveal.
  function record(state) {
    const a = act3Of(state);
    const settings = toScenario3(state.config3, sk.spec);
    const rec = act3Record({ settings, prediction: a.prediction, devicesNeeded: sk.answer.devices, predictionScenario: sk.answer.scenario,
      stepByInterconnect: stepByInterconnect(sk.scale, settings).step_s,
      reflect: [a.reflection_dp && { id: 'act3_dp', ...a.reflection_dp }, a.reflection_ceiling && { id: 'act3_ceiling', ...a.reflection_ceiling }] });
    if (JSON.stringify(rec) !== JSON.stringify(a.result)) queueMicrotask(() => store.update((s) => withAct3(s, { result: rec })));
  }

  function renderReveal(a, u) {
    const explored = a.explored || nothingToExplore;
    revealButton.hidden = a.revealed;
    revealButton.disabled = !explored;
    setText(revealHint, a.revealed ? '' : explored ? 'When you are ready, compare your prediction with the engine.' : 'Change a setting in section 2 first; then the reveal opens.');
    if (!(a.revealed && a.prediction)) { revealBody.replaceChildren(); delete revealBody.dataset.revealed; return; }
    const k = a.prediction.truth_devices;
    const costs = stepByInterconnect(sk.scale, toScenario3(PREDICT3, sk.spec, { gpus: k }), REVEAL_INTERCONNECTS).step_s;
    replaceChildren(revealBody, h('p', { class: 'reveal__key', text: T.revealLines(a.prediction.devices, k, countError(a.prediction.devices, k)) }),
      h('p', { 'data-reveal': 'cost', text: T.costLine(k, costs, sk.names) }), whyDetails('Why? What the wires carry', h('p', { text: T.REVEAL_WHY })));
    revealBody.dataset.revealed = 'true';
    setLocked(reflections.el, false);
    reflections.update(a, sk.nums, u);
  }

  let last = {};
  function render(state) {
    const a = act3Of(state);
    renderSteps(stepList, STEPS, { ...a, explored: a.explored || (nothingToExplore && Boolean(a.prediction)) });
    lock.update(a.prediction);
    setLocked(unlocked, !a.prediction || !sk.scale);
    lockedHint.hidden = Boolean(a.prediction && sk.scale);
    if (!sk.scale) return;
    const key = JSON.stringify([state.config3, state.config.units]);
    if (key !== last.config) renderExplore(state);
    const wordsKey = JSON.stringify([a.prediction, a.explored, a.revealed, a.reflection_dp, a.reflection_ceiling, state.config.units]);
    if (wordsKey !== last.words) {
      renderReveal(a, state.config.units);
      setLocked(reflections.el, !a.revealed);
      reflectHint.hidden = a.revealed;
      const complete = act3Complete(a); // one DOM-free rule (completion.js)
      if (complete !== a.completed) queueMicrotask(() => store.update((s) => withAct3(s, { completed: complete })));
      replaceChildren(done, complete ? [T.DONE, h('a', { href: withFlags('?act=ledger', flags), text: 'Compare your predictions and export your design ledger' }), '.'] : []);
    }
    if (a.revealed && (key !== last.config || wordsKey !== last.words)) record(state);
    last = { config: key, words: wordsKey };
  }

  return { focus: () => titleEl.focus(), destroy: () => { destroyed = true; unsubscribe(); for (const x of charts) x.chart.destroy(); root.replaceChildren(); } };
}
