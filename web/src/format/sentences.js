// The sentence rule, DOM-free: a sentence that quotes numbers takes them all from one scenario and
// names it. `scenarioFacts` reads the numbers prose may quote from one engine result; `oneScenario`
// refuses to put results from different scenario families (chapter replay vs the physics model, or
// another model or activation model) in one sentence and returns the family's name for the text.
// Variants of one family (optimizer, precision, batch, checkpointing, device) may share a sentence.
// Sums go through format.js's sumText, so the terms shown add up or say "≈". Used by Act 1 and Act 2.
import { formatInt, wordList } from './format.js';

const VECTOR_WORDS = { momentum: 'momentum', adam_m: 'Adam m', adam_v: 'Adam v' };

export function scenarioFacts(result) {
  if (!result || result.error) throw new Error(`no engine result: ${result && result.error ? result.error.message : 'missing'}`);
  const m = result.memory;
  const c = m.components;
  const s = result.scenario;
  return {
    family: familyOf(result),
    replay: Boolean(s.chapter_replay),
    params: m.parameters_counted,
    weights: c.weights, master: c.master_weights, gradients: c.gradients, optimizer_state: c.optimizer_state,
    vectors: m.optimizer_vectors.map((v) => ({ name: v.name, bytes: v.bytes })),
    activations: c.activations, logits: c.logits, reserve: c.reserve,
    static: m.static_bytes, total: m.total_bytes, peak: m.peak_bytes, usable: m.usable_device_bytes,
    fits: m.fits, valid: m.numerically_valid, precision: s.precision, optimizer: s.optimizer,
    device: result.device ? result.device.name : '',
  };
}

// What must be equal for two results to share a sentence.
function familyOf(result) {
  const s = result.scenario;
  return JSON.stringify([result.model && result.model.id, s.chapter_replay, s.activation_model, s.seq_len, s.convention, s.flash_attention]);
}

// The scenario family's name, for the sentence that quotes it.
export function familyName(facts) {
  return facts.replay
    ? `the chapter’s walkthrough (Chapter replay: ${formatInt(facts.params)} parameters)`
    : `GPT-2 XL (${formatInt(facts.params)} parameters)`;
}

// Throws when the facts come from different scenario families; returns the family's name.
export function oneScenario(...facts) {
  const fam = facts[0].family;
  for (const f of facts) {
    if (f.family !== fam) throw new Error(`one sentence, two scenarios: ${fam} vs ${f.family}`);
  }
  return familyName(facts[0]);
}

// The static-memory terms present in a result, in words, for sumText.
export function staticTerms(f, { splitVectors = false } = {}) {
  const terms = [{ label: 'weights', bytes: f.weights }];
  if (f.master > 0) terms.push({ label: 'FP32 master copy', bytes: f.master });
  terms.push({ label: 'gradients', bytes: f.gradients });
  if (splitVectors) for (const v of f.vectors) terms.push({ label: VECTOR_WORDS[v.name] || v.name, bytes: v.bytes });
  else if (f.optimizer_state > 0) terms.push({ label: 'optimizer state', bytes: f.optimizer_state });
  return terms.filter((t) => t.bytes > 0);
}

// "weights, gradients and optimizer state": the static components present, in words.
export function staticWords(f) {
  const words = staticTerms(f).map((t) => t.label);
  return wordList(words);
}
