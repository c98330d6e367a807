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
import { withAct3, defaultAct3 } from '../state/store.js';
import { withFlags, openControls, useAct3Url } from '../state/url-state.js';
import * as act3Url from '../state/act3-url.js';
import { withConfig3 } from '../state/act3-url.js';
import { normalizeConfig3, DEVICES3 } from '../state/act3-config.js';
import { PREDICT3, toScenario3, taxPoints, devicesNeeded, countError, stepByInterconnect, state3, stepParts, reflectNumbers, reflectKeys, act3Record, REVEAL_INTERCONNECTS, tensorDegrees, memoryTerms } from '../models/act3-model.js';
import { withTry } from '../format/scoring.js';
import { act3Complete } from '../state/completion.js';
import { MODEL_ID } from '../state/scenario.js';
import { createCountLock, createControls3, chartSlot, createReflections3, renderPeek3 } from './act3-parts.js';
import * as T from '../content/act3-text.js';

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

// The act as parts with named methods (STYLE.md: wiring, render, handlers), each short.
export function mount(ctx) {
  const act = new Act3(ctx);
  return { focus: () => act.titleEl.focus(), destroy: () => act.destroy() };
}

class Act3 {
  constructor({ root, engine, store, flags, announce }) {
    Object.assign(this, { root, store, flags, announce });
    // A new state object even when Act 3 was opened before, so the app writes the address with Act 3's knobs.
    store.update((s) => withConfig3(withAct3(s, {}), {}));
    this.nothingToExplore = openControls(CONTROLS3, flags).length === 0;
    this.sk = { scale: null, spec: null, answer: null, nums: null, keys: null, names: {} };
    this.charts = [];
    this.last = {};
    this.destroyed = false;
    this.unsubscribe = () => {};
    this.buildPredict();
    this.buildExplore();
    this.buildAfterReveal();
    this.unlocked = h('div', { class: 'act-unlocked' }, this.explorePanel.el, this.peek, this.revealPanel.el, this.reflectPanel.el, this.done);
    this.titleEl = h('h2', { id: 'act-title', tabindex: '-1', text: T.TITLE });
    root.append(h('section', { class: 'act act3', 'aria-labelledby': 'act-title', 'data-act': '3' }, this.titleEl, this.stepList,
      T.INTRO.map((p) => h('p', { class: 'act-intro', text: p })), this.predictPanel.el, this.lockedHint, this.unlocked));
    this.load(engine);
    this.render(store.getState());
  }

  // ---- wiring: 1. the prediction
  buildPredict() {
    this.stepList = h('ol', { class: 'steps', 'aria-label': 'Your progress in Act 3' });
    this.engineNote = h('p', { class: 'boot__status', role: 'status', text: 'Loading the multi-device engine…' });
    this.lock = createCountLock({ onLock: (devices) => this.onLock(devices) });
    this.lock.setEnabled(false);
    this.predictPanel = panel('1. Predict', this.engineNote, this.lock.el);
    this.lockedHint = h('p', { class: 'locked-hint' }, h('strong', { text: 'Locked: ' }), 'the explorer, the reveal and the questions open once you lock in a prediction.');
  }

  // ---- 2. explore: controls, banner, the chart slots (tax and crossover behind a disclosure), Math Peek
  buildExplore() {
    this.controlsBox = h('div');
    this.banner = new Banner();
    this.layout = h('p', { class: 'control__note', 'data-summary': 'layout' });
    this.slots = {
      memory: chartSlot('parallel-memory', 'Memory per GPU against its capacity'),
      timeline: chartSlot('parallel-timeline', 'One step: compute, communication and the pipeline bubble'),
      tax: chartSlot('comm-tax', 'Speedup against the number of GPUs'),
      crossover: chartSlot('crossover', 'Compute and communication time against tokens per GPU'),
    };
    const sl = this.slots;
    this.explorePanel = panel('2. Explore: add GPUs', this.controlsBox, this.banner.el, this.layout, sl.memory.el, sl.timeline.el,
      whyDetails('The communication tax and the crossover', sl.tax.el, sl.crossover.el));
    this.peekBody = h('div');
    this.peek = h('details', { class: 'panel panel--peek math-peek' }, h('summary', { text: 'Math Peek: sharding, the bubble and the tax' }), this.peekBody);
  }

  // ---- 3. reveal, 4. reflect
  buildAfterReveal() {
    this.revealHint = h('p', { class: 'control__note' });
    this.revealBody = h('div', { class: 'reveal', role: 'status' });
    this.revealButton = h('button', { type: 'button', class: 'btn btn--primary reveal-button', text: 'Reveal: how many GPUs does it take?',
      onclick: () => { this.store.update((s) => withAct3(s, { revealed: true })); this.revealPanel.heading.focus(); } });
    this.revealPanel = panel('3. Reveal', this.revealHint, this.revealButton, this.revealBody);
    this.reflectHint = h('p', { class: 'locked-hint', text: 'Opens after the reveal.' });
    this.reflections = createReflections3({ onAnswer: (key, choice) => this.onAnswer(key, choice) });
    this.reflectPanel = panel('4. Reflect', this.reflectHint, this.reflections.el);
    this.done = h('p', { class: 'done', role: 'status' });
  }

  // ---- handlers
  onLock(devices) {
    const { answer } = this.sk;
    const err = countError(devices, answer.devices);
    this.store.update((s) => withAct3(s, { prediction: { devices, truth_devices: answer.devices, error_ratio: err.ratio, direction: err.direction,
      answered_at: new Date().toISOString(), scenario: answer.scenario } }));
    this.announce('Prediction locked in. The explorer is now open.');
    this.explorePanel.heading.focus();
  }

  onAnswer(key, choice) {
    const field = key === 'dp' ? 'reflection_dp' : 'reflection_ceiling';
    const correct = choice === this.sk.keys[key];
    this.store.update((s) => withAct3(s, { [field]: withTry(act3Of(s)[field], { choice, correct, answered_at: new Date().toISOString() }) }));
  }

  // The engine arrives with this act's module: until then (or if it cannot load) nothing opens.
  // The catalogue is lab_core's (every module has the same one, interconnects included). A failure in
  // ready() is said like a module that did not load: the act never hangs on its loading line.
  load(engine) {
    const loading = engine.scale ? engine.scale() : Promise.reject(new Error('this copy of the lab has no multi-device engine'));
    loading.then((scale) => { if (!this.destroyed) this.ready(scale, engine.catalog()); }).catch((err) => {
      if (!this.destroyed) this.cannotStart(`Act 3 cannot start: its multi-device engine did not load (${err && err.message ? err.message : err}). Try reloading the page.`);
    });
  }

  cannotStart(text) {
    this.engineNote.setAttribute('role', 'alert');
    setText(this.engineNote, text);
  }

  // The solver's answer, the reflections' numbers and the controls, once; then the act follows the store.
  ready(scale, catalog) {
    const sk = this.sk;
    this.catalog = catalog;
    const model = catalog.models.find((m) => m.id === MODEL_ID);
    Object.assign(sk, { scale, spec: model.spec || model, names: Object.fromEntries((catalog.interconnects || []).map((x) => [x.id, x.name])) });
    sk.answer = devicesNeeded(scale, sk.spec);
    if (sk.answer.error || sk.answer.devices === null) {
      this.cannotStart(`The engine could not answer this question: ${sk.answer.error ? sk.answer.error.message : 'no count up to 1,024 GPUs fits'}.`);
      return;
    }
    sk.nums = reflectNumbers(scale, sk.spec, sk.answer.devices);
    sk.keys = sk.nums.error ? {} : reflectKeys(sk.nums);
    const devices = DEVICES3.map((d) => catalog.devices.find((x) => x.id === d)).filter(Boolean);
    this.controls = createControls3({ flags: this.flags, devices, interconnects: catalog.interconnects || [],
      onChange: (patch) => this.store.update((s) => withAct3(withConfig3(s, patch), { explored: true })) });
    replaceChildren(this.controlsBox, this.controls.el);
    this.engineNote.remove();
    this.lock.setEnabled(true);
    this.last = {};
    this.render(this.store.getState());
    this.unsubscribe = this.store.subscribe((s) => this.render(s));
    this.mountCharts();
  }

  // Each chart file present in this build replaces its slot's empty box; its sentence stays below it.
  mountCharts() {
    const format = { units: this.store.getState().config.units }; // the context's units follow the toggle
    for (const slot of Object.values(this.slots)) {
      const load = CHART_FILES[`../charts/${slot.box.dataset.chart}-chart.js`];
      if (!load) continue;
      load().then((mod) => {
        const mountX = Object.entries(mod).find(([name, fn]) => name.startsWith('mount') && typeof fn === 'function');
        if (this.destroyed || !mountX) return;
        slot.box.removeAttribute('role');
        slot.box.removeAttribute('aria-label');
        this.charts.push({ slot, chart: mountX[1](slot.box, { format }) });
        this.last = { ...this.last, config: null };
        this.render(this.store.getState());
      });
    }
  }

  // What the charts need beside the result (each chart file's header): the units, the GPU's name, and
  // for the tax curve the engine's points at N = 1, 2, 4, …, 1,024 (a count the engine refused is left out).
  chartContext(state, c, deviceName) {
    const sk = this.sk;
    const points = this.charts.some((x) => x.slot === this.slots.tax) ? taxPoints(sk.scale, c, sk.spec).filter((p) => !p.error) : [];
    return { units: state.config.units, deviceName, points };
  }

  // ---- render
  renderExplore(state) {
    const { sk, slots } = this;
    const c = normalizeConfig3(state.config3);
    const u = state.config.units;
    this.controls.update(c);
    const r = sk.scale.evaluate(toScenario3(c, sk.spec));
    if (r.error) {
      this.banner.update({ state: 'error', title: 'The engine could not compute this setting.', text: r.error.message });
      return;
    }
    const st = state3(r);
    const device = this.catalog.devices.find((d) => d.id === c.device);
    this.banner.update({ state: st, title: T.memoryTitle(r, u, device ? device.name : c.device) });
    const tpMin = c.strategy === 'tp' && r.parallel.tensor_parallel === 1 ? tensorDegrees(sk.spec).find((d) => d > 1) : null;
    setText(this.layout, T.layoutWords(r.parallel, c.gpus, { tpMin, heads: sk.spec.heads }));
    setText(slots.memory.summary, T.memorySentence(r.memory, u, memoryTerms(r.memory, u)));
    setText(slots.timeline.summary, `${T.stepSentence(r.parallel, st === 'ok')}${stepParts(r.parallel).adds_up ? '' : ` ${T.notAddingUp}`}`);
    setText(slots.tax.summary, T.taxSentence(r.parallel));
    setText(slots.crossover.summary, T.crossoverSentence(r.parallel));
    renderPeek3(this.peekBody, r, u);
    if (this.charts.length) {
      const context = this.chartContext(state, c, device ? device.name : c.device);
      for (const x of this.charts) x.chart.update(r, context);
    }
  }

  // The ledger's record, recomputed when the settings or the answers change after the reveal.
  record(state) {
    const { sk } = this;
    const a = act3Of(state);
    const settings = toScenario3(state.config3, sk.spec);
    const rec = act3Record({ settings, prediction: a.prediction, devicesNeeded: sk.answer.devices, predictionScenario: sk.answer.scenario,
      stepByInterconnect: stepByInterconnect(sk.scale, settings).step_s,
      reflect: [a.reflection_dp && { id: 'act3_dp', ...a.reflection_dp }, a.reflection_ceiling && { id: 'act3_ceiling', ...a.reflection_ceiling }] });
    if (JSON.stringify(rec) !== JSON.stringify(a.result)) queueMicrotask(() => this.store.update((s) => withAct3(s, { result: rec })));
  }

  renderReveal(a, u) {
    const { sk, revealBody } = this;
    const explored = a.explored || this.nothingToExplore;
    this.revealButton.hidden = a.revealed;
    this.revealButton.disabled = !explored;
    setText(this.revealHint, a.revealed ? '' : explored ? 'When you are ready, compare your prediction with the engine.' : 'Change a setting in section 2 first; then the reveal opens.');
    if (!(a.revealed && a.prediction)) { revealBody.replaceChildren(); delete revealBody.dataset.revealed; return; }
    const k = a.prediction.truth_devices;
    const costs = stepByInterconnect(sk.scale, toScenario3(PREDICT3, sk.spec, { gpus: k }), REVEAL_INTERCONNECTS).step_s;
    replaceChildren(revealBody, h('p', { class: 'reveal__key', text: T.revealLines(a.prediction.devices, k, countError(a.prediction.devices, k)) }),
      h('p', { 'data-reveal': 'cost', text: T.costLine(k, costs, sk.names) }), whyDetails('Why? What the wires carry', h('p', { text: T.REVEAL_WHY })));
    revealBody.dataset.revealed = 'true';
    this.reflections.update(a, sk.nums, u);
  }

  renderWords(state, a) {
    this.renderReveal(a, state.config.units);
    setLocked(this.reflections.el, !a.revealed);
    this.reflectHint.hidden = a.revealed;
    const complete = act3Complete(a); // one DOM-free rule (completion.js)
    if (complete !== a.completed) queueMicrotask(() => this.store.update((s) => withAct3(s, { completed: complete })));
    replaceChildren(this.done, complete ? [T.DONE, h('a', { href: withFlags('?act=ledger', this.flags), text: 'Compare your predictions and export your design ledger' }), '.'] : []);
  }

  render(state) {
    const a = act3Of(state);
    const ready = Boolean(this.sk.scale && this.controls);
    renderSteps(this.stepList, STEPS, { ...a, explored: a.explored || (this.nothingToExplore && Boolean(a.prediction)) });
    this.lock.update(a.prediction);
    setLocked(this.unlocked, !a.prediction || !ready);
    this.lockedHint.hidden = Boolean(a.prediction && ready);
    if (!ready) return;
    const key = JSON.stringify([state.config3, state.config.units]);
    if (key !== this.last.config) this.renderExplore(state);
    const wordsKey = JSON.stringify([a.prediction, a.explored, a.revealed, a.reflection_dp, a.reflection_ceiling, state.config.units]);
    if (wordsKey !== this.last.words) this.renderWords(state, a);
    if (a.revealed && (key !== this.last.config || wordsKey !== this.last.words)) this.record(state);
    this.last = { config: key, words: wordsKey };
  }

  destroy() {
    this.destroyed = true;
    this.unsubscribe();
    for (const x of this.charts) x.chart.destroy();
    this.root.replaceChildren();
  }
}
