// The workbench's URL state, DOM-free: its choices (state.workbench: the scenario and the unit the
// custom GPU's memory is typed in) <-> query parameters. A custom or pasted model travels as the
// engine's spec fields (layers=32&hidden=4096…), never as config JSON. A bad parameter becomes a
// message naming it and is ignored; the rest still applies. url-state.js calls this for act=workbench.
// ?act=workbench&model=gpt2-small&gpu=rtx4090-24gb&prec=autocast_bf16&opt=adam&batch=8&seq=1024&ckpt=none&count=pytorch&step=steady&zero_grad=set_to_none&opt_impl=foreach
import { MODEL_FIELDS } from './workbench-model.js';
import {
  PRECISIONS, OPTIMIZERS, CHECKPOINTING, COUNTINGS, MEMORY_UNITS, BATCH, SEQ, PYTORCH_KNOBS, ckptParam, normalizeRun,
  defaultScenario, customDevice, positiveNumber, wholeIn,
} from './workbench-run.js';
import { wordList } from '../format/format.js';

const REQUIRED = ['layers', 'hidden', 'heads', 'vocab', 'context'];
const KNOB_PARAM = { step: 'step', zero_grad: 'zero_grad', optimizer_impl: 'opt_impl', pytorch_implementation: 'impl', autocast_scope: 'autocast' };
const CUSTOM_GPU = ['mem', 'mem_unit', 'tf16', 'tf32', 'bw', 'base'];
// Every parameter the workbench reads (url-state.js: case variants and repeats are reported).
export const WORKBENCH_PARAMS = ['model', 'name', ...MODEL_FIELDS.map((f) => f.key), 'gpu', ...CUSTOM_GPU, 'prec', 'opt', 'batch', 'seq',
  'ckpt', 'k', 'count', ...Object.values(KNOB_PARAM)];
const FALLBACK_BASE = 'h100-sxm-80gb';
const choices = (items) => wordList(items.map(String), 'or');
// One model field from its parameter: a value, or undefined after reporting it.
function fieldValue(f, raw, bad) {
  if (f.kind === 'bool') {
    if (raw === '1' || raw === '0') return raw === '1';
    bad(f.key, 'use 1 (yes) or 0 (no)');
  } else if (f.kind === 'int') {
    const n = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (n >= f.min && n <= f.max) return n;
    bad(f.key, `${f.label.toLowerCase()} must be a whole number from ${f.min} to ${f.max.toLocaleString('en-US')}`);
  } else {
    const v = f.kind.find((x) => String(x) === raw);
    if (v !== undefined) return v;
    bad(f.key, `use ${choices(f.kind)}`);
  }
  return undefined;
}

function parseModel(p, s, bad, { modelIds }) {
  const fieldParams = MODEL_FIELDS.filter((f) => p.has(f.key));
  const v = p.get('model');
  if (v === 'custom') {
    const model = {};
    for (const f of fieldParams) {
      const value = fieldValue(f, p.get(f.key), bad);
      if (value !== undefined) model[f.key] = value;
    }
    if (p.has('name')) model.name = p.get('name').slice(0, 60);
    const missing = REQUIRED.filter((k) => !(k in model));
    if (missing.length) bad('model', `a custom model needs ${wordList(missing)}, so the model was left as it was`);
    else s.model = model;
    return;
  }
  for (const f of fieldParams) bad(f.key, 'a model field only applies with model=custom');
  if (p.has('name')) bad('name', 'a model name only applies with model=custom');
  if (v === null) return;
  if (modelIds.includes(v)) s.model = v;
  else bad('model', `not a model here (use custom or ${choices(modelIds)})`);
}

function parseGpu(p, s, bad, { deviceIds }, out) {
  const v = p.get('gpu');
  if (v !== 'custom') {
    for (const name of CUSTOM_GPU) if (p.has(name)) bad(name, 'only applies with gpu=custom');
    if (v === null) return;
    if (deviceIds.includes(v)) s.device = v;
    else bad('gpu', `not a GPU here (use custom or ${choices(deviceIds)})`);
    return;
  }
  const unit = p.has('mem_unit') ? p.get('mem_unit') : 'gb';
  if (!Object.hasOwn(MEMORY_UNITS, unit)) { bad('mem_unit', 'use gb (10^9 bytes) or gib (2^30 bytes)'); return; }
  const base = p.has('base') ? p.get('base') : (typeof s.device === 'string' ? s.device : FALLBACK_BASE);
  if (!deviceIds.includes(base)) { bad('base', `not a GPU to start from (use ${choices(deviceIds)})`); return; }
  const nums = {};
  for (const [name, what] of [['mem', 'the memory'], ['tf16', 'the 16-bit peak in TFLOP/s'], ['tf32', 'the FP32 peak in TFLOP/s'], ['bw', 'the memory bandwidth in GB/s']]) {
    nums[name] = positiveNumber(p.get(name) ?? '');
    if (!(nums[name] > 0)) { bad(name, p.has(name) ? `${what} must be a positive number` : `gpu=custom needs ${what}`); return; }
  }
  s.device = customDevice({ base, memory: nums.mem, unit, tflops16: nums.tf16, tflops32: nums.tf32, bandwidth: nums.bw });
  out.gpu_unit = unit;
}

function parseRun(p, s, bad) {
  const pick = (name, key, values, what) => {
    if (!p.has(name)) return;
    const v = p.get(name);
    if (values.includes(v)) s[key] = v;
    else bad(name, `not ${what} here (use ${choices(values)})`);
  };
  pick('prec', 'precision', PRECISIONS, 'a precision');
  pick('opt', 'optimizer', OPTIMIZERS, 'an optimizer');
  pick('count', 'framework', COUNTINGS, 'a way of counting memory');
  for (const [key, name] of Object.entries(KNOB_PARAM)) pick(name, key, PYTORCH_KNOBS[key].values, `a ${name} setting`);
  if (p.has('batch')) {
    const n = wholeIn(p.get('batch'), BATCH);
    if (n > 0) s.batch_size = n; else bad('batch', `the micro-batch must be a whole number from ${BATCH.min} to ${BATCH.max.toLocaleString('en-US')}`);
  }
  if (p.has('seq')) {
    const n = wholeIn(p.get('seq'), SEQ);
    if (n > 0) s.seq_len = n; else bad('seq', `the sequence length must be a whole number of tokens from ${SEQ.min} to ${SEQ.max.toLocaleString('en-US')}`);
  }
  if (p.has('ckpt')) {
    const v = p.get('ckpt');
    if (!CHECKPOINTING.includes(v)) bad('ckpt', `not a checkpointing scheme (use ${choices(CHECKPOINTING)})`);
    else if (v !== 'every') s.checkpointing = v;
    else {
      const k = wholeIn(p.get('k') ?? '', { min: 1, max: 1000 });
      if (k > 0) s.checkpointing = { every_k_layers: k };
      else bad('k', 'ckpt=every needs k, a whole number of layers from 1 to 1,000');
    }
  }
  if (p.has('k') && p.get('ckpt') !== 'every') bad('k', 'the checkpoint interval only applies with ckpt=every');
}

// params: URLSearchParams (each name once). Returns { workbench, errors }: workbench is null when the
// link sets nothing of the workbench; else { scenario, gpu_unit } over `current` (state.workbench).
// echo(value): the value as a message may show it (url-state.js cuts long ones and shows invisible characters).
export function parseWorkbenchParams(params, { modelIds = [], deviceIds = [], current = null, echo = String } = {}) {
  const errors = [];
  if (!WORKBENCH_PARAMS.some((n) => params.has(n))) return { workbench: null, errors };
  const bad = (param, message) => errors.push({ param, message: `${param}=${echo(params.get(param) ?? '')}: ${message}; it was ignored.` });
  const before = current && current.scenario ? current.scenario : defaultScenario();
  const s = { ...before };
  const out = { gpu_unit: current && current.gpu_unit ? current.gpu_unit : 'gb' };
  parseModel(params, s, bad, { modelIds });
  parseGpu(params, s, bad, { deviceIds }, out);
  parseRun(params, s, bad);
  const { scenario, changed } = normalizeRun(s, ['pytorch_implementation', 'autocast_scope']);
  if (s.framework === 'pytorch' && params.has('ckpt') && ckptParam(s.checkpointing) !== 'none') {
    errors.push({ param: 'ckpt', message: `ckpt=${echo(params.get('ckpt'))}: checkpointing is not available when memory is counted as PyTorch allocates it (count=textbook allows it); it is off.` });
  } else if (changed.length && (params.has('prec') || params.has('count'))) {
    errors.push({ param: 'prec', message: `prec=${echo(params.get('prec') ?? before.precision)}: not used with count=${scenario.framework}; ${changed.join('; ')}.` });
  }
  return { workbench: { ...out, scenario }, errors };
}

const bool = (b) => (b ? '1' : '0');
// The query string for the workbench's choices (always all of them, so a copied link reproduces the
// view). units: the lab's units (config.units).
export function serializeWorkbench(workbench, { units = 'gb', hide = [], lock = [] } = {}) {
  const s = workbench && workbench.scenario ? workbench.scenario : defaultScenario();
  const p = new URLSearchParams();
  p.set('act', 'workbench');
  if (typeof s.model === 'string') p.set('model', s.model);
  else {
    p.set('model', 'custom');
    for (const f of MODEL_FIELDS) {
      if (s.model[f.key] === undefined || s.model[f.key] === null) continue;
      p.set(f.key, f.kind === 'bool' ? bool(s.model[f.key]) : String(s.model[f.key]));
    }
    if (s.model.name) p.set('name', s.model.name);
  }
  if (typeof s.device === 'string') p.set('gpu', s.device);
  else {
    const unit = workbench.gpu_unit || 'gb';
    const d = s.device;
    p.set('gpu', 'custom');
    p.set('base', d.base || FALLBACK_BASE);
    p.set('mem', String(Number((d.capacity_bytes / MEMORY_UNITS[unit]).toFixed(4))));
    p.set('mem_unit', unit);
    p.set('tf16', String(Number((d.peak_fp16_flops_per_s / 1e12).toFixed(4))));
    p.set('tf32', String(Number((d.peak_fp32_flops_per_s / 1e12).toFixed(4))));
    p.set('bw', String(Number((d.hbm_bytes_per_s / 1e9).toFixed(4))));
  }
  p.set('prec', s.precision);
  p.set('opt', s.optimizer);
  p.set('batch', String(s.batch_size));
  p.set('seq', String(s.seq_len));
  p.set('ckpt', ckptParam(s.checkpointing));
  if (ckptParam(s.checkpointing) === 'every') p.set('k', String(s.checkpointing.every_k_layers));
  p.set('count', s.framework);
  for (const [key, name] of Object.entries(KNOB_PARAM)) if (s[key]) p.set(name, s[key]);
  p.set('units', units);
  if (hide.length) p.set('hide', hide.join(','));
  if (lock.length) p.set('lock', lock.join(','));
  return `?${p.toString().replace(/%2C/g, ',')}`;
}
