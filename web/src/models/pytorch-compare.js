// "Check it on your GPU", part 2: reads the JSON the script printed and sets it beside the engine's
// prediction for the same scenario, phase by phase (DOM-free; the page and `labctl compare` share
// it). readMeasured() refuses what is not a result of this script, or not one as the script writes
// it, naming the field; compareMeasured() refuses a result of another scenario, naming what differs.
// The script is pytorch-script.js; the words on screen are the page's.
import { CHECK_FORMAT, MEASURE_FIELDS, checkFor } from './pytorch-script.js';
import { nestingDepth } from '../state/json-depth.js';

export const MEASURED_MAX_BYTES = 64 * 1024; // a result is about 2 KB; a pasted page or log is not one
export const MEASURED_MAX_DEPTH = 8; // a result nests 4 deep; a deeper paste would overflow JSON.stringify's stack
export const PEAK_TOLERANCE = 0.01; // the fixtures' tolerance for a peak (core/memory/README.md)
export const PHASES = ['forward', 'backward', 'optimizer_step'];
const ALL_PHASES = ['zero_grad', ...PHASES];
const STEPS = ['first', 'steady'];

const fail = (field, message) => ({ error: { field, message } });
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v) => Number.isSafeInteger(v) && v >= 0;
const close = (a, b) => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b));

// The JSON object in a paste: the whole text, or else the last line that is one (a notebook may
// print warnings before it).
function parseLoose(text) {
  const t = text.replace(/^\uFEFF/, '').trim();
  try { return { value: JSON.parse(t) }; } catch (e) {
    const lines = t.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.startsWith('{')).reverse();
    for (const l of lines) { try { return { value: JSON.parse(l) }; } catch { /* next */ } }
    return { error: e.message };
  }
}

function stepProblems(name, s) {
  if (!isObj(s)) return [name, 'missing'];
  if (!isObj(s.phase_max_bytes)) return [`${name}.phase_max_bytes`, 'missing'];
  for (const p of ALL_PHASES) if (!isCount(s.phase_max_bytes[p])) return [`${name}.phase_max_bytes.${p}`, 'not a byte count'];
  for (const k of ['start_bytes', 'peak_bytes', 'end_bytes']) if (!isCount(s[k])) return [`${name}.${k}`, 'not a byte count'];
  const top = Math.max(...ALL_PHASES.map((p) => s.phase_max_bytes[p]));
  if (s.peak_bytes !== top) return [`${name}.peak_bytes`, `${s.peak_bytes} is not the largest phase peak (${top}): the numbers were changed after the run`];
  if (s.phase_max_bytes[s.peak_phase] !== top) return [`${name}.peak_phase`, `"${s.peak_phase}" is not the phase with the peak`];
  // Only the first phase starts with the step's bytes: later ones may start lower (zero_grad frees the
  // gradients before the forward, and each phase's peak counts from the bytes alive when it begins).
  if (s.phase_max_bytes[ALL_PHASES[0]] < s.start_bytes)
    return [`${name}.phase_max_bytes.${ALL_PHASES[0]}`, 'the first phase’s peak is below the bytes alive at the start: the numbers were changed after the run'];
  return null;
}

// What was pasted, read as a result of this script that names its scenario, or { error }.
export function readShape(text) {
  if (typeof text !== 'string' || !text.trim()) return fail('measured', 'nothing pasted: paste the line the script printed');
  if (text.length > MEASURED_MAX_BYTES)
    return fail('measured', `${Math.round(text.length / 1024)} KB pasted; the script prints one line of about 2 KB. Paste only that line.`);
  if (nestingDepth(text, MEASURED_MAX_DEPTH) > MEASURED_MAX_DEPTH)
    return fail('measured', `nested more than ${MEASURED_MAX_DEPTH} deep; the script prints objects 4 deep. Paste only the line it printed`);
  const { value: m, error } = parseLoose(text);
  if (error) return fail('measured', `not JSON (${error}): paste the one line the script printed`);
  if (!isObj(m)) return fail('measured', 'not a JSON object: paste the one line the script printed');
  if (typeof m.refused === 'string') return fail('refused', `the script did not run the step: ${m.refused}`);
  if (m.lab_check !== CHECK_FORMAT)
    return fail('lab_check', m.lab_check === undefined ? 'not a result of this lab\'s script' : `"${String(m.lab_check).slice(0, 60)}" is not a format this page reads (${CHECK_FORMAT})`);
  if (!isObj(m.scenario)) return fail('scenario', 'missing: the result must name the scenario it measured');
  return { measured: m };
}

// The numbers of a result read by readShape, or { error } naming the first field that is wrong.
function readNumbers(m) {
  if (!isObj(m.device) || typeof m.device.name !== 'string' || !['cuda', 'cpu'].includes(m.device.type)) return fail('device', 'missing or not as the script writes it');
  for (const k of ['parameters', 'saved_bytes', 'autocast_weight_cache_bytes']) if (!isCount(m[k])) return fail(k, 'not a count');
  for (const st of STEPS) {
    const bad = stepProblems(`${st}_step`, m[`${st}_step`]);
    if (bad) return fail(bad[0], bad[1]);
  }
  const t = m.timing;
  if (!isObj(t) || !(t.step_seconds > 0) || !(t.tokens_per_s > 0)) return fail('timing', 'missing, or a step time that is not positive');
  const tokens = m.scenario.batch_size * m.scenario.seq_len;
  if (!close(t.tokens_per_s, tokens / t.step_seconds)) return fail('timing.tokens_per_s', 'not batch × sequence ÷ step time: the numbers were changed after the run');
  if (t.mfu !== null && !(typeof t.mfu === 'number' && close(t.mfu, t.model_flops_per_token * t.tokens_per_s / t.peak_flops_per_s)))
    return fail('timing.mfu', 'not model FLOPs per second ÷ peak: the numbers were changed after the run');
  return { measured: m };
}

// The measured result, or { error } naming the first field that is wrong.
export function readMeasured(text) {
  const read = readShape(text);
  return read.error ? read : readNumbers(read.measured);
}

// A refused field in words for the page and the ledger (labctl's JSON keeps the field path): null
// where the message names what is wrong by itself (nothing pasted, not JSON, another scenario).
const STEP_WORDS = { first_step: 'the first step', steady_step: 'the steady step' };
const PHASE_WORDS = { zero_grad: 'zero-grad', forward: 'forward', backward: 'backward', optimizer_step: 'optimizer' };
const STEP_FIELD_WORDS = { phase_max_bytes: 'phase peaks', start_bytes: 'bytes at the start', peak_bytes: 'peak', end_bytes: 'bytes at the end', peak_phase: 'peak phase' };
const FIELD_WORDS = { device: 'The device', parameters: 'The parameter count', saved_bytes: 'The saved activations',
  autocast_weight_cache_bytes: 'The autocast weight cache', timing: 'The timing', 'timing.tokens_per_s': 'Tokens per second', 'timing.mfu': 'The MFU' };
export function fieldWords(field) {
  if (FIELD_WORDS[field]) return FIELD_WORDS[field];
  const [step, what, phase] = String(field).split('.');
  if (!STEP_WORDS[step]) return null;
  const words = what === 'phase_max_bytes' && phase ? `${PHASE_WORDS[phase] || 'phase'} peak` : STEP_FIELD_WORDS[what] || 'record';
  const text = `${STEP_WORDS[step]}'s ${words}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}
// The refusal as a sentence: what is wrong, named in words.
export function refusalText(error) {
  const words = fieldWords(error.field);
  return words ? `${words}: ${error.message}` : error.message.charAt(0).toUpperCase() + error.message.slice(1);
}

// A scenario's fields as a student reads them; a field not listed keeps its name.
const SCENARIO_WORDS = { model: 'model', device: 'GPU', precision: 'precision', optimizer: 'optimizer', batch_size: 'batch size',
  seq_len: 'sequence length', checkpointing: 'checkpointing', pytorch_build: 'where it ran', reserve_bytes: 'allocator reserve',
  zero_grad: 'zero-grad', optimizer_impl: 'optimizer code', pytorch_implementation: 'code style', autocast_scope: 'autocast scope',
  hidden: 'hidden size', layers: 'layers', heads: 'heads', kv_heads: 'key/value heads', vocab: 'vocabulary', context: 'context',
  mlp_hidden: 'MLP size', name: 'name' };
const scenarioWords = (path) => path.split('.').map((k) => SCENARIO_WORDS[k] || k.replace(/_/g, ' ')).join('’s ');
const shown = (v) => (v === undefined ? 'not set' : isObj(v) && typeof v.name === 'string' ? JSON.stringify(v.name) : JSON.stringify(v));

// Where two scenarios differ, as ["field: X there, Y here", …]; `only`: compare just the fields the
// measured scenario names (a result written by an older script lacks fields added since).
const FIRST_DIFFERENCES = ['model', 'pytorch_implementation', 'precision', 'optimizer', 'batch_size', 'seq_len', 'device', 'autocast_scope'];
function differences(measured, here, { path = '', only = false } = {}) {
  // The choices a student makes first (a re-walk read "dropout" first and the code style hidden).
  const rank = (k) => { const i = FIRST_DIFFERENCES.indexOf(k); return i < 0 ? FIRST_DIFFERENCES.length : i; };
  const keys = [...new Set([...Object.keys(measured), ...(only ? [] : Object.keys(here))])].sort((x, y) => rank(x) - rank(y) || (x < y ? -1 : 1));
  const out = [];
  for (const k of keys) {
    const a = measured[k];
    const b = here[k];
    const p = path ? `${path}.${k}` : k;
    if (isObj(a) && isObj(b)) out.push(...differences(a, b, { path: p, only }));
    else if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${scenarioWords(p)}: ${shown(a)} there, ${shown(b)} here`);
  }
  return out;
}
const anotherScenario = (diff) => fail('scenario', `this result measured another scenario: ${diff.slice(0, 4).join('; ')}${diff.length > 4 ? `; and ${diff.length - 4} more` : ''}`);

// The step-phase timeline's moments, grouped as the script's phases (the measured forward phase
// begins with the bytes alive after zero_grad: the timeline's `start`).
export function phaseOf(moment) {
  // The loss is computed inside the script's forward phase (the model returns it), so its moment is too.
  if (moment === 'start' || moment.startsWith('forward') || moment === 'loss_forward') return 'forward';
  if (moment.includes('backward')) return 'backward';
  if (moment.startsWith('optimizer')) return 'optimizer_step';
  return null;
}

export function predictedPhases(result) {
  const out = Object.fromEntries(PHASES.map((p) => [p, 0]));
  for (const t of result.memory.step_phases.timeline) {
    const p = phaseOf(t.phase);
    if (p) out[p] = Math.max(out[p], t.bytes);
  }
  return out;
}

// Whether the GPU measured is the scenario's device: its model number (the first word of the lab's name
// with a digit: "H100", "T4", "4090") among the words of the driver's name ("NVIDIA A100-SXM4-80GB",
// "NVIDIA GeForce RTX 4090"), and "Laptop" where the lab's name has it. The timing estimate is for the
// scenario's device; a CPU run is never it.
export function sameGpu(device, deviceName) {
  const words = (t) => String(t).toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const lab = words(deviceName);
  const model = lab.find((w) => /\d/.test(w));
  const driver = device && device.type === 'cuda' ? words(device.name) : [];
  return !!model && driver.includes(model) && (!lab.includes('laptop') || driver.includes('laptop'));
}

const row = (step, phase, predicted, measured) => ({
  step, phase, predicted_bytes: predicted, measured_bytes: measured,
  error_pct: measured ? (100 * (predicted - measured)) / measured : null,
});

// The comparison of a pasted result with the engine's prediction for `scenario`, or { error }.
// status: "agrees" when every step's peak is within PEAK_TOLERANCE and the saved bytes are exact.
export function compareMeasured(evaluate, scenario, text) {
  const shape = readShape(text);
  if (shape.error) return shape;
  const m = shape.measured;
  const check = checkFor(evaluate, scenario, { warmup: 1, measured: 1 });
  if (check.error) return check;
  // The scenario first, before the result's own numbers: a result of another step names what differs
  // (a walk: another model read as a code-style error, another batch as edited tokens/s). Each field
  // the result names, as it names it; then as today's engine resolves it (a result measured with an
  // older engine lacks the defaults of fields added since, and is the same step).
  const named = differences(Object.fromEntries(Object.entries(m.scenario).filter(([k]) => !MEASURE_FIELDS.includes(k))), check.scenario, { only: true });
  if (named.length) return anotherScenario(named);
  const again = evaluate({ ...m.scenario, step: 'steady', mode: 'train' });
  if (again.error) return fail('scenario', `the result's scenario is not one this lab accepts: ${again.error.message}`);
  const theirs = Object.fromEntries(Object.entries(again.scenario).filter(([k]) => !MEASURE_FIELDS.includes(k)));
  const diff = differences(theirs, check.scenario);
  if (diff.length) return anotherScenario(diff);
  const read = readNumbers(m);
  if (read.error) return read;
  const steps = {};
  for (const st of STEPS) {
    const r = evaluate({ ...scenario, step: st, mode: 'train' });
    if (r.error) return { error: r.error };
    steps[st] = r;
  }
  const rows = [];
  for (const st of STEPS) {
    const pred = predictedPhases(steps[st]);
    const got = m[`${st}_step`];
    for (const p of PHASES) rows.push(row(st, p, pred[p], got.phase_max_bytes[p]));
    rows.push({ ...row(st, 'peak', steps[st].memory.step_phases.allocator_peak_bytes, got.peak_bytes),
      predicted_phase: phaseOf(steps[st].memory.step_phases.peak_phase), measured_phase: got.peak_phase });
  }
  const r = steps.steady;
  const items = r.memory.activations_items || {};
  const saved = { predicted_bytes: items.saved_bytes, measured_bytes: m.saved_bytes,
    weight_cache_predicted_bytes: items.autocast_weight_cache_bytes || 0, weight_cache_measured_bytes: m.autocast_weight_cache_bytes };
  const peaksAgree = rows.filter((x) => x.phase === 'peak').every((x) => Math.abs(x.error_pct) <= 100 * PEAK_TOLERANCE);
  const exact = saved.predicted_bytes === saved.measured_bytes && saved.weight_cache_predicted_bytes === saved.weight_cache_measured_bytes
    && r.model.parameters === m.parameters;
  const t = m.timing;
  return {
    status: peaksAgree && exact ? 'agrees' : 'differs',
    style: check.style,
    scenario: Object.fromEntries(Object.entries(m.scenario).filter(([k]) => !MEASURE_FIELDS.includes(k))),
    measured_on: { ...m.device, torch_version: m.torch_version },
    engine_version: r.engine_version,
    tolerance_pct: 100 * PEAK_TOLERANCE,
    phases: rows,
    saved,
    parameters: { predicted: r.model.parameters, measured: m.parameters },
    timing: {
      measured_step_seconds: t.step_seconds, estimated_step_seconds: r.pipeline.step_seconds,
      ratio: t.step_seconds / r.pipeline.step_seconds,
      measured_tokens_per_s: t.tokens_per_s, estimated_tokens_per_s: r.pipeline.tokens_per_second,
      measured_mfu: t.mfu, estimated_mfu: r.pipeline.mfu, device: check.device_name,
      same_device: sameGpu(m.device, check.device_name),
    },
  };
}
