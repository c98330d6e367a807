// Facade `evaluate` latency: native (build/native/bench_core) and WASM under Node, median of many
// calls after warm-up, in one run so the ratio is meaningful. Target: WASM evaluate under 30 µs.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { loadEngine } from '../engine-node.mjs';
import { medianUs } from './timing.mjs';

const ITER = 3000;
const scenario = JSON.stringify({ model: 'gpt2-xl', device: 'a100-sxm4-80gb', precision: 'mixed',
  optimizer: 'adam', batch_size: 16, checkpointing: 'selective' });


const load_before = os.loadavg();
const native = JSON.parse(execFileSync('build/native/bench_core', [String(ITER)], { encoding: 'utf8' }));
const engine = await loadEngine();
const wasmUs = medianUs(() => engine.evaluate(scenario), ITER);
const parseUs = medianUs(() => JSON.parse(engine.evaluate(scenario)), ITER);
console.log(JSON.stringify({
  iterations: ITER,
  evaluate_native_median_us: native.evaluate_median_us,
  evaluate_wasm_node_median_us: Number(wasmUs.toFixed(3)),
  evaluate_wasm_node_with_json_parse_median_us: Number(parseUs.toFixed(3)),
  wasm_over_native_ratio: Number((wasmUs / native.evaluate_median_us).toFixed(3)),
  target_wasm_us: 30,
  meets_target: wasmUs < 30,
  loadavg_before: load_before, loadavg_after: os.loadavg(),
}));
