// The design ledger (the lab's output), DOM-free: buildDesignLedger(state, engine) is the one builder that
// export, verify and the embedding's postMessage share; plus the calibration summary and the readable
// text. Reading a ledger back and checking it (checkLedger) are in ledger-check.js, the verification
// table's rows and words in ledger-verify-view.js; the re-computation itself is the engine's verify_ledger
// (core/facade/facade_ledger.cpp). The page parts live in acts/ledger-panel.js.
import ledgerSchemaRaw from '../state/schema/design-ledger.schema.json' with { type: 'json' };
import labStateSchema from '../state/schema/lab-state.schema.json' with { type: 'json' };
import { validate } from '../state/schema/validate.js';
import { LAB_ID } from '../state/store.js';
import { toScenario, toScenario2, LABELS, LAPTOP_DEVICE, MODEL_ID, CHAPTER_TUNED2 } from '../state/scenario.js';
import { formatBytes, formatBytesApprox, formatPercent, formatRatio, formatCount, formatInt, formatNumber2, plainText, wordList } from '../format/format.js';
import { PREDICTION as PREDICTION2 } from '../content/act2-text.js';
import { REGIME } from '../models/act2-model.js';
import { measureRunsText } from '../models/measure-record.js';
import { workbenchRecord, workbenchText } from '../models/workbench-view.js';

export const LEDGER_SCHEMA_VERSION = 2;
export const LEDGER_MAX_BYTES = 1 << 20; // as core/facade/facade_ledger.hpp kLedgerMaxBytes
export const CHAPTER = 8;

// JSON Schema $refs to lab-state.schema.json (with an optional #/json/pointer) replaced by the target,
// because validate.js (CSP-safe, no code generation) does not follow references.
export function resolveRefs(schema, docs = { 'lab-state.schema.json': labStateSchema }) {
  if (Array.isArray(schema)) return schema.map((s) => resolveRefs(s, docs));
  if (!schema || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string') {
    const [file, pointer = ''] = schema.$ref.split('#');
    let target = docs[file];
    if (!target) throw new Error(`unresolved schema reference ${schema.$ref}`);
    for (const part of pointer.split('/').filter(Boolean)) target = target[part];
    return resolveRefs(target, docs);
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, resolveRefs(v, docs)]));
}
export const LEDGER_SCHEMA = resolveRefs(ledgerSchemaRaw);

export function validateLedger(ledger) {
  return validate(LEDGER_SCHEMA, ledger);
}

// Engine results used in the ledger: the keys verify_ledger re-computes (core/facade/facade_ledger_checks.cpp).
function memorySnapshot(r) {
  const m = r.memory;
  return { peak_bytes: m.peak_bytes, total_bytes: m.total_bytes, static_bytes: m.static_bytes,
    usable_device_bytes: m.usable_device_bytes, fits: m.fits, binding_kind: m.binding.kind };
}
function pipelineSnapshot(r) {
  const p = r.pipeline;
  return { step_seconds: p.step_seconds, busy_fraction: p.busy_fraction, pipeline_efficiency: p.pipeline_efficiency,
    mfu: p.mfu, hfu: p.hfu, tokens_per_second: p.tokens_per_second, bottleneck_axis: p.bottleneck.axis,
    peak_bytes: r.memory.peak_bytes, fits: r.memory.fits };
}
export function must(result, what) {
  if (!result || result.error) throw new Error(`engine (${what}): ${result ? `${result.error.field}: ${result.error.message}` : 'no answer'}`);
  return result;
}

export const QUANTITIES = {
  act1: 'Act 1: extra memory Adam needs over SGD (GPT-2 XL, FP32)',
  act2: 'Act 2: MFU of a well-configured GPT-2 XL training loop',
};
const PROMPTS = {
  act1: 'Mixed precision reduces total training memory by about ___× because ___',
  act2_fix: 'The most effective single fix for the chapter’s baseline loop',
  act2_ckpt: 'Checkpointing every k layers reduces activations by ___× at ___% extra compute because ___',
  // Since issue 23 the question names one scenario, the chapter's tuned step (CHAPTER_TUNED2).
  act2_ckpt_chapter: 'In the chapter’s tuned step, checkpointing every 4 layers reduces activations by ___× at ___% extra compute because ___',
};

function predictionsOf(state) {
  const out = [];
  const p1 = state.acts.act1.prediction;
  if (p1) out.push({ id: 'act1', act: 1, quantity: QUANTITIES.act1, choice: p1.choice, predicted: p1.predicted_bytes, predicted_range: null,
    truth: p1.truth_bytes, unit: 'bytes', error_ratio: p1.error_ratio, direction: p1.direction, answered_at: p1.answered_at });
  const p2 = state.acts.act2 && state.acts.act2.prediction;
  const option2 = p2 && PREDICTION2.options.find((o) => o.id === p2.choice);
  if (p2) out.push({ id: 'act2', act: 2, quantity: QUANTITIES.act2, choice: p2.choice, predicted: p2.predicted_mfu,
    predicted_range: option2 && option2.range ? [...option2.range] : null, truth: p2.truth_mfu, unit: 'fraction', error_ratio: p2.error_ratio, direction: p2.direction, answered_at: p2.answered_at });
  return out;
}

// Every try of a reflection, in order (the answering rule, scoring.js withTry: the first is the
// one scored); answersOf(try) → the try's choices; correctOf(try) → right or not. Left out for
// records made before tries were kept.
function triesOf(record, answersOf, correctOf) {
  return record.tries ? { tries: record.tries.map((t) => ({ answers: answersOf(t), correct: correctOf(t), answered_at: t.answered_at })) } : {};
}

export function reflectionsOf(state) {
  const out = [];
  const r1 = state.acts.act1.reflection;
  const a1 = (r) => ({ ratio_choice: r.ratio_choice, reason_choice: r.reason_choice });
  if (r1) out.push({ id: 'act1', act: 1, prompt: PROMPTS.act1, answers: a1(r1),
    correct: r1.ratio_correct && r1.reason_correct, engine_values: { ratio: r1.engine_ratio }, answered_at: r1.answered_at,
    ...triesOf(r1, a1, (t) => t.ratio_correct && t.reason_correct) });
  const a2 = state.acts.act2;
  const rf = a2 && a2.reflection_fix;
  if (rf) out.push({ id: 'act2_fix', act: 2, prompt: PROMPTS.act2_fix, answers: { choice: rf.choice },
    correct: rf.correct, engine_values: null, answered_at: rf.answered_at, ...triesOf(rf, (t) => ({ choice: t.choice }), (t) => t.correct) });
  const rc = a2 && a2.reflection_ckpt;
  const ac = (r) => ({ ratio_choice: r.ratio_choice, overhead_choice: r.overhead_choice, reason_choice: r.reason_choice });
  const okc = (r) => r.ratio_correct && r.overhead_correct && r.reason_correct;
  const chapterStep = rc && rc.scenario && JSON.stringify(rc.scenario) === JSON.stringify(CHAPTER_TUNED2);
  if (rc) out.push({ id: 'act2_ckpt', act: 2, prompt: chapterStep ? PROMPTS.act2_ckpt_chapter : PROMPTS.act2_ckpt, answers: ac(rc), correct: okc(rc),
    engine_values: { ratio: rc.engine_ratio, overhead: rc.engine_overhead }, answered_at: rc.answered_at, ...triesOf(rc, ac, okc) });
  return out;
}

export function decisionsOf(state) {
  const a2 = state.acts.act2;
  if (!a2) return [];
  const out = [];
  if (a2.design.regime_reached) out.push({ id: 'regime_reached', kind: 'regime_reached', description: `reached the chapter’s optimized regime (${REGIME_WORDS})`, config: null });
  // The goal the best was recorded under: the fastest step (issue 23), or before it the highest MFU.
  if (a2.design.best) out.push({ id: 'design_best', kind: 'design_best', config: a2.design.best.config,
    description: typeof a2.design.best.tokens_per_second === 'number' ? 'the fastest configuration of the design challenge' : 'the best-MFU configuration of the design challenge' });
  a2.laptop.moves.forEach((m, i) => out.push({ id: `laptop_move_${i + 1}`, kind: 'laptop_move', description: m.move, config: m.config }));
  if (a2.laptop.finished) out.push({ id: 'laptop_finished', kind: 'laptop_finished', description: a2.laptop.fit_achieved ? 'fitted training in 8 GB' : 'reached the laptop’s physical limit', config: null });
  return out;
}

const laptopStarted = (a2) => Boolean(a2) && (a2.laptop.moves.length > 0 || a2.laptop.floor_bytes !== null);

// The ledger for a lab state (store.js shape, version 2). `engine`: { evaluate(scenario) → result,
// solve(request) → result, version() } with results as objects (ledgerEngine() adapts engine.js).
export function buildDesignLedger(state, engine, { now = new Date() } = {}) {
  const r1 = must(engine.evaluate(toScenario(state.config)), 'Act 1 settings');
  const r2 = must(engine.evaluate(toScenario2(state.config2)), 'Act 2 settings');
  const a2 = state.acts.act2;
  const best = a2.design.best;
  const chosen = best ? best.config : state.config2;
  // A part the student never opened has no choice in it: its plan fields are null (issue 24), not
  // the starting settings. "Opened": the act's prediction is locked in (as ledgerText words it).
  const act2Started = Boolean(best || a2.prediction);
  let laptop = null;
  if (laptopStarted(a2)) {
    const floor = must(engine.solve({ model: MODEL_ID, device: LAPTOP_DEVICE }), 'laptop floor').floor;
    laptop = { floor_peak_bytes: floor.peak_bytes, static_floor_bytes: floor.static_floor_bytes, floor_text: floor.text };
  }
  const binding = (id, scenario, r) => ({ id, scenario, kind: r.memory.binding.kind, message: r.memory.binding.message,
    headroom_bytes: r.memory.binding.headroom_bytes });
  return {
    ledger_schema_version: LEDGER_SCHEMA_VERSION,
    lab_id: LAB_ID,
    engine_version: engine.version(),
    timestamp: now.toISOString(),
    chapter: CHAPTER,
    optimizer_chosen: state.acts.act1.prediction ? state.config.optimizer : null,
    precision_chosen: act2Started ? chosen.precision : null,
    gradient_checkpointing: act2Started ? chosen.checkpointing !== 'none' : null,
    final_mfu_pct: best ? best.mfu * 100 : null,
    // The design challenge's goal, the fastest step (issue 23), with the peaks the two are measured
    // against; left out for a best recorded before throughput was the goal.
    ...(best && typeof best.tokens_per_second === 'number' ? { final_tokens_per_second: best.tokens_per_second,
      final_peak_tokens_per_second: best.peak_tokens_per_second, final_mfu_peak_flops_per_s: best.peak_flops_per_s } : {}),
    baseline_mfu_estimate_pct: a2.prediction ? a2.prediction.predicted_mfu * 100 : null,
    laptop_fit_achieved: a2.laptop.fit_achieved,
    laptop_minimum_memory_gb: laptop ? laptop.floor_peak_bytes / 1e9 : null,
    laptop_floor_derivation: laptop ? laptop.floor_text : null,
    predictions: predictionsOf(state),
    knob_settings: { act1: state.config, act2: state.config2, ...(state.config3 ? { act3: state.config3 } : {}) },
    binding_constraints: [binding('act1', 'Act 1 settings (training memory ledger)', r1), binding('act2', 'Act 2 settings (pipeline)', r2)],
    decisions: decisionsOf(state),
    reflections: reflectionsOf(state),
    result_snapshot: { act1: memorySnapshot(r1), act2: pipelineSnapshot(r2), laptop,
      // The workbench's results for its scenario (issue 25): only in a lab state that has the workbench.
      ...(state.workbench ? { workbench: workbenchRecord(state.workbench.scenario, engine) } : {}),
      // Act 3's record (issue 28): computed by the act with the multi-device engine after its reveal.
      ...(state.acts.act3 && state.acts.act3.result ? { act3: structuredClone(state.acts.act3.result) } : {}) },
    calibration: savedCalibration(state),
    lab_state: structuredClone(state),
  };
}

// engine.js's adapter → the engine interface this module uses. verify_ledger is in a module of its own
// (engine.ledgerVerifier(), loaded on demand): pass its verifyLedger when a ledger is to be checked.
export function ledgerEngine(engine, verifyLedger = null) {
  return {
    evaluate: (s) => engine.evaluate(s),
    solve: (r) => engine.call('solve', r),
    verifyLedger: verifyLedger || (() => ({ status: 'invalid', error: { field: null, message: 'the ledger check is not loaded' } })),
    catalog: () => engine.catalog(),
    version: () => engine.version(),
  };
}

// ---- Calibration: every prediction, how far off and which way, and one sentence over all of them.
const NOUN = { act1: 'memory', act2: 'MFU', act3: 'the GPUs needed' }; // act3: the ledger page only (ledger-act3.js)
function shown(value, unit, units) {
  return unit === 'bytes' ? formatBytes(value, units) : formatPercent(value, 1);
}

// The answer as the student chose it: Act 2's range, or Act 1's rounded option with the amount it stands
// for (the error ratio is computed from that amount, so it is shown too).
function answerText(p, units) {
  if (p.predicted_range) return `${Math.round(p.predicted_range[0] * 100)}–${formatPercent(p.predicted_range[1])}`;
  if (p.unit === 'bytes' && p.predicted > 0) return `about ${formatBytesApprox(p.predicted, units)} (${shown(p.predicted, p.unit, units)})`;
  return shown(p.predicted, p.unit, units);
}
// A range is scored from its nearer end: say so, with that end, so the ratio can be checked by hand.
function howFar(p) {
  if (p.direction === 'exact') return p.predicted_range ? 'inside your range: spot on' : 'spot on';
  if (p.direction === 'zero') return 'you expected none at all';
  const way = p.direction === 'under' ? 'too low' : 'too high';
  if (!p.predicted_range) return `${formatRatio(p.error_ratio)} ${way}`;
  const end = p.direction === 'under' ? p.predicted_range[1] : p.predicted_range[0];
  return `the nearer end, ${formatPercent(end)}, is ${formatRatio(p.error_ratio)} ${way}`;
}

// As a saved ledger holds it: plain spaces, as every ledger has been written (the screen's no-break
// spaces stay on screen), so a ledger re-computes byte for byte whichever version wrote it.
export function savedCalibration(state) {
  const cal = calibrationSummary(state);
  return { items: cal.items.map((it) => ({ ...it, phrase: plainText(it.phrase) })), sentence: plainText(cal.sentence) };
}

// holdUnseen: the student's own page, where a prediction's answer waits for its act's Reveal, and
// (in ledgerText) an act's results for its prediction, as the acts themselves show them. The saved
// ledger and an imported one show everything: they are the record an instructor reads.
export function calibrationSummary(state, units = 'gb', { holdUnseen = false } = {}) {
  const items = predictionsOf(state).map((p) => {
    if (holdUnseen && !state.acts[p.id].revealed) {
      return { id: p.id, act: p.act, held: true, quantity: p.quantity, predicted: p.predicted, unit: p.unit,
        phrase: `${p.quantity}: you chose ${answerText(p, units)}; the engine’s answer shows here after the Reveal in Act ${p.act}.` };
    }
    const said = `you chose ${answerText(p, units)}, the engine says ${shown(p.truth, p.unit, units)}`;
    // The keys and their order are those every saved ledger's calibration items have (savedCalibration).
    return { id: p.id, quantity: p.quantity, predicted: p.predicted, truth: p.truth, unit: p.unit,
      error_ratio: p.error_ratio, direction: p.direction, phrase: `${p.quantity}: ${said} (${howFar(p)}).` };
  });
  return { items, sentence: calibrationSentence(items) };
}

export function calibrationSentence(allItems) {
  if (!allItems.length) return 'No predictions recorded yet.';
  const held = allItems.filter((it) => it.held);
  const items = allItems.filter((it) => !it.held);
  const waiting = held.length === 1 ? `Your Act ${held[0].act} prediction waits for Act ${held[0].act}’s Reveal.`
    : `Your ${wordList(held.map((it) => `Act ${it.act}`))} predictions wait for each act’s Reveal.`;
  if (!items.length) return waiting;
  if (held.length) return `${calibrationSentence(items)} ${waiting}`;
  const clause = (it) => {
    const noun = NOUN[it.id];
    switch (it.direction) {
      case 'zero': return `expected no extra ${noun} at all`;
      case 'under': return `under-estimated ${noun} by about ${formatRatio(it.error_ratio)}`;
      default: return `over-estimated ${noun} by about ${formatRatio(it.error_ratio)}`;
    }
  };
  // Every prediction that was spot on shares one clause ("were spot on about memory and MFU").
  const exact = items.filter((it) => it.direction === 'exact').map((it) => NOUN[it.id]);
  const parts = [...(exact.length ? [`were spot on about ${exact.join(' and ')}`] : []),
    ...items.filter((it) => it.direction !== 'exact').map(clause)];
  return `You ${wordList(parts)}.`;
}

// ---- The readable summary a student pastes into a report (plain text, one fact a line).
const yesNo = (b) => (b ? 'yes' : 'no');
const deviceName = (id, devices) => (devices && devices[id]) || id;
export function settings1(c, devices) {
  const ck = c.checkpointing === 'every_k' ? `checkpointing every ${formatCount(c.every_k, 'layer')}` : c.checkpointing === 'none' ? 'no checkpointing' : LABELS.checkpointing[c.checkpointing].toLowerCase();
  const device = c.replay ? 'the chapter’s replay (V100 32 GB)' : c.device === 'custom' ? `a custom ${c.custom_capacity_gb} GB device` : deviceName(c.device, devices);
  return `${LABELS.optimizer[c.optimizer]}, ${LABELS.precision[c.precision]}, batch ${c.batch_size}, ${ck}, on ${device}`;
}
const REGIME_WORDS = `data loading ≤ ${REGIME.max_data_share * 100}%, compute ≥ ${REGIME.min_compute_share * 100}%`;
// Whether the tuned regime was reached, or why the lab did not ask for it (act2.design.not_asked).
const NOT_ASKED_WORDS = {
  every_setting_fixed: 'not asked in this lab, where every setting of the step was fixed',
  out_of_reach: 'not asked in this lab, where the settings that were fixed kept it out of reach',
  calibration_fixed_off: 'not asked in this lab, where the chapter calibration, which the challenge counts with, was fixed off',
};
const regimeWords = (d) => (d.regime_reached ? 'reached' : NOT_ASKED_WORDS[d.not_asked] || 'not reached yet');

export function settings2(c, devices) {
  const ck = c.checkpointing === 'every_k' ? `checkpointing every ${formatCount(c.every_k, 'layer')}` : c.checkpointing === 'none' ? 'no checkpointing' : LABELS.checkpointing[c.checkpointing].toLowerCase();
  return `${LABELS.precision[c.precision]}, batch ${c.batch_size}, ${ck}, on ${deviceName(c.device, devices)}, ${formatCount(c.data_workers, 'data worker')}, prefetch ${c.prefetch ? `on (depth ${c.prefetch_depth})` : 'off'}, pinned memory ${c.pinned_memory ? 'on' : 'off'}${c.replay ? ', the chapter’s calibration' : ''}`;
}
// { id: name } from the engine's catalog (an object or its JSON text); null without one.
export function deviceNames(catalog) {
  const cat = typeof catalog === 'string' ? JSON.parse(catalog) : catalog;
  return cat && cat.devices ? Object.fromEntries(cat.devices.map((d) => [d.id, d.name])) : null;
}
// "23 November 2026, 19:00 UTC": the export's clock, readable (it is the student's clock).
export function readableDate(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const two = (n) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

// The laptop challenge's moves as the Act 2 page numbers them: the page records the chapter's baseline
// settings first ("start: …"), which is no move; the moves after it are 1, 2, … ("5 moves so far").
const isStartMove = (m) => Boolean(m) && typeof m.move === 'string' && /^start\b/.test(m.move);
// { count, numbers }: how many moves the page counts, and each entry's number (0 for the start).
export function laptopMoveNumbers(moves) {
  const start = isStartMove(moves[0]);
  return { count: start ? moves.length - 1 : moves.length, numbers: moves.map((m, i) => (start ? i : i + 1)) };
}
const STATE_OF_MOVE = (m) => (m.fits ? (m.trainable ? 'fits and trains' : 'fits, but cannot train (updates stall)') : 'does not fit');

// `devices`: { id: name } from the engine's catalog (deviceNames), so devices read as the lab names them.
// Every amount is in `units`: the prediction lines are rebuilt from the lab state in those units (as the
// panel shows them; the saved ledger keeps its GB lines), the laptop floor comes from the engine's bytes.
// The fix question's line: the change chosen and the fastest, with the engine's throughputs.
function fixWords(key, choice) {
  const chosen = key.find((f) => f.id === choice);
  const best = key.find((f) => f.best);
  if (!chosen || !best) return '';
  const rate = (t) => `${formatInt(t)} tokens/s`;
  const mine = `you chose “${chosen.label}”, ${rate(chosen.tokens)}`;
  return chosen.best ? `${mine}, the fastest; the baseline makes ${rate(key.baseline)}`
    : `${mine}; the fastest is “${best.label}”, ${rate(best.tokens)}; the baseline makes ${rate(key.baseline)}`;
}

// fixKey: the fix question's options timed by the engine (ledger-rescore.js fixAnswerKey), so its line
// says what was chosen and which change is fastest, as the other reflections give the engine's values.
// act3: the ledger page's Act 3 lines (ledger-act3.js: { item, reflections }), which the file's lists lack.
export function ledgerText(ledger, units = 'gb', { devices = null, holdUnseen = false, fixKey = null, act3 = null } = {}) {
  const s = ledger.result_snapshot;
  const st = ledger.lab_state;
  const cal = calibrationSummary(st, units, { holdUnseen });
  const lines = [`Lab 08 (Model Training): design ledger, exported ${readableDate(ledger.timestamp)} (engine ${ledger.engine_version})`, '', 'Predictions'];
  const items = [...cal.items, ...(act3 && act3.item ? [act3.item] : [])];
  if (!items.length) lines.push('- none yet');
  for (const it of items) lines.push(`- ${it.phrase}`);
  lines.push(`Calibration: ${cal.sentence}`, '');
  const unseen = (act) => holdUnseen && !(st.acts[`act${act}`] && st.acts[`act${act}`].prediction);
  const heldResults = (act) => ` Its results show here once you lock in Act ${act}’s prediction.`;
  lines.push(`Act 1 settings: ${settings1(st.config, devices)}.${unseen(1) ? heldResults(1) : ` Peak ${formatBytes(s.act1.peak_bytes, units)} of ${formatBytes(s.act1.usable_device_bytes, units)}: ${s.act1.fits ? 'fits' : 'does not fit'}.`}`);
  if (s.act2) lines.push(`Act 2 settings: ${settings2(st.config2, devices)}.${unseen(2) ? heldResults(2) : ` MFU ${formatPercent(s.act2.mfu, 1)}, GPU busy ${formatPercent(s.act2.busy_fraction, 1)}, pipeline efficiency ${formatPercent(s.act2.pipeline_efficiency, 1)}.`}`);
  const best = st.acts.act2 && st.acts.act2.design.best;
  if (st.acts.act2) lines.push(`Tuned regime (${REGIME_WORDS}): ${regimeWords(st.acts.act2.design)}.`);
  lines.push(best
    ? `Design challenge: ${typeof best.tokens_per_second === 'number' ? `fastest step ${formatInt(best.tokens_per_second)} tokens/s at MFU ${formatPercent(best.mfu, 1)} of a ${formatNumber2(best.peak_flops_per_s / 1e12)} TFLOP/s peak` : `best MFU ${formatPercent(best.mfu, 1)}`} (GPU busy ${formatPercent(best.busy_fraction, 1)}; data loading ${formatPercent(best.shares.data_loading, 1)}, transfers ${formatPercent(best.shares.transfers, 1)}, compute ${formatPercent(best.shares.compute, 1)} of the step) with ${settings2(best.config, devices)}.`
    : 'Design challenge: no result yet.');
  if (s.laptop) {
    const moves = st.acts.act2.laptop.moves;
    const { count, numbers } = laptopMoveNumbers(moves);
    lines.push(`Laptop challenge (8 GB): ${formatCount(count, 'move')}, fit achieved: ${yesNo(ledger.laptop_fit_achieved)}.`);
    moves.forEach((m, i) => {
      const what = numbers[i] === 0 ? `Start (${m.move.replace(/^start\b:?\s*/, '') || 'the chapter’s baseline settings'})` : `${numbers[i]}. ${m.move}`;
      lines.push(`  ${what}: peak ${formatBytes(m.peak_bytes, units)}, ${STATE_OF_MOVE(m)}`);
    });
    lines.push(`  The least memory that can train GPT-2 XL at all is ${formatBytes(s.laptop.floor_peak_bytes, units)}; ${formatBytes(s.laptop.static_floor_bytes, units)} of it is weights, gradients and optimizer state, which no setting that still trains can shrink. ${ledger.laptop_fit_achieved ? 'It fits in the laptop’s memory.' : 'That is more than the laptop has: training it there needs sharding or offloading, the subject of distributed training.'}`);
  } else {
    lines.push('Laptop challenge: not started.');
  }
  if (s.act3) lines.push(act3Text(s.act3));
  const measured = measureRunsText(st.measure_runs, units); // only once a run is recorded
  if (measured) lines.push(measured);
  if (s.workbench !== undefined) lines.push(workbenchText(s.workbench, st.workbench ? st.workbench.scenario : null, units));
  lines.push('', 'Reflections');
  const refl3 = act3 ? act3.reflections : [];
  if (!ledger.reflections.length && !refl3.length) lines.push('- none yet');
  for (const r of ledger.reflections) {
    const ev = r.engine_values;
    const values = ev && ev.ratio !== undefined ? `the engine gives ${formatRatio(ev.ratio)}${ev.overhead !== undefined ? ` at ${formatPercent(ev.overhead, 0)} extra compute` : ''}`
      : r.id === 'act2_fix' && fixKey ? fixWords(fixKey, r.answers.choice) : '';
    // Every question may be answered again and the first answer is scored: say so when there were more.
    const tries = r.tries ? r.tries.length : r.id === 'act1' && st.acts.act1.reflection ? st.acts.act1.reflection.attempts : 1;
    const notes = [...(tries > 1 ? [`the first of ${tries} answers, the one scored`] : []), ...(values ? [values] : [])];
    lines.push(`- ${r.prompt}: ${r.correct ? 'right' : 'not right'}${notes.length ? ` (${notes.join('; ')})` : ''}`);
  }
  for (const r of refl3) lines.push(`- ${r.phrase}`);
  // The ledger's summary of the student's choices, in words: percentages as the lab writes them, the
  // laptop floor in the chosen units (the ledger records it in GB as laptop_minimum_memory_gb).
  const pct = (v) => (v === null ? 'none yet' : formatPercent(v / 100, 1));
  const p2 = ledger.predictions.find((p) => p.id === 'act2');
  // The recorded estimate is one number inside the range the student chose: show the range.
  const estimate = p2 && p2.predicted_range
    ? `${Math.round(p2.predicted_range[0] * 100)}–${formatPercent(p2.predicted_range[1])} (recorded as ${pct(ledger.baseline_mfu_estimate_pct)}, the range’s geometric middle)` : pct(ledger.baseline_mfu_estimate_pct);
  const from = best ? 'your best design' : st.acts.act2 && st.acts.act2.prediction ? 'your current Act 2 settings' : 'Act 2’s starting settings: Act 2 not started';
  // Walk 10: 'chapter 8' was unexplained, and a default read as the student's choice.
  const act1From = st.acts.act1.prediction ? 'Act 1' : 'Act 1’s starting setting: Act 1 not started';
  // A null plan field (a part not started, issue 24) reads as such; older ledgers recorded the start.
  const act1Choice = ledger.optimizer_chosen === null ? 'no optimizer chosen yet (Act 1 not started)'
    : `optimizer ${LABELS.optimizer[ledger.optimizer_chosen] || ledger.optimizer_chosen} (${act1From})`;
  const act2Choice = ledger.precision_chosen === null ? 'no precision or activation checkpointing chosen yet (Act 2 not started)'
    : `precision ${LABELS.precision[ledger.precision_chosen] || ledger.precision_chosen} and activation checkpointing ${ledger.gradient_checkpointing ? 'on' : 'off'} (${from})`;
  lines.push('', `Your choices (Model Training, chapter ${ledger.chapter}): ${act1Choice}; ${act2Choice}; `
    + `${typeof ledger.final_tokens_per_second === 'number' ? `fastest step in the design challenge ${formatInt(ledger.final_tokens_per_second)} tokens/s at MFU ${pct(ledger.final_mfu_pct)}` : `best MFU in the design challenge ${pct(ledger.final_mfu_pct)}`}; your MFU estimate ${estimate}; `
    + `least memory that can train GPT-2 XL (the laptop floor) ${s.laptop ? formatBytes(s.laptop.floor_peak_bytes, units) : 'not found yet'}.`);
  return plainText(lines.join('\n')); // a report's plain text: no no-break spaces
}

// Act 3's line in the readable summary: the prediction against the solver, and the step's price by wire.
function act3Text(r) {
  const steps = Object.entries(r.step_s_by_interconnect).map(([id, v]) => `${id} ${v === null ? '—' : `${formatNumber2(v)} s`}`).join(', ');
  return `Act 3 (GPUs for fully sharded GPT-2 XL on 8 GB laptop GPUs): you said ${r.prediction ? formatInt(r.prediction.devices) : '—'}, the solver needs ${r.devices_needed === null ? 'more than 1,024' : formatInt(r.devices_needed)}. Step time of your Act 3 settings by interconnect: ${steps}.`;
}
