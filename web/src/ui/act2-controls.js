// Act 2's control panel: the data pipeline (loader workers, prefetching and its depth, pinned memory)
// and the step itself (precision, checkpointing, batch, GPU, Chapter calibration). Native inputs only,
// each labelled; instructor flags hide or lock a control (the URL's hide=/lock= keys). Reports changes
// as config2 patches; the act decides what they mean.
import { h, uid, setText, setAttr, setHidden } from './dom.js';
import { deviceOptionText, everyKInput } from './controls.js';
import {
  PRECISIONS2, BATCH_SIZES2, CHECKPOINTING, LABELS, WORKERS, PREFETCH_DEPTH,
} from '../state/scenario.js';

const LOCK_NOTE = 'Locked by your instructor.';

function range({ key, label, min, max, onInput, valueText, ticks }) {
  const id = uid(key);
  const out = h('output', { for: id, class: 'control__value' });
  const input = h('input', { type: 'range', id, min, max, step: 1, oninput: () => onInput(Number(input.value)) });
  return {
    el: h('div', { class: 'control control--range', 'data-control': key },
      h('label', { for: id }, `${label}: `, out), input,
      ticks ? h('div', { class: 'range-ticks', 'aria-hidden': 'true' }, ticks.map((t) => h('span', { text: String(t) }))) : null),
    input,
    set(v, shown) {
      if (input.value !== String(v)) input.value = String(v);
      setAttr(input, 'aria-valuetext', valueText(shown));
      setText(out, String(shown));
    },
  };
}

function checkbox(key, label, onToggle) {
  const id = uid(key);
  const input = h('input', { type: 'checkbox', id, onchange: () => onToggle(input.checked) });
  return { el: h('div', { class: 'control control--check', 'data-control': key }, input, h('label', { for: id, text: label })), input };
}

export function createAct2Controls({ devices, flags, onChange }) {
  const hidden = new Set(flags.hide);
  const locked = new Set(flags.lock);

  const workers = range({ key: 'workers', label: 'Data-loader workers', min: WORKERS.min, max: WORKERS.max,
    onInput: (v) => onChange({ data_workers: v }), valueText: (v) => (v === 0 ? 'none: the training process loads each batch' : `${v} workers`) });
  const prefetch = checkbox('prefetch', 'Prefetch: workers prepare the next batches', (on) => onChange({ prefetch: on }));
  const depth = range({ key: 'depth', label: 'Prefetch depth (batches per worker)', min: PREFETCH_DEPTH.min, max: PREFETCH_DEPTH.max,
    onInput: (v) => onChange({ prefetch_depth: v }), valueText: (v) => `${v} batches` });
  const pin = checkbox('pin', 'Pinned (page-locked) host memory', (on) => onChange({ pinned_memory: on }));
  const prefetchNote = h('p', { class: 'control__note', hidden: true, text: 'Prefetching needs at least one worker (as in PyTorch): with none it has no effect.' });

  const precName = uid('prec2');
  const precInputs = PRECISIONS2.map((v) => {
    const id = uid(`${precName}-${v}`);
    const input = h('input', { type: 'radio', id, name: precName, value: v, onchange: () => input.checked && onChange({ precision: v }) });
    return { v, input, el: h('div', { class: 'radio' }, input, h('label', { for: id, text: LABELS.precision[v] })) };
  });
  const prec = { el: h('fieldset', { class: 'control control--radios', 'data-control': 'prec' }, h('legend', { text: 'Precision' }), precInputs.map((p) => p.el)) };

  const ckptId = uid('ckpt2');
  const ckpt = h('select', { id: ckptId, onchange: () => onChange({ checkpointing: ckpt.value }) },
    CHECKPOINTING.map((c) => h('option', { value: c, text: LABELS.checkpointing[c] })));
  const { input: k, error: kErr, id: kId, reset: resetK } = everyKInput((v) => onChange({ every_k: v }));
  const kBox = h('div', { class: 'control control--k' }, h('label', { for: kId, text: 'Checkpoint every k layers, k =' }), k, kErr);
  const ckptPart = { el: h('div', { class: 'control', 'data-control': 'ckpt' }, h('label', { for: ckptId, text: 'Activation checkpointing' }), ckpt, kBox) };

  const batch = range({ key: 'batch', label: 'Batch size (sequences of 1,024 tokens)', min: 0, max: BATCH_SIZES2.length - 1,
    onInput: (i) => onChange({ batch_size: BATCH_SIZES2[i] }), valueText: (v) => `${v} sequences`, ticks: BATCH_SIZES2 });

  const devId = uid('dev2');
  const dev = h('select', { id: devId, onchange: () => onChange({ device: dev.value }) },
    devices.map((d) => h('option', { value: d.id, text: deviceOptionText(d.name) })));
  const devPart = { el: h('div', { class: 'control', 'data-control': 'dev' }, h('label', { for: devId, text: 'GPU' }), dev) };

  // Words true whether it is ticked or not (walk 9: 'untick' while unticked), and locked or not.
  const replay = checkbox('replay', 'Chapter calibration: memory and timing (off: the physics model)', (on) => onChange({ replay: on }));

  const groups = [
    { key: 'workers', part: workers, inputs: [workers.input] },
    { key: 'prefetch', part: { el: h('div', { class: 'control-group' }, prefetch.el, depth.el, prefetchNote) }, inputs: [prefetch.input, depth.input] },
    { key: 'pin', part: pin, inputs: [pin.input] },
    { key: 'prec', part: prec, inputs: precInputs.map((p) => p.input) },
    { key: 'ckpt', part: ckptPart, inputs: [ckpt, k] },
    { key: 'batch', part: batch, inputs: [batch.input] },
    { key: 'dev', part: devPart, inputs: [dev] },
    { key: 'replay', part: replay, inputs: [replay.input] },
  ];
  for (const g of groups) {
    if (hidden.has(g.key)) g.part.el.hidden = true;
    if (locked.has(g.key)) {
      for (const i of g.inputs) i.disabled = true;
      g.part.el.append(h('p', { class: 'control__note control__note--lock', text: LOCK_NOTE }));
    }
  }
  // A set whose controls an instructor has all hidden is not drawn as an empty box (walk 4); nor is the
  // whole column when every control is hidden.
  const set = (legend, keys, parts) => h('fieldset', { class: 'control-set', hidden: keys.every((k) => hidden.has(k)) }, h('legend', { text: legend }), parts);
  const sets = [set('Data pipeline', ['workers', 'prefetch', 'pin'], [workers.el, groups[1].part.el, pin.el]),
    set('The step', ['prec', 'ckpt', 'batch', 'dev', 'replay'], [prec.el, ckptPart.el, batch.el, devPart.el, replay.el])];
  const el = h('div', { class: 'controls controls--act2', hidden: sets.every((x) => x.hidden) }, sets);

  return {
    el,
    update(c) {
      workers.set(c.data_workers, c.data_workers);
      prefetch.input.checked = c.prefetch;
      depth.set(c.prefetch_depth, c.prefetch_depth);
      const depthOff = !c.prefetch || locked.has('prefetch');
      if (depth.input.disabled !== depthOff) depth.input.disabled = depthOff;
      setHidden(prefetchNote, !(c.prefetch && c.data_workers === 0));
      pin.input.checked = c.pinned_memory;
      for (const p of precInputs) p.input.checked = p.v === c.precision;
      ckpt.value = c.checkpointing;
      setHidden(kBox, c.checkpointing !== 'every_k');
      if (k.getRootNode().activeElement !== k) resetK(c.every_k); // shadow roots have their own
      batch.set(BATCH_SIZES2.indexOf(c.batch_size), c.batch_size);
      dev.value = c.device;
      replay.input.checked = c.replay;
    },
  };
}
