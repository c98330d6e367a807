// Act 3's parts, each built once and updated from the store: the typed prediction lock, the explore
// controls (instructor hide/lock flags honoured), the chart slots, the two reflections and the Math
// Peek. Words come from act3-text.js, numbers from the engine through act3.js.
import { h, uid, setText, replaceChildren } from '../ui/dom.js';
import { createFillIn } from '../ui/fill-in.js';
import { deviceOptionText } from '../ui/controls.js';
import { readCount, taxSpeedup } from '../models/act3-model.js';
import { GPU_COUNTS3, STRATEGIES3, BATCH_SIZES3, OPTIMIZERS3, PRECISIONS3 } from '../state/act3-config.js';
import { lastTry, firstAnswerNote } from '../format/scoring.js';
import { formatBytes, formatInt, formatRatio, formatPercent, formatSeconds } from '../format/format.js';
import { secondsSum } from '../models/parallel-chart-common.js';
import * as T from '../content/act3-text.js';

// The prediction: a whole number of GPUs, checked as typed, locked once submitted.
export function createCountLock({ onLock }) {
  const id = uid('gpus');
  const error = h('p', { class: 'field-error', id: uid('gpus-err'), hidden: true });
  const input = h('input', { type: 'text', id, inputmode: 'numeric', autocomplete: 'off', size: 6, 'aria-describedby': error.id });
  const button = h('button', { type: 'submit', class: 'btn btn--primary', text: 'Lock in my prediction' });
  const note = h('p', { class: 'locked-note', hidden: true });
  const form = h('form', { class: 'prediction prediction--count', novalidate: true },
    h('p', { class: 'prediction__question', text: T.PREDICTION.question }),
    h('div', { class: 'control' }, h('label', { for: id, text: T.PREDICTION.label }), input), error, button, note);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const r = readCount(input.value);
    error.hidden = !r.error;
    input.setAttribute('aria-invalid', r.error ? 'true' : 'false');
    if (r.error) { error.textContent = r.error; input.focus(); return; }
    onLock(r.value);
  });
  return {
    el: form,
    setEnabled(on) { input.disabled = !on; button.disabled = !on; },
    update(prediction) {
      const locked = Boolean(prediction);
      if (locked) { input.value = String(prediction.devices); input.disabled = true; }
      button.hidden = locked;
      note.hidden = !locked;
      if (locked) setText(note, `Locked in: ${T.gpuWords(prediction.devices)}. The explorer below is open.`);
    },
  };
}

// The same words as the other acts' locked controls (ui/controls.js).
const lockNote = () => h('p', { class: 'control__note control__note--lock', text: 'Locked by your instructor.' });

function select(key, label, values, words, flags, onPick) {
  const id = uid(`a3-${key}`);
  const locked = flags.lock.includes(key);
  const el = h('select', { id, disabled: locked, onchange: () => onPick(el.value) }, values.map((v) => h('option', { value: String(v), text: words(v) })));
  const box = h('div', { class: 'control', 'data-control': key, hidden: flags.hide.includes(key) },
    h('label', { for: id, text: label }), el, locked ? lockNote() : null);
  return { el, box };
}

// The explore controls: GPUs on a log scale (a slider of powers of two), strategy, interconnect,
// batch and GPU, then the per-GPU step's optimizer, precision and recompute (a link from Act 2 carries
// them: shown so that a student sees why the explorer differs from the question's Adam).
// onChange(patch) with the store's config3 keys.
export function createControls3({ flags, devices, interconnects, onChange }) {
  const gid = uid('a3-gpus');
  const gLocked = flags.lock.includes('gpus');
  const gOut = h('output', { for: gid, class: 'control__value' });
  const gpus = h('input', { type: 'range', id: gid, min: 0, max: GPU_COUNTS3.length - 1, step: 1, disabled: gLocked,
    oninput: () => onChange({ gpus: GPU_COUNTS3[Number(gpus.value)] }) });
  const gBox = h('div', { class: 'control control--range', 'data-control': 'gpus', hidden: flags.hide.includes('gpus') },
    h('label', { for: gid, text: 'GPUs (log scale)' }), gpus, gOut, gLocked ? lockNote() : null);
  const strategy = select('strategy', 'Strategy', STRATEGIES3, (v) => T.STRATEGY_WORDS[v], flags, (v) => onChange({ strategy: v }));
  const net = select('net', 'Interconnect', interconnects.map((x) => x.id), (v) => (interconnects.find((x) => x.id === v) || {}).name || T.INTERCONNECT_FALLBACK[v] || v,
    flags, (v) => onChange({ interconnect: v }));
  net.box.append(h('p', { class: 'control__note', text: T.INTERCONNECT_NOTE }));
  const batch = select('batch', 'Batch per GPU (sequences)', BATCH_SIZES3, String, flags, (v) => onChange({ batch_size: Number(v) }));
  const dev = select('dev', 'GPU', devices.map((d) => d.id), (v) => deviceOptionText(devices.find((d) => d.id === v).name), flags, (v) => onChange({ device: v }));
  const opt = select('opt', 'Optimizer', OPTIMIZERS3.slice().reverse(), (v) => T.OPTIMIZER_WORDS3[v], flags, (v) => onChange({ optimizer: v }));
  const prec = select('prec', 'Precision', PRECISIONS3.slice().reverse(), (v) => T.PRECISION_WORDS3[v], flags, (v) => onChange({ precision: v }));
  const ckpt = select('ckpt', 'Activation recompute', ['none', 'selective', 'full', 'every_k'], (v) => T.CKPT_WORDS3[v] || 'Every few layers', flags,
    (v) => onChange({ checkpointing: v }));
  const el = h('div', { class: 'controls controls--act3' }, gBox, strategy.box, net.box, batch.box, dev.box, opt.box, prec.box, ckpt.box);
  return {
    el,
    update(c) {
      gpus.value = String(GPU_COUNTS3.indexOf(c.gpus));
      gpus.setAttribute('aria-valuetext', T.gpuWords(c.gpus));
      setText(gOut, formatInt(c.gpus));
      strategy.el.value = c.strategy; net.el.value = c.interconnect; batch.el.value = String(c.batch_size); dev.el.value = c.device;
      opt.el.value = c.optimizer; prec.el.value = c.precision; ckpt.el.value = c.checkpointing;
      // "Every few layers" only when a link set it (its interval is the link's k).
      ckpt.el.querySelector('option[value="every_k"]').hidden = c.checkpointing !== 'every_k';
      setText(ckpt.el.querySelector('option[value="every_k"]'), `Every ${c.every_k} layers`);
    },
  };
}

// One slot per chart of issue 28 (web/src/charts/, mounted through mountX(container, { format }) once
// they are in this build): a figure with the chart's box and its sentence, which the act fills.
export function chartSlot(name, label) {
  const box = h('div', { class: 'chart-box chart-box--fluid act3-chart', 'data-chart': name, role: 'img', 'aria-label': label });
  const summary = h('p', { class: 'chart-summary', 'data-summary': name });
  return { box, summary, el: h('figure', { class: 'chart-figure' }, box, h('figcaption', {}, summary)) };
}

// The two reflections; onAnswer(key, choice). keys(): the answer keys; nums(): the engine's numbers.
export function createReflections3({ onAnswer }) {
  const make = (key, q) => createFillIn({ name: key, prompt: q.prompt,
    blanks: [{ key: 'choice', legend: 'Your answer', options: q.options }], onSubmit: ({ choice }) => onAnswer(key, choice) });
  const dp = make('dp', T.DP_QUESTION);
  const ceiling = make('ceiling', T.CEILING_QUESTION);
  return {
    el: h('div', {}, dp.el, h('hr'), ceiling.el),
    update(a, nums, units) {
      for (const [form, rec, words] of [[dp, a.reflection_dp, (ok) => T.dpFeedback(ok, nums, units)], [ceiling, a.reflection_ceiling, (ok) => T.ceilingFeedback(ok, nums)]]) {
        const last = lastTry(rec);
        form.update(last ? { choice: last.choice } : null, last ? [{ ok: last.correct, text: words(last.correct) }] : [],
          rec ? firstAnswerNote(rec.correct, rec.attempts || 1) : null);
      }
    },
  };
}

// The Math Peek: the chapter's formulas with this step's symbols and values, from the engine's
// `parallel.formulas` (core/facade/README.md): each line's result is the engine's, or the formula
// worked with the engine's symbols where the engine gives the symbols only.
const MATH = (expr) => expr.replace(/\bpsi\b/g, 'Ψ').replace(/\balpha\b/g, 'α').replace(/ \* /g, ' · ').replace(/ \/ /g, ' ÷ ').replace(/ - /g, ' − ');
export function renderPeek3(box, r, units) {
  const p = r.parallel;
  const f = p.formulas;
  const y = f.symbols;
  const n = p.devices;
  const line = (key, text) => h('p', { class: 'math', 'data-peek': key, text });
  const states = [(y.W + y.G + y.K) * y.psi, (y.W + y.G) * y.psi + (y.K * y.psi) / y.N, y.W * y.psi + ((y.G + y.K) * y.psi) / y.N, ((y.W + y.G + y.K) * y.psi) / y.N][p.zero_stage];
  replaceChildren(box,
    r.memory.fits ? null : h('p', { class: 'math-note', 'data-peek': 'oom', text: 'This step does not fit in memory, so it cannot run: the numbers below are what it would give if it fitted.' }),
    h('p', { class: 'math' }, `Model states per GPU (${p.zero_stage === 0 ? 'no sharding' : `ZeRO-${p.zero_stage}`}) = ${MATH(f.model_states.expression)}`),
    line('states', `= ${stateTerms(p.zero_stage, y)} = ${formatBytes(states, units)}`),
    h('p', { class: 'math' }, `Pipeline bubble = ${MATH(f.bubble.expression)}`),
    line('bubble', `= (${y.p} − 1) ÷ (${y.m} + ${y.p} − 1) = ${formatPercent(f.bubble.value, 1)} of the pipelined part`),
    h('p', { class: 'math' }, 'Speedup = N ÷ (1 + (N − 1) · r), with N the GPUs in use'),
    line('tax', `= ${formatInt(n)} ÷ (1 + ${formatInt(n - 1)} × ${T.formatR(y.r)}) = ${formatRatio(taxSpeedup(n, y.r))}; from the engine’s step times ${formatRatio(f.speedup.value)}`),
    h('p', { class: 'math', 'data-peek': 'crossover' }, T.crossoverPeek(p)),
    h('p', { class: 'math-note', text: `Ψ = ${formatInt(y.psi)} parameters on this GPU before sharding; W, G and K are bytes per parameter for weights, gradients, and master copy with optimizer state. A ring all-reduce of S bytes moves 2(N − 1)/N · S per GPU: ${MATH(f.all_reduce.expression)}; ${T.allReduceNote(p, collectivesText(p))}` }));
}

// The step's own collectives as one sum ("all-gather 11.27 ms + reduce-scatter 5.63 ms = 16.90 ms"),
// rounded together; '' when it sends nothing.
function collectivesText(p) {
  const terms = p.collectives.filter((c) => c.seconds > 0).map((c) => ({ label: T.collectiveWords(c), seconds: c.seconds }));
  if (terms.length < 2) return terms.length ? `${terms[0].label} ${formatSeconds(terms[0].seconds)}` : '';
  return secondsSum(terms, terms.reduce((a, t) => a + t.seconds, 0)).text;
}

// The model-states formula with the engine's symbols in place, for the stage shown.
function stateTerms(stage, y) {
  const psi = formatInt(y.psi);
  if (stage === 0) return `(${y.W} + ${y.G} + ${y.K}) × ${psi}`;
  if (stage === 1) return `(${y.W} + ${y.G}) × ${psi} + ${y.K} × ${psi} ÷ ${formatInt(y.N)}`;
  if (stage === 2) return `${y.W} × ${psi} + (${y.G} + ${y.K}) × ${psi} ÷ ${formatInt(y.N)}`;
  return `(${y.W} + ${y.G} + ${y.K}) × ${psi} ÷ ${formatInt(y.N)}`;
}
