// The design ledger's verification table, DOM-free: what checkLedger found (ledger-check.js), as rows a
// student reads. Each row is named in words by its field (the field path kept beside it for
// instructors), each value in the lab's format or in words. The page draws them in acts/ledger-panel.js.
import { LABELS } from '../state/scenario.js';
import { formatBytes, formatInt, formatPercent, formatRatio } from '../format/format.js';
import { phaseLabel } from '../models/workbench-view.js';
import { laptopMoveNumbers, settings1, settings2 } from './design-ledger.js'; // settings in words, as the summary has them

// ---- The verification table's words. The engine (verify_ledger) and the re-scoring (ledger-rescore.js)
// name each row by its field; these are the labels a student or an instructor reads (so neither
// "you" nor "the student"), keyed by field, with the field path kept beside them for instructors.
// A row the table does not know keeps the checker's own label.
const ACT_OF = { act1: 'Act 1', act2: 'Act 2' };
const QUESTION_OF = { act1: 'Act 1 reflection', act2_fix: 'Act 2 fix question', act2_ckpt: 'Act 2 checkpointing question' };
const ALSO = (list) => ` (also stored in the ${list} list)`;
const SUMMARY = 'summary of the choices';
// The record an indexed field points at ("predictions[1]" → the ledger's predictions[1].id), or, without
// the ledger, what the checker's label says.
function entryId(ledger, list, i, label, guess) {
  const e = ledger && Array.isArray(ledger[list]) ? ledger[list][i] : null;
  return e && typeof e.id === 'string' ? e.id : guess(String(label || ''));
}
const guessAct = (label) => (/Act 2/.test(label) ? 'act2' : 'act1');
const guessQuestion = (label) => (/fix/i.test(label) ? 'act2_fix' : /checkpoint/i.test(label) ? 'act2_ckpt' : 'act1');
const SETTINGS_WORDS = {
  peak_bytes: 'peak memory', total_bytes: 'all memory components added up', static_bytes: 'static memory (weights, gradients, optimizer state)',
  usable_device_bytes: 'the device’s usable memory', fits: 'fits on the device', binding_kind: 'what binds',
  step_seconds: 'seconds per step', busy_fraction: 'GPU busy', pipeline_efficiency: 'pipeline efficiency', mfu: 'MFU',
  hfu: 'HFU (MFU counting recomputed FLOPs too)', tokens_per_second: 'tokens per second', bottleneck_axis: 'the bottleneck',
};
const PREDICTION_WORDS = { predicted: 'the predicted value', truth: 'the engine’s answer', error_ratio: 'how far off', direction: 'too low, too high or spot on',
  choice: 'the option chosen', predicted_range: 'the range chosen' };
const SHARE_WORDS = { data_loading: 'data loading’s', transfers: 'transfers’', compute: 'GPU compute’s' }; // as Act 2 names the shares
const GPU_STEP_WORDS = { first: 'first', steady: 'steady' };
const GPU_PHASE_WORDS = { forward: 'forward', backward: 'backward', optimizer_step: 'optimizer', peak: 'peak' };
const GPU_CHECK_WORDS = { saved_bytes: 'the saved activations predicted', autocast_weight_cache_bytes: 'the autocast weight cache predicted',
  parameters: 'the parameters counted', estimated_step_seconds: 'the step time estimated', status: 'agrees or differs' };
const LABEL_RULES = [
  [/^result_snapshot\.(act[12])\.(\w+)$/, (m) => SETTINGS_WORDS[m[2]] && `${ACT_OF[m[1]]} settings: ${SETTINGS_WORDS[m[2]]}`],
  [/^binding_constraints\[(\d+)\]\.(kind|headroom_bytes|message)$/, (m, c) => {
    const act = entryId(c.ledger, 'binding_constraints', Number(m[1]), c.label, guessAct);
    const what = { kind: `what binds${act === 'act1' ? ' (also stored in the list of what binds)' : ''}`,
      headroom_bytes: 'memory left at the peak (below zero: how much is missing)', message: 'the engine’s sentence on what binds' }[m[2]];
    return `${ACT_OF[act] || 'These'} settings: ${what}`;
  }],
  [/^knob_settings\.(act[12])$/, (m) => `${ACT_OF[m[1]]} settings as last left (also stored with the saved progress)`],
  [/^optimizer_chosen$/, () => 'Optimizer chosen in Act 1'],
  [/^precision_chosen$/, () => 'Precision chosen (from the best design, or the current settings before there is one)'],
  [/^gradient_checkpointing$/, () => 'Activation checkpointing chosen (from the best design, or the current settings before there is one)'],
  [/^final_mfu_pct$/, (m, c) => `Best MFU reached in the design challenge (%)${c.blank ? ': blank until the design challenge has a result' : ''}`],
  [/^baseline_mfu_estimate_pct$/, (m, c) => `MFU estimate in Act 2 (%)${c.blank ? ': blank until the Act 2 prediction is made' : ''}`],
  [/^laptop_fit_achieved$/, () => `Laptop challenge: fit achieved (${SUMMARY})`],
  [/^laptop_minimum_memory_gb$/, (m, c) => `Least memory that can train GPT-2 XL, the laptop floor (${SUMMARY}, recorded in GB)${c.blank ? ': blank until the laptop challenge' : ''}`],
  [/^laptop_floor_derivation$/, (m, c) => `How the engine derives the laptop floor (${SUMMARY})${c.blank ? ': blank until the laptop challenge' : ''}`],
  [/^lab_state\.acts\.act1\.prediction\.predicted_bytes$/, () => 'Act 1 prediction: the amount the chosen option stands for'],
  [/^lab_state\.acts\.act2\.prediction\.predicted_mfu$/, () => 'Act 2 prediction: the estimate the chosen range stands for (its geometric middle)'],
  [/^lab_state\.acts\.act1\.prediction\.truth_bytes$/, () => 'Act 1 prediction: the engine’s answer (extra memory Adam needs over SGD, FP32)'],
  [/^lab_state\.acts\.act2\.prediction\.truth_mfu$/, () => 'Act 2 prediction: the engine’s MFU for the settings the prediction is about'],
  [/^lab_state\.acts\.act1\.prediction\.error_ratio$/, () => 'Act 1 prediction: how far off the answer was'],
  [/^lab_state\.acts\.act2\.prediction\.error_ratio$/, () => 'Act 2 prediction: how far off, from the nearer end of the chosen range'],
  [/^lab_state\.acts\.act1\.prediction\.direction$/, () => 'Act 1 prediction: too low, too high or spot on'],
  [/^lab_state\.acts\.act2\.prediction\.direction$/, () => 'Act 2 prediction: too low, too high or inside the chosen range'],
  // The predictions list repeats the lab state's answers; its rows are checked against them.
  [/^predictions\[(\d+)\]\.(predicted|truth|error_ratio|direction|choice|predicted_range)$/, (m, c) => {
    const act = entryId(c.ledger, 'predictions', Number(m[1]), c.label, guessAct);
    const words = act === 'act2' && m[2] === 'direction' ? 'too low, too high or inside the chosen range' : PREDICTION_WORDS[m[2]];
    return `${ACT_OF[act] || 'A'} prediction: ${words}${ALSO('predictions')}`;
  }],
  [/^lab_state\.acts\.act1\.reflection\.engine_ratio$/, () => 'Act 1 reflection: the engine’s ratio, FP32 total ÷ mixed-precision total (the chapter’s replay)'],
  [/^lab_state\.acts\.act1\.reflection\.reason_correct$/, () => 'Act 1 reflection: score for the reason'],
  [/^lab_state\.acts\.act1\.reflection\.ratio_correct$/, () => 'Act 1 reflection: score for the ratio (against the engine’s ratio)'],
  [/^lab_state\.acts\.act2\.reflection_fix\.correct$/, () => 'Act 2 fix question: score (re-scored by timing each fix with the engine)'],
  [/^lab_state\.acts\.act2\.reflection_ckpt\.engine_ratio$/, () => 'Act 2 checkpointing question: the engine’s ratio, activation memory without ÷ with checkpointing'],
  [/^lab_state\.acts\.act2\.reflection_ckpt\.engine_overhead$/, () => 'Act 2 checkpointing question: the engine’s extra compute, recomputed FLOPs ÷ model FLOPs'],
  [/^lab_state\.acts\.act2\.reflection_ckpt\.reason_correct$/, () => 'Act 2 checkpointing question: score for the reason'],
  [/^lab_state\.acts\.act2\.reflection_ckpt\.ratio_correct$/, () => 'Act 2 checkpointing question: score for the memory ratio (against the engine’s)'],
  [/^lab_state\.acts\.act2\.reflection_ckpt\.overhead_correct$/, () => 'Act 2 checkpointing question: score for the extra compute (against the engine’s)'],
  [/^reflections\[(\d+)\]\.(engine_values\.ratio|engine_values\.overhead|correct)$/, (m, c) => {
    const id = entryId(c.ledger, 'reflections', Number(m[1]), c.label, guessQuestion);
    const what = m[2] === 'engine_values.ratio' ? 'the engine’s ratio' : m[2] === 'engine_values.overhead' ? 'the engine’s extra compute'
      : id === 'act2_fix' ? 'score' : 'right in every part';
    return `${QUESTION_OF[id] || 'Reflection'}: ${what}${ALSO('reflections')}`;
  }],
  [/^lab_state\.acts\.act2\.design\.best\.mfu$/, () => 'Design challenge: MFU of the best design'],
  [/^lab_state\.acts\.act2\.design\.best\.busy_fraction$/, () => 'Design challenge: GPU busy in the best design'],
  [/^lab_state\.acts\.act2\.design\.best\.pipeline_efficiency$/, () => 'Design challenge: pipeline efficiency of the best design'],
  [/^lab_state\.acts\.act2\.design\.best\.shares\.(\w+)$/, (m) => SHARE_WORDS[m[1]] && `Design challenge: ${SHARE_WORDS[m[1]]} share of the step in the best design`],
  [/^lab_state\.acts\.act2\.laptop\.moves\[(\d+)\]\.(peak_bytes|fits|trainable)$/, (m, c) => {
    const moves = c.ledger && c.ledger.lab_state && c.ledger.lab_state.acts.act2 ? c.ledger.lab_state.acts.act2.laptop.moves : [];
    const n = moves.length ? laptopMoveNumbers(moves).numbers[Number(m[1])] : Number(m[1]) + 1;
    const who = n === 0 ? 'the start (the chapter’s baseline settings)' : `move ${n}`;
    return `Laptop challenge, ${who}: ${{ peak_bytes: n === 0 ? 'peak memory' : 'peak memory after it', fits: 'fits in the laptop’s memory',
      trainable: 'can train (FP32, or 16-bit with an FP32 master copy)' }[m[2]]}`;
  }],
  [/^lab_state\.acts\.act2\.laptop\.fit_achieved$/, () => 'Laptop challenge: some move fits and can train'],
  [/^lab_state\.acts\.act2\.laptop\.floor_bytes$/, () => 'Laptop challenge: the floor reached (the least memory that can train GPT-2 XL)'],
  [/^result_snapshot\.laptop\.floor_peak_bytes$/, () => 'Laptop floor: the least memory that can train GPT-2 XL at all'],
  [/^result_snapshot\.laptop\.static_floor_bytes$/, () => 'Laptop floor: of which weights, gradients and optimizer state'],
  [/^result_snapshot\.laptop\.floor_text$/, () => 'Laptop floor: how the engine derives it'],
  // "Check it on your GPU" (gpu-check-record.js): each comparison's prediction side, named by its step and phase.
  [/^lab_state\.gpu_checks\[(\d+)\]\.predicted\.phases\[(\d+)\]\.predicted_bytes$/, (m, c) => {
    const checks = c.ledger && c.ledger.lab_state && Array.isArray(c.ledger.lab_state.gpu_checks) ? c.ledger.lab_state.gpu_checks : [];
    const p = checks[Number(m[1])] && checks[Number(m[1])].predicted && checks[Number(m[1])].predicted.phases ? checks[Number(m[1])].predicted.phases[Number(m[2])] : null;
    const where = p ? `${GPU_STEP_WORDS[p.step] || 'a'} step, ${GPU_PHASE_WORDS[p.phase] || 'a phase'}` : 'a phase';
    return `GPU check ${Number(m[1]) + 1}, ${where}: the bytes predicted`;
  }],
  [/^lab_state\.gpu_checks\[(\d+)\]\.predicted\.(\w+)$/, (m) => GPU_CHECK_WORDS[m[2]] && `GPU check ${Number(m[1]) + 1}: ${GPU_CHECK_WORDS[m[2]]}`],
  [/^lab_state\.gpu_checks(?:\[(\d+)\]\.predicted)?$/, (m) => `GPU check${m[1] === undefined ? 's' : ` ${Number(m[1]) + 1}`}: the prediction`],
  // Flags derived from the record (ledger-derived.js).
  [/^lab_state\.acts\.(act[12])\.completed$/, (m) => `${ACT_OF[m[1]]} complete (derived from what the record holds)`],
  [/^lab_state\.acts\.act2\.design\.regime_reached$/, () => 'Design challenge: tuned regime reached (re-computed from the settings that reached it)'],
  [/^lab_state\.acts\.act2\.laptop\.finished$/, () => 'Laptop challenge: finished (a finished challenge records the floor)'],
  [/^decisions$/, () => 'Decisions made (rebuilt from the saved progress)'],
  [/^calibration\.sentence$/, () => 'Calibration sentence (rebuilt from the predictions)'],
  [/^calibration\.items\[(\d+)\]\.phrase$/, (m, c) => {
    const items = c.ledger && c.ledger.calibration && Array.isArray(c.ledger.calibration.items) ? c.ledger.calibration.items : [];
    const id = items[Number(m[1])] && items[Number(m[1])].id;
    return `Calibration line for the ${ACT_OF[id] || 'recorded'} prediction (rebuilt from it)`;
  }],
];

// The label a student reads for `field`; `label`: the checker's own (kept when no rule knows the field).
function ruleLabel(field, context) {
  for (const [re, make] of LABEL_RULES) {
    const m = re.exec(field);
    const text = m && make(m, context);
    if (text) return text;
  }
  return null;
}
export function fieldLabel(field, label, { ledger = null, blank = false } = {}) {
  const known = ruleLabel(field, { ledger, label, blank });
  if (known) return known;
  const own = String(label || field);
  return own.charAt(0).toUpperCase() + own.slice(1);
}

// What the check did not re-compute, named in words (the field path stays beside it for instructors).
const NOT_RECOMPUTED_WORDS = [
  [/^lab_state\.acts\.act1\.prediction$/, 'Act 1 prediction'],
  [/^lab_state\.acts\.act1\.reflection$/, 'Act 1 reflection'],
  [/^lab_state\.acts\.act2$/, 'Act 2'],
  [/^result_snapshot\.act2$/, 'Act 2 settings: results'],
  [/^lab_state\.acts\.act2\.prediction$/, 'Act 2 prediction'],
  [/^lab_state\.acts\.act2\.prediction\.error_ratio$/, 'Act 2 prediction: how far off'],
  [/^lab_state\.acts\.act2\.design\.best$/, 'Design challenge: the best design'],
  [/^lab_state\.acts\.act2\.laptop$/, 'Laptop challenge'],
  [/^lab_state\.acts\.act2\.laptop\.floor_bytes$/, 'Laptop challenge: the floor'],
  [/^lab_state\.acts\.act2\.reflection_fix$/, 'Act 2 fix question'],
  [/^lab_state\.acts\.act2\.reflection_ckpt$/, 'Act 2 checkpointing question'],
  [/^predictions and reflections \(/, 'The options chosen in predictions and reflections'],
  [/^timestamp/, 'Times of export and of each answer'],
  [/^decisions/, 'Moves and decisions'],
  [/^lab_state progress/, 'Progress through the lab'],
  [/^result_snapshot\.workbench$/, 'Workbench results'],
  [/^lab_state\.workbench\.scenario$/, 'Workbench: the model and run chosen'],
];
export function notRecomputedItems(result, { ledger = null } = {}) {
  return (result.not_recomputed || []).map((n) => {
    const known = NOT_RECOMPUTED_WORDS.find(([re]) => re.test(n.field));
    return { field: n.field, label: known ? known[1] : ruleLabel(n.field, { ledger, label: '', blank: false }) || 'Another part of the ledger', reason: n.reason };
  });
}

// ---- The verification table (checkLedger's answer → rows): differing rows first. Each value is shown
// in the lab's format (bytes in the student's units, fractions as percentages, settings in words) with
// the exact recorded value beside it (`exact`), since an edit may sit below the shown digits.
const exact = (v) => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
const BYTES_FIELD = /(_bytes|\.predicted|\.truth)$/;
const FRACTION_FIELD = /(\.mfu|\.hfu|busy_fraction|pipeline_efficiency|\.shares\.\w+|truth_mfu|predicted_mfu)$/;
const RATIO_FIELD = /(error_ratio|engine_ratio|\.ratio)$/;
const SCORE_FIELD = /(_correct|\.correct)$/;

// The engine's values in the lab's words: what binds as Act 1's banner says it, the bottleneck as Act 2's
// gauges name it (the engine's "Algorithm-bound (compute, …)" sentences), a direction as the calibration line.
const BINDING_WORDS = { none: 'nothing binds (it fits)', static: 'static memory binds', activations: 'activations bind' };
const BOTTLENECK_WORDS = { data: 'Data-bound (loading and copying input)', algorithm: 'Algorithm-bound (compute, the desired state)',
  machine: 'Machine-bound (memory)' };
const DIRECTION_WORDS = { under: 'too low', over: 'too high', exact: 'spot on', zero: 'none expected' };

export function shownValue(field, v, { units = 'gb', devices, ledger } = {}) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') {
    if (SCORE_FIELD.test(field)) return v ? 'right' : 'not right';
    if (/fits$/.test(field)) return v ? 'fits' : 'does not fit';
    return v ? 'yes' : 'no';
  }
  if (field === 'optimizer_chosen' && LABELS.optimizer[v]) return LABELS.optimizer[v];
  if (/^result_snapshot\.workbench\.peak_phase$/.test(field) && typeof v === 'string') return phaseLabel(v);
  if (field === 'precision_chosen' && LABELS.precision[v]) return LABELS.precision[v];
  if (typeof v === 'string' && /\.choice$/.test(field) && /^[a-d]$/.test(v)) return v.toUpperCase(); // the option as the page letters it
  if (typeof v === 'string') {
    const words = /binding_kind$|^binding_constraints\[\d+\]\.kind$/.test(field) ? BINDING_WORDS
      : /bottleneck_axis$/.test(field) ? BOTTLENECK_WORDS : /\.direction$/.test(field) ? DIRECTION_WORDS : null;
    return words ? words[v] || v.replace(/_/g, ' ') : v;
  }
  if (Array.isArray(v) && /predicted_range$/.test(field) && v.length === 2) return `${Math.round(v[0] * 100)}–${formatPercent(v[1])}`;
  if (typeof v === 'object') {
    if (field === 'knob_settings.act1') return settings1(v, devices);
    if (field === 'knob_settings.act2') return settings2(v, devices);
    return JSON.stringify(v);
  }
  const pred = /^predictions\[(\d+)\]\.(predicted|truth)$/.exec(field);
  const predUnit = pred && ledger && ledger.predictions[Number(pred[1])] ? ledger.predictions[Number(pred[1])].unit : null;
  if (predUnit === 'fraction') return formatPercent(v, 1);
  if (BYTES_FIELD.test(field) && (predUnit === 'bytes' || !pred) && Number.isInteger(v)) return formatBytes(v, units);
  if (pred && predUnit === null) return v >= 1000 ? formatBytes(v, units) : formatPercent(v, 1);
  if (FRACTION_FIELD.test(field)) return formatPercent(v, 1);
  if (/engine_overhead$|\.overhead$/.test(field)) return formatPercent(v, 1);
  if (RATIO_FIELD.test(field)) return formatRatio(v);
  if (/_pct$/.test(field)) return `${v.toFixed(1)}%`;
  if (/_gb$/.test(field)) return formatBytes(Math.round(v * 1e9), units); // recorded in GB (10^9 B), shown in the chosen units
  if (/seconds$/.test(field)) return `${v.toFixed(2)}\u00a0s`;
  if (/tokens_per_second$/.test(field)) return `${formatInt(v)}\u00a0tokens/s`;
  return Number.isInteger(v) ? formatInt(v) : String(Number(v.toPrecision(6)));
}
// The exact value, readable: whole numbers with separators (bytes: "37,901,118,464 B"), others as recorded.
function exactValue(field, v) {
  if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) >= 1000) return `${formatInt(v)}${BYTES_FIELD.test(field) && !/_gb$/.test(field) ? '\u00a0B' : ''}`;
  return exact(v);
}

// The check's fields, each labelled in the words above: the page's table and `labctl verify --json`
// both name rows this way, so an instructor reads the same label in either.
export function labelledFields(result, { ledger = null } = {}) {
  const blank = (f) => f.recorded === null && f.recomputed === null;
  return (result.fields || []).map((f) => ({ ...f, label: fieldLabel(f.field, f.label, { ledger, blank: blank(f) }) }));
}

export function verificationRows(result, options = {}) {
  const cell = (field, v) => {
    const text = shownValue(field, v, options);
    const x = exactValue(field, v);
    // The exact number beside a rounded one; a code word ("over", "zero") is not shown beside its words.
    return { text, exact: x, showExact: typeof v === 'number' && x !== text && x.length <= 60 };
  };
  const rows = labelledFields(result, options).map((f) => ({ key: f.field, label: f.label, field: f.field, differs: f.differs,
    recorded: cell(f.field, f.recorded), recomputed: cell(f.field, f.recomputed) }));
  return [...rows.filter((r) => r.differs), ...rows.filter((r) => !r.differs)];
}

export function verificationHeadline(result) {
  if (result.status === 'ok') return `✓ Verified: all ${result.checked} engine values in this ledger re-computed identically.`;
  // The cause is a sentence of its own ("Same engine version: …"): two colons in a row read as one list (walk 10).
  if (result.status === 'differs') return `✕ ${result.differing} of ${result.checked} engine values differ from the re-computation. ${result.cause.charAt(0).toUpperCase()}${result.cause.slice(1)}.`;
  return `✕ This file cannot be used: ${result.error.field ? `${result.error.field}: ` : ''}${result.error.message}.`;
}
