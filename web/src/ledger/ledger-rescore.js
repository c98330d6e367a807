// Re-scoring what the engine does not re-compute itself, DOM-free (checkLedger in ledger-check.js runs
// it after verify_ledger): the calibration sentence, rebuilt with the engine's values, and every
// multiple-choice score that can be re-scored from verified engine values. Each becomes a row like the
// engine's ({field, label, recorded, recomputed, differs}); what cannot be re-scored goes to
// not_recomputed with the reason.
import { DEFAULT_CONFIG2, toScenario2 } from '../state/scenario.js';
import { CKPT_QUESTION, PREDICTION as PREDICTION2 } from '../content/act2-text.js';
import { REFLECTION as REFLECTION1, PREDICTION as PREDICTION1 } from '../content/act1-text.js';
import { fixedNumbers } from '../models/act1-numbers.js';
import { nearestOption, errorRatio } from '../format/scoring.js';
import { rangeError } from '../models/act2-model.js';
import { nearestByRatio } from '../format/scoring.js';
import { scoreFixes } from '../models/act2-numbers.js';
import { savedCalibration, must, reflectionsOf } from './design-ledger.js';
import { fieldLabel } from './ledger-verify-view.js';
import { derivedRows } from './ledger-derived.js';
import { gpuCheckRows } from '../models/gpu-check-record.js';

const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Answer keys that depend only on the engine (not on the ledger), computed once per engine. `engine`
// may answer in JSON text (labctl's module) or objects (the page's adapter).
function oncePerEngine(compute) {
  const cache = new WeakMap();
  return (engine) => {
    if (!cache.has(engine)) {
      const evaluate = (s) => { const r = engine.evaluate(s); return typeof r === 'string' ? JSON.parse(r) : r; };
      cache.set(engine, compute(engine, evaluate));
    }
    return cache.get(engine);
  };
}

// The fix question's answer key: each change timed with the engine.
const fixKey = oncePerEngine((engine, evaluate) => {
  const cat = engine.catalog();
  const devices = (typeof cat === 'string' ? JSON.parse(cat) : cat).devices;
  const base = must(evaluate(toScenario2(DEFAULT_CONFIG2)), 'the chapter baseline');
  return scoreFixes(evaluate, base, devices.find((d) => d.id === DEFAULT_CONFIG2.device));
});

// The fix question's answer key for the readable summary (design-ledger.js ledgerText): each option
// with its throughput, the fastest marked best, and the baseline's; null when the engine cannot time them.
export function fixAnswerKey(engine) {
  try { return fixKey(engine); } catch { return null; }
}

// Act 1's options stand for engine numbers (act1-text.js PREDICTION: value(n)).
const act1Amounts = oncePerEngine((engine, evaluate) => {
  const n = fixedNumbers(evaluate);
  return Object.fromEntries(PREDICTION1.options.map((o) => [o.id, o.value(n)]));
});

// A prediction's letter and what the file records with it must agree: the amount (Act 1) or estimate
// and range (Act 2) the chosen option stands for, and the copy in `predictions` (walk 4: a letter
// changed alone verified). `row`/`skip` as in rescore.
function predictionRows(ledger, engine, row, skip) {
  const st = ledger.lab_state;
  const entry = (id) => ledger.predictions.findIndex((p) => p.id === id);
  const p1 = st.acts.act1.prediction;
  if (p1) {
    let amounts = null;
    if (engine && typeof engine.evaluate === 'function') { try { amounts = act1Amounts(engine); } catch { amounts = null; } }
    if (amounts) row('lab_state.acts.act1.prediction.predicted_bytes', p1.predicted_bytes, p1.choice in amounts ? amounts[p1.choice] : null);
    else skip('lab_state.acts.act1.prediction.predicted_bytes', 'the amount each option stands for comes from the engine’s evaluate, which this check was not given');
    const i = entry('act1');
    if (i >= 0) row(`predictions[${i}].choice`, ledger.predictions[i].choice, p1.choice);
  }
  const p2 = st.acts.act2 && st.acts.act2.prediction;
  if (p2) {
    const option = PREDICTION2.options.find((o) => o.id === p2.choice);
    row('lab_state.acts.act2.prediction.predicted_mfu', p2.predicted_mfu, option ? option.value : null);
    const i = entry('act2');
    if (i >= 0) {
      row(`predictions[${i}].choice`, ledger.predictions[i].choice, p2.choice);
      row(`predictions[${i}].predicted_range`, ledger.predictions[i].predicted_range, option && option.range ? [...option.range] : null);
    }
  }
}

// The lab state with each prediction's truth replaced by the engine's re-computed one, and its error
// worked out again from the lab state's own answer (the chosen amount, or the chosen option's range),
// as the acts work it out: the rebuilt calibration line then quotes the engine and agrees with itself
// whichever copy in the file was edited (walk 5: an edited predicted_range gave "40%, is 2.3×").
// A truth the engine did not re-compute keeps what the file says.
function withEngineTruths(st, verifiedFields) {
  const out = structuredClone(st);
  const engineValue = (act, key) => { const f = verifiedFields.get(`lab_state.acts.${act}.prediction.${key}`); return f ? f.recomputed : undefined; };
  const p1 = out.acts.act1.prediction;
  const t1 = p1 && engineValue('act1', 'truth_bytes');
  if (typeof t1 === 'number' && t1 > 0) {
    const e = errorRatio(p1.predicted_bytes, t1);
    Object.assign(p1, { truth_bytes: t1, error_ratio: Number.isFinite(e.ratio) ? e.ratio : null, direction: e.direction });
  }
  const p2 = out.acts.act2 && out.acts.act2.prediction;
  const t2 = p2 && engineValue('act2', 'truth_mfu');
  const option = p2 && PREDICTION2.options.find((o) => o.id === p2.choice);
  if (typeof t2 === 'number' && t2 > 0 && option && option.range) {
    const e = rangeError(option.range[0], option.range[1], t2);
    Object.assign(p2, { truth_mfu: t2, error_ratio: Number.isFinite(e.ratio) ? e.ratio : null, direction: e.direction });
  }
  return out;
}

// rescore(ledger, verified, engine) → { rows, notRecomputed }: each part below adds its rows in turn,
// in this order (labctl verify and the page show them so), through one context `c`.
export function rescore(ledger, verified, engine) {
  const c = rescoreContext(ledger, verified, engine);
  predictionRows(ledger, engine, c.row, c.skip);
  // Flags derived from the record (completion, the tuned regime, decisions): a flag set by hand differs.
  derivedRows(ledger, engine, c.row, c.skip);
  gpuCheckPredictionRows(c);
  calibrationRows(c);
  reflectionListRows(c);
  act1ReflectionRows(c);
  fixQuestionRows(c);
  ckptReflectionRows(c);
  notRecomputable(c.skip);
  return { rows: c.rows, notRecomputed: c.notRecomputed };
}

// What every part needs: the ledger, the engine, the verified fields, and `row`/`skip` to record with.
function rescoreContext(ledger, verified, engine) {
  const c = { ledger, engine, st: ledger.lab_state, rows: [], notRecomputed: [] };
  c.verifiedFields = new Map((verified.fields || []).map((f) => [f.field, f]));
  c.isVerified = (field) => { const f = c.verifiedFields.get(field); return Boolean(f) && !f.differs; };
  // Each row is labelled in the words the verification table uses (design-ledger.js fieldLabel).
  c.row = (field, recorded, recomputed) => c.rows.push({ field, label: fieldLabel(field, field, { ledger }), recorded, recomputed, differs: !sameJson(recorded, recomputed) });
  c.skip = (field, reason) => c.notRecomputed.push({ field, reason });
  c.refl = (id) => ledger.reflections.findIndex((r) => r.id === id);
  return c;
}

// "Check it on your GPU" (gpu-check-record.js): each recorded prediction, re-computed from the scenario it measured.
function gpuCheckPredictionRows({ st, engine, row, skip }) {
  if (!(st.gpu_checks && st.gpu_checks.length)) return;
  if (engine && typeof engine.evaluate === 'function') gpuCheckRows(st, (x) => { const r = engine.evaluate(x); return typeof r === 'string' ? JSON.parse(r) : r; }, row, skip);
  else skip('lab_state.gpu_checks', 'the predictions come from the engine’s evaluate, which this check was not given');
}

// Calibration: rebuilt from the lab state's predictions with the engine's own values (its truth,
// error ratio and direction as verify_ledger re-computed them), so an edited truth is flagged on its
// own row and never quoted back as "the engine says" (walk 4).
function calibrationRows({ ledger, st, verifiedFields, row }) {
  const cal = savedCalibration(withEngineTruths(st, verifiedFields));
  row('calibration.sentence', ledger.calibration.sentence, cal.sentence);
  ledger.calibration.items.forEach((it, i) => {
    const rebuilt = cal.items.find((x) => x.id === it.id);
    row(`calibration.items[${i}].phrase`, it.phrase, rebuilt ? rebuilt.phrase : null);
  });
}

// The reflections list is a copy of the saved progress (design-ledger.js reflectionsOf): rebuilt from
// it, an answer or a try edited in the list alone differs (the scores below are re-scored from the
// progress, so an answer must agree in both places to count).
function reflectionListRows({ ledger, st, row }) {
  const rebuilt = reflectionsOf(st);
  row('reflections (which questions were answered)', ledger.reflections.map((r) => r.id), rebuilt.map((r) => r.id));
  ledger.reflections.forEach((r, i) => {
    const b = rebuilt.find((x) => x.id === r.id);
    row(`reflections[${i}].answers`, r.answers, b ? b.answers : null);
    if (r.tries !== undefined || (b && b.tries !== undefined)) row(`reflections[${i}].tries`, r.tries ?? null, b ? b.tries ?? null : null);
  });
}

// Act 1 reflection (act1.js onSubmit): the ratio option nearest the engine's FP32 / mixed ratio, and the reason.
function act1ReflectionRows({ ledger, st, row, skip, isVerified, refl }) {
  const r1 = st.acts.act1.reflection;
  if (!r1) return;
  const p = 'lab_state.acts.act1.reflection';
  const reasonOk = r1.reason_choice === REFLECTION1.correctReason;
  row(`${p}.reason_correct`, r1.reason_correct, reasonOk);
  let ratioOk = null;
  if (isVerified(`${p}.engine_ratio`)) {
    const best = REFLECTION1.ratioOptions[nearestOption(REFLECTION1.ratioOptions.map((o) => o.value), r1.engine_ratio)].id;
    ratioOk = r1.ratio_choice === best;
    row(`${p}.ratio_correct`, r1.ratio_correct, ratioOk);
  } else skip(`${p}.ratio_correct`, 'scored against an engine ratio that did not verify');
  const i = refl('act1');
  if (i >= 0) {
    if (ratioOk === null) skip(`reflections[${i}].correct`, 'its ratio part could not be re-scored');
    else row(`reflections[${i}].correct`, ledger.reflections[i].correct, ratioOk && reasonOk);
  }
}

// Act 2 fix question (act2.js onSubmit, act2-numbers.js scoreFixes): needs the engine's evaluate.
function fixQuestionRows({ ledger, st, engine, row, skip, refl }) {
  const a2 = st.acts.act2;
  if (!(a2 && a2.reflection_fix)) return;
  const p = 'lab_state.acts.act2.reflection_fix.correct';
  const i = refl('act2_fix');
  let ok = null;
  if (engine && typeof engine.evaluate === 'function' && typeof engine.catalog === 'function') {
    try {
      const chosen = fixKey(engine).find((x) => x.id === a2.reflection_fix.choice);
      ok = Boolean(chosen && chosen.best);
    } catch { ok = null; }
  }
  if (ok === null) {
    skip(p, 'the fix question is scored by timing each change with the engine, which this check was not given');
    if (i >= 0) skip(`reflections[${i}].correct`, 'a copy of the fix question’s score');
  } else {
    row(p, a2.reflection_fix.correct, ok);
    if (i >= 0) row(`reflections[${i}].correct`, ledger.reflections[i].correct, ok);
  }
}

// Act 2 checkpointing reflection (act2.js onSubmit): ratio and overhead nearest by ratio to the
// engine's values (re-computed only when the record keeps its settings), and the reason.
function ckptReflectionRows({ ledger, st, row, skip, isVerified, refl }) {
  const rc = st.acts.act2 && st.acts.act2.reflection_ckpt;
  if (!rc) return;
  const p = 'lab_state.acts.act2.reflection_ckpt';
  const reasonOk = rc.reason_choice === CKPT_QUESTION.correctReason;
  row(`${p}.reason_correct`, rc.reason_correct, reasonOk);
  let ratioOk = null;
  let overheadOk = null;
  if (isVerified(`${p}.engine_ratio`) && isVerified(`${p}.engine_overhead`)) {
    const ri = nearestByRatio(CKPT_QUESTION.ratioOptions.map((o) => o.value), rc.engine_ratio);
    const oi = nearestByRatio(CKPT_QUESTION.overheadOptions.map((o) => Math.max(o.value, 0.01)), rc.engine_overhead);
    ratioOk = rc.ratio_choice === CKPT_QUESTION.ratioOptions[ri].id;
    overheadOk = rc.overhead_choice === CKPT_QUESTION.overheadOptions[oi].id;
    row(`${p}.ratio_correct`, rc.ratio_correct, ratioOk);
    row(`${p}.overhead_correct`, rc.overhead_correct, overheadOk);
  } else {
    skip(`${p}.ratio_correct`, 'scored against engine values this record cannot re-compute (its Act 2 settings were not kept)');
    skip(`${p}.overhead_correct`, 'scored against engine values this record cannot re-compute (its Act 2 settings were not kept)');
  }
  const i = refl('act2_ckpt');
  if (i >= 0) {
    if (ratioOk === null) skip(`reflections[${i}].correct`, 'a copy of the checkpointing reflection’s score, which could not be re-scored in full');
    else row(`reflections[${i}].correct`, ledger.reflections[i].correct, ratioOk && overheadOk && reasonOk);
  }
}

// What nobody can re-compute: the student's own choices and clock, and progress flags.
function notRecomputable(skip) {
  skip('predictions and reflections (the options chosen)', 'the student’s own choices, with nothing to re-compute; they are scored, and checked against what the file records with them (above)');
  skip('timestamp, answered_at', 'the student’s clock');
  skip('decisions, laptop move names', 'their wording: a record of what the student did; which decisions were made is rebuilt from the saved progress, and the engine values each move led to are re-computed');
  skip('lab_state progress (explored, revealed, attempts, current act, units)', 'where the student is in the lab, with nothing to re-compute (each act’s completion is derived from the record, above)');
}
