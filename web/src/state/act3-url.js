// Act 3's URL knobs (issue 28): parse and serialize, loaded with Act 3 rather than in the first load
// (url-state.js holds the shared rules and calls these once useAct3Url has set this module), and the
// store's helper for Act 3's configuration. Tested in tests/web/unit/act3-url.test.mjs.
import { normalizeConfig3, STRATEGIES3, GPU_COUNTS3, BATCH_SIZES3, OPTIMIZERS3, PRECISIONS3, DEVICES3, INTERCONNECTS3 } from './act3-config.js';
import { EVERY_K } from './scenario.js';

// The GPUs (1, 2, 4, …, 1,024), the strategy, the interconnect, and the per-GPU step's knobs. `tools`:
// url-state.js's shared readers, so every act's parameters are judged and worded the same way.
export function parseAct3(params, config3, bad, current, { parseShared, dependent, wholeNumber, choices, list }) {
  parseShared(params, config3, bad, { precisions: PRECISIONS3, batches: BATCH_SIZES3, devices: DEVICES3, readK: false });
  dependent(params, config3, bad, { name: 'k', key: 'every_k', range: EVERY_K, what: 'the checkpoint interval', unit: 'layers',
    needsKey: 'checkpointing', needsValue: 'every_k', needsWords: 'ckpt=every', offWords: 'checkpointing is not every k layers here', current });
  const pick = (name, key, values, words) => {
    if (!params.has(name)) return;
    const v = params.get(name);
    const n = key === 'gpus' ? wholeNumber(v) : v;
    if (values.includes(n)) config3[key] = n;
    else bad(name, words);
  };
  pick('opt', 'optimizer', OPTIMIZERS3, `not an optimizer (use ${choices(OPTIMIZERS3)})`);
  pick('gpus', 'gpus', GPU_COUNTS3, `the number of GPUs must be a power of two from 1 to 1024 (${list(GPU_COUNTS3.map(String))})`);
  pick('strategy', 'strategy', STRATEGIES3, `not a strategy (use ${choices(STRATEGIES3)})`);
  pick('net', 'interconnect', INTERCONNECTS3, `not an interconnect (use ${choices(INTERCONNECTS3)})`);
}

// Writes Act 3's whole configuration into `p` (URLSearchParams), so a copied link reproduces it.
export function serializeAct3(p, config3, ckptParam) {
  const c3 = normalizeConfig3(config3);
  p.set('gpus', String(c3.gpus));
  p.set('strategy', c3.strategy);
  p.set('net', c3.interconnect);
  p.set('batch', String(c3.batch_size));
  p.set('dev', c3.device);
  p.set('prec', c3.precision);
  p.set('opt', c3.optimizer);
  p.set('ckpt', ckptParam[c3.checkpointing]);
  if (c3.checkpointing === 'every_k') p.set('k', String(c3.every_k));
}

export function withConfig3(state, patch) {
  return { ...state, config3: normalizeConfig3({ ...state.config3, ...patch }) };
}
