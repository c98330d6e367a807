// Every number Act 1's prose quotes, taken from engine results (pure: pass in an `evaluate` function,
// the browser's adapter or the Node engine). Fixed numbers do not depend on the knobs; current numbers
// follow the configuration on screen. `facts` holds each scenario whole (sentences.js), so a sentence
// quotes one scenario's numbers and names it; the flat fields are kept for the tests and older callers.
import { toScenario, MODEL_ID, REPLAY_DEVICE } from '../state/scenario.js';
import { scenarioFacts } from '../format/sentences.js';

function must(result) {
  if (result.error) throw new Error(`engine: ${result.error.field}: ${result.error.message}`);
  return result;
}

export function fixedNumbers(evaluate) {
  const full = (s) => must(evaluate({ model: MODEL_ID, batch_size: 1, checkpointing: 'none', ...s }));
  const ev = (s) => full(s).memory;
  const sgd = ev({ precision: 'fp32', optimizer: 'sgd' });
  const mom = ev({ precision: 'fp32', optimizer: 'momentum' });
  const adamR = full({ precision: 'fp32', optimizer: 'adam' });
  const adam = adamR.memory;
  const adamMixedR = full({ precision: 'mixed', optimizer: 'adam' });
  const adamMixed = adamMixedR.memory;
  const replayR = (s) => full({ chapter_replay: true, device: REPLAY_DEVICE, optimizer: 'adam', batch_size: 32, ...s });
  const rFp32R = replayR({ precision: 'fp32' });
  const rMixedR = replayR({ precision: 'mixed' });
  const rCkptR = replayR({ precision: 'mixed', checkpointing: { every_k_layers: 4 } });
  const rH100R = replayR({ precision: 'mixed', device: 'h100-sxm-80gb' });
  const [rFp32, rMixed, rCkpt, rH100] = [rFp32R, rMixedR, rCkptR, rH100R].map((r) => r.memory);
  const phys = (ckpt) => ev({ precision: 'mixed', optimizer: 'adam', batch_size: 32, checkpointing: ckpt });
  const wo = (m) => m.components.weights + m.components.master_weights + m.components.optimizer_state;
  const params = must(evaluate({ model: MODEL_ID })).model.parameters;
  const sgdLaptop = full({ precision: 'fp32', optimizer: 'sgd', device: 'rtx4060-laptop-8gb' });
  const adamH100 = full({ precision: 'fp32', optimizer: 'adam', device: 'h100-sxm-80gb' });
  const facts = {
    sgdFp32: scenarioFacts(full({ precision: 'fp32', optimizer: 'sgd' })),
    momFp32: scenarioFacts(full({ precision: 'fp32', optimizer: 'momentum' })),
    adamFp32: scenarioFacts(adamR),
    adamMixed: scenarioFacts(adamMixedR),
    sgdLaptop: scenarioFacts(sgdLaptop),
    adamH100: scenarioFacts(adamH100),
    replayFp32: scenarioFacts(rFp32R),
    replayMixed: scenarioFacts(rMixedR),
    replayCkpt: scenarioFacts(rCkptR),
    replayH100: scenarioFacts(rH100R),
  };
  return {
    facts,
    params,
    oneVector: mom.optimizer_vectors[0].bytes,
    adamDelta: adam.static_bytes - sgd.static_bytes,
    adamStaticFp32: adam.static_bytes,
    sgdStaticFp32: sgd.static_bytes,
    momStaticFp32: mom.static_bytes,
    weightsFp32: sgd.components.weights,
    sgdWO: wo(sgd),
    adamWO: wo(adam),
    adamStaticMixed: adamMixed.static_bytes,
    adamStateMixed: adamMixed.components.optimizer_state,
    replayFp32Total: rFp32.total_bytes,
    replayMixedTotal: rMixed.total_bytes,
    replayFp32Act: rFp32.components.activations,
    replayMixedAct: rMixed.components.activations,
    replayCkptTotal: rCkpt.total_bytes,
    replayParams: rFp32.parameters_counted,
    replayRatio: rFp32.total_bytes / rMixed.total_bytes,
    v100Bytes: rFp32.usable_device_bytes,
    h100Bytes: rH100.usable_device_bytes,
    h100MixedFits: rH100.fits,
    physAct32Mixed: phys('none').components.activations,
    physAct32Selective: phys('selective').components.activations,
  };
}

// FP32 vs mixed for the configuration on screen (the selected optimizer): steady totals, and the
// peaks (what the chart and the banner show).
export function currentNumbers(evaluate, config) {
  const fp32 = must(evaluate(toScenario(config, { precision: 'fp32' }))).memory;
  const mixed = must(evaluate(toScenario(config, { precision: 'mixed' }))).memory;
  return {
    curFp32Total: fp32.total_bytes, curMixedTotal: mixed.total_bytes, curRatio: fp32.total_bytes / mixed.total_bytes,
    curFp32Peak: fp32.peak_bytes, curMixedPeak: mixed.peak_bytes, curPeakRatio: fp32.peak_bytes / mixed.peak_bytes,
  };
}
