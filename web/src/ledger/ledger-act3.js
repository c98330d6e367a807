// Act 3 on the design-ledger page (DOM-free): its prediction as a calibration item and its two
// reflections, read from the lab state the page already has (lab_state.acts.act3, whose result is
// result_snapshot.act3). Display only: the saved ledger's predictions, reflections and calibration
// stay as they are (design-ledger.js), so no ledger's format or check changes. Loaded with the
// ledger panel, never in the first load.
import { formatInt, formatRatio } from '../format/format.js';
import { gpuWords, DP_QUESTION, CEILING_QUESTION } from '../content/act3-text.js';
import { calibrationSummary, calibrationSentence } from './design-ledger.js';

export const QUANTITY3 = 'Act 3: GPUs needed to train fully sharded GPT-2 XL on 8 GB laptop GPUs';
const QUESTIONS = [['reflection_dp', DP_QUESTION], ['reflection_ceiling', CEILING_QUESTION]];

// The engine's count: the recorded result's (what a ledger's check re-computes), else the one stored
// with the prediction when it was locked.
function truthOf(a) {
  if (a.result && a.result.prediction && a.result.devices_needed !== undefined) return a.result.devices_needed;
  return a.prediction.truth_devices;
}

// As the act's reveal says it (act3-text.js revealLines): "off by 2.0× (too few)".
function howFar3(p) {
  if (p.direction === 'exact') return 'spot on';
  return `off by ${formatRatio(p.error_ratio)} (${p.direction === 'under' ? 'too few' : 'too many'})`;
}

// The calibration item, shaped as calibrationSummary's (design-ledger.js); null before a prediction.
// holdUnseen: the student's own page, where the answer waits for Act 3's Reveal.
export function act3Calibration(state, { holdUnseen = false } = {}) {
  const a = state.acts.act3;
  if (!a || !a.prediction) return null;
  const p = a.prediction;
  const you = `you chose ${gpuWords(p.devices)}`;
  if (holdUnseen && !a.revealed) {
    return { id: 'act3', act: 3, held: true, quantity: QUANTITY3, predicted: p.devices, unit: 'GPUs',
      phrase: `${QUANTITY3}: ${you}; the engine’s answer shows here after the Reveal in Act 3.` };
  }
  const truth = truthOf(a);
  const item = { id: 'act3', act: 3, quantity: QUANTITY3, predicted: p.devices, truth, unit: 'GPUs', error_ratio: p.error_ratio, direction: p.direction };
  if (truth === null || p.direction === 'none') {
    // The solver found no count up to its limit: there is no ratio to give (and none in the sentence).
    return { ...item, direction: 'none', phrase: `${QUANTITY3}: ${you}; the engine’s solver found no count up to ${formatInt(1024)} GPUs that trains.` };
  }
  return { ...item, phrase: `${QUANTITY3}: ${you}, the engine’s solver needs ${gpuWords(truth)}: ${howFar3(p)}.` };
}

// Act 3's answered questions: the question, the option chosen, and whether it was right. The first
// answer is the one scored (scoring.js withTry keeps it on the record), as in the other acts.
export function act3Reflections(state) {
  const a = state.acts.act3;
  if (!a) return [];
  return QUESTIONS.filter(([field]) => a[field]).map(([field, q]) => {
    const r = a[field];
    const option = q.options.find((o) => o.id === r.choice);
    const tries = r.tries ? r.tries.length : r.attempts || 1;
    return { id: field === 'reflection_dp' ? 'act3_dp' : 'act3_ceiling', act: 3, prompt: q.prompt, choice: r.choice,
      chosen: option ? option.label : r.choice, correct: Boolean(r.correct), tries, attempts: tries,
      phrase: `${q.prompt} You chose “${option ? option.label : r.choice}”: ${r.correct ? 'right' : 'not right'}${tries > 1 ? ` (the first of ${formatInt(tries)} answers, the one scored)` : ''}.` };
  });
}

// The page's calibration: the saved ledger's items (calibrationSummary) and Act 3's, in one sentence.
// An Act 3 count the solver could not find has no ratio, so it is listed but not in the sentence.
export function displayCalibration(state, units = 'gb', opts = {}) {
  const cal = calibrationSummary(state, units, opts);
  const a3 = act3Calibration(state, opts);
  if (!a3) return cal;
  const items = [...cal.items, a3];
  const rated = items.filter((it) => it.direction !== 'none');
  return { items, sentence: rated.length ? calibrationSentence(rated) : '' };
}
