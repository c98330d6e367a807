// The workbench's run choices: GPU (catalogue or custom, memory in GB or GiB), precision, optimizer,
// micro-batch, sequence length, checkpointing, and how memory is counted with PyTorch's knobs. It
// reports what the student asks for (onChange(patch), onUnit) and shows what the shell decides (set,
// showError); a value that is not a number is said here and never sent. Pure parts: ../workbench-run.js.
import { h, uid, setText, setHidden } from './dom.js';
import {
  PRECISIONS, PRECISIONS_FOR, PRECISION_ELSEWHERE, OPTIMIZERS, CHECKPOINTING, COUNTINGS, LABELS, KNOB_NOTES, PYTORCH_KNOBS, BATCH, SEQ, MEMORY_UNITS,
  customDevice, customValues, positiveNumber, wholeIn, ckptParam, isAutocast,
} from '../state/workbench-run.js';
import { deviceOptionText } from './controls.js';

const CUSTOM = 'custom';
const field = (label, control, ...rest) => {
  const id = control.id || (control.id = uid('wb'));
  return h('div', { class: 'wb-field' }, h('label', { for: id, text: label }), control, ...rest);
};
const selectOf = (values, words, onchange, attrs = {}) => h('select', { onchange, ...attrs }, values.map((v) => h('option', { value: v, text: words[v] })));

const typing = (input) => input === input.getRootNode().activeElement; // the shadow root's own focus in the element

// The GPU menu and a custom GPU's fields (memory in GB or GiB, peaks, bandwidth), started from the
// catalogue GPU on screen. current(): the scenario on screen.
function gpuPart({ devices, current, onChange, onUnit, showError }) {
  let unit = 'gb';
  const gpu = h('select', { 'data-control': 'gpu', onchange: () => pick() },
    devices.map((d) => h('option', { value: d.id, text: deviceOptionText(d.name) })), h('option', { value: CUSTOM, text: 'Custom GPU…' }));
  const num = (name) => h('input', { type: 'text', inputmode: 'decimal', size: 7, autocomplete: 'off', 'data-control': name, oninput: () => edited() });
  const mem = num('mem');
  const memUnit = selectOf(['gb', 'gib'], { gb: 'GB (10⁹ bytes)', gib: 'GiB (2³⁰ bytes)' }, () => unitChanged(), { 'data-control': 'mem_unit', 'aria-label': 'Memory unit' });
  const tf16 = num('tf16');
  const tf32 = num('tf32');
  const bw = num('bw');
  const custom = h('div', { class: 'wb-fields', 'data-testid': 'wb-custom-gpu', hidden: true },
    field('Memory', mem, memUnit), field('16-bit peak, TFLOP/s', tf16), field('FP32 peak, TFLOP/s', tf32), field('Memory bandwidth, GB/s', bw));
  const baseOf = () => (typeof current().device === 'string' ? current().device : current().device.base);
  function pick() {
    if (gpu.value !== CUSTOM) { showError(''); onChange({ device: gpu.value }); return; }
    const d = devices.find((x) => x.id === baseOf()) || devices[0];
    // Start in the unit the GPU's memory is a whole number of (24 GiB, 80 GB), so it reads exactly.
    const exact = Object.keys(MEMORY_UNITS).find((u) => Number.isInteger(d.capacity_bytes / MEMORY_UNITS[u]));
    if (exact && exact !== unit) { unit = exact; onUnit(unit); }
    onChange({ device: customDevice({ base: d.id, unit, ...customValues(d, unit) }) });
  }
  function edited() {
    const v = { memory: positiveNumber(mem.value), tflops16: positiveNumber(tf16.value), tflops32: positiveNumber(tf32.value), bandwidth: positiveNumber(bw.value) };
    const bad = [['memory', 'Memory'], ['tflops16', '16-bit peak'], ['tflops32', 'FP32 peak'], ['bandwidth', 'Memory bandwidth']].find(([k]) => !(v[k] > 0));
    if (bad) { showError(`${bad[1]} must be a positive number; the GPU was left as it was.`); return; }
    showError('');
    onChange({ device: customDevice({ base: baseOf(), unit, ...v }) });
  }
  function unitChanged() {
    unit = memUnit.value;
    onUnit(unit);
    if (typeof current().device === 'object') mem.value = String(customValues(current().device, unit).memory);
  }
  function set(s, gpuUnit) {
    unit = gpuUnit;
    const isCustom = typeof s.device === 'object';
    gpu.value = isCustom ? CUSTOM : s.device;
    setHidden(custom, !isCustom);
    if (!isCustom) return;
    memUnit.value = unit;
    const v = customValues(s.device, unit);
    for (const [input, x] of [[mem, v.memory], [tf16, v.tflops16], [tf32, v.tflops32], [bw, v.bandwidth]]) if (!typing(input)) input.value = String(x);
  }
  return { gpu, custom, set };
}

// PyTorch's knobs behind "PyTorch settings", one sentence each; the newer ones where the engine reads them.
function pytorchPart({ newer, onChange }) {
  const knobs = Object.keys(PYTORCH_KNOBS).filter((k) => !PYTORCH_KNOBS[k].newer || newer.includes(k)).map((key) => {
    const values = PYTORCH_KNOBS[key].default ? PYTORCH_KNOBS[key].values : ['', ...PYTORCH_KNOBS[key].values];
    const words = { '': 'Family default', ...LABELS[key] }; // fits the closed menu at 640 px
    const sel = selectOf(values, words, () => onChange({ [key]: sel.value || undefined }), { 'data-control': key });
    const label = { step: 'Step', zero_grad: 'zero_grad', optimizer_impl: 'Optimizer code', pytorch_implementation: 'Model code', autocast_scope: 'Autocast covers' }[key];
    return { key, sel, row: field(label, sel, h('p', { class: 'control__note', text: KNOB_NOTES[key] })) };
  });
  const box = h('details', { class: 'wb-more', 'data-testid': 'wb-pytorch' }, h('summary', { text: 'PyTorch settings' }),
    h('div', { class: 'wb-fields' }, knobs.map((k) => k.row)));
  function set(s) {
    setHidden(box, s.framework !== 'pytorch');
    for (const k of knobs) {
      k.sel.value = s[k.key] || '';
      if (k.key === 'autocast_scope') k.sel.disabled = !isAutocast(s.precision);
    }
  }
  return { box, set };
}

// devices: catalog().devices; newer: the newer PyTorch knobs the engine reads.
export function createRunForm({ devices, newer, onChange, onUnit }) {
  const error = h('p', { class: 'field-error', role: 'alert', 'data-testid': 'wb-run-error', hidden: true });
  // A change the workbench made for the student (a new model's context caps the sequence): said, not an error.
  const note = h('p', { class: 'control__note', role: 'status', 'data-testid': 'wb-run-note' });
  const showNote = (text) => setText(note, text || '');
  const showError = (text) => { setText(error, text || ''); setHidden(error, !text); if (text) showNote(''); };
  let current = null; // the scenario on screen
  const gpu = gpuPart({ devices, current: () => current, onChange, onUnit, showError });
  const pytorch = pytorchPart({ newer, onChange });

  const prec = selectOf(PRECISIONS, LABELS.precision, () => onChange({ precision: prec.value }), { 'data-control': 'prec' });
  const precNote = h('p', { class: 'control__note', 'data-testid': 'wb-precision-note' });
  const opt = selectOf(OPTIMIZERS, LABELS.optimizer, () => onChange({ optimizer: opt.value }), { 'data-control': 'opt' });
  const whole = (name, range, what, key) => {
    const input = h('input', { type: 'number', min: range.min, max: range.max, step: 1, 'data-control': name, oninput: () => {
      const n = wholeIn(input.value, range);
      if (!(n > 0)) { showError(`${what} must be a whole number from ${range.min} to ${range.max.toLocaleString('en-US')}; it was left as it was.`); return; }
      showError('');
      onChange({ [key]: n });
    } });
    return input;
  };
  const batch = whole('batch', BATCH, 'The micro-batch', 'batch_size');
  const seq = whole('seq', SEQ, 'The sequence length', 'seq_len');
  const ckptChanged = () => {
    const k = wholeIn(everyK.value, { min: 1, max: 1000 });
    if (ckpt.value === 'every' && !(k > 0)) { showError('Checkpoint every k layers needs k, a whole number of layers; it was left as it was.'); return; }
    showError('');
    onChange({ checkpointing: ckpt.value === 'every' ? { every_k_layers: k } : ckpt.value });
  };
  const ckpt = selectOf(CHECKPOINTING, LABELS.checkpointing, ckptChanged, { 'data-control': 'ckpt' });
  const everyK = h('input', { type: 'number', min: 1, max: 1000, step: 1, value: 4, 'data-control': 'k', 'aria-label': 'Layers between checkpoints', oninput: ckptChanged });
  const everyRow = h('span', { class: 'wb-row' }, everyK, h('span', { 'aria-hidden': 'true', text: 'layers apart' }));
  const ckptNote = h('p', { class: 'control__note', 'data-testid': 'wb-ckpt-off' });
  const countName = uid('wb-count');
  const counts = COUNTINGS.map((c) => {
    const id = uid(`wb-count-${c}`);
    const input = h('input', { type: 'radio', name: countName, id, value: c, onchange: () => input.checked && onChange({ framework: c }) });
    return { c, input, el: h('span', { class: 'radio radio--inline' }, input, h('label', { for: id, text: LABELS.counting[c] })) };
  });

  const el = h('fieldset', { class: 'wb-section', 'data-section': 'run' }, h('legend', { text: 'Run' }),
    h('div', { class: 'wb-fields wb-fields--wide' }, field('GPU', gpu.gpu), field('Precision', prec, precNote), field('Optimizer', opt),
      field('Micro-batch', batch), field('Sequence length', seq), field('Checkpointing', ckpt, everyRow, ckptNote)),
    gpu.custom, error, note,
    h('fieldset', { class: 'wb-count', 'data-control': 'count' }, h('legend', { text: 'Memory counted' }), counts.map((c) => c.el)),
    pytorch.box);

  // Shows a scenario (and the unit of a custom GPU's memory); inputs being typed in keep their text.
  function set(s, gpuUnit) {
    current = s;
    gpu.set(s, gpuUnit);
    pytorch.set(s);
    const isPytorch = s.framework === 'pytorch';
    // The precisions of the other way of counting are not offered here; the note says where they are.
    for (const o of prec.options) o.hidden = o.disabled = !PRECISIONS_FOR[s.framework].includes(o.value);
    setText(precNote, PRECISION_ELSEWHERE[s.framework]);
    prec.value = s.precision;
    opt.value = s.optimizer;
    if (!typing(batch)) batch.value = String(s.batch_size);
    if (!typing(seq)) seq.value = String(s.seq_len);
    ckpt.value = ckptParam(s.checkpointing);
    ckpt.disabled = isPytorch;
    setHidden(everyRow, ckpt.value !== 'every');
    if (ckpt.value === 'every' && !typing(everyK)) everyK.value = String(s.checkpointing.every_k_layers);
    setText(ckptNote, isPytorch ? 'Off: PyTorch counting models no checkpointing (the textbook layout does).' : '');
    setHidden(ckptNote, !isPytorch);
    for (const c of counts) c.input.checked = c.c === s.framework;
  }
  return { el, set, showError, showNote };
}
