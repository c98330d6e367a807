// Memory-solver latency: facade `solve` (the full sweep of precision x optimizer x checkpointing x
// batch, plus the cheapest path and the best-MFU search) natively (build/native/bench_solver) and in
// WASM under Node, median after warm-up, in one run so the ratio is meaningful. Target: WASM < 10 ms.
// LAB_NATIVE_DIR / LAB_WASM_DIR pick other build directories.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, loadScaleEngine } from '../engine-node.mjs';
import { medianUs } from './timing.mjs';

const ITER = Number(process.env.SOLVER_BENCH_ITERATIONS || 200);
const TARGET_WASM_MS = 10;
const scenarios = {
  gpt2_xl_laptop: { model: 'gpt2-xl', device: 'rtx4060-laptop-8gb', precision: 'fp32', optimizer: 'adam', batch_size: 8 },
  gpt2_xl_h100: { model: 'gpt2-xl', device: 'h100-sxm-80gb', precision: 'mixed', optimizer: 'adam', batch_size: 64 },
  chapter_replay: { chapter_replay: true, precision: 'fp32', optimizer: 'adam', batch_size: 32 },
  // Issue 28: the same sweep plus the fewest-devices search (lab_scale), for Act 3's question.
  fewest_devices_laptop: { model: 'gpt2-xl', device: 'rtx4060-laptop-8gb', precision: 'mixed', optimizer: 'adam', batch_size: 1,
    checkpointing: 'full', parallel: { data_parallel: 1, zero_stage: 3, interconnect: 'ideal' } },
};


const loadavg_before = os.loadavg();
const nativeBin = path.join(process.env.LAB_NATIVE_DIR || 'build/native', 'bench_solver');
let native = null;
if (existsSync(nativeBin)) native = JSON.parse(execFileSync(nativeBin, [String(ITER)], { encoding: 'utf8' }));

const core = await loadEngine();
const scale = await loadScaleEngine();
const result = { iterations: ITER, target_wasm_ms: TARGET_WASM_MS };
let worstWasmUs = 0;
for (const [name, scenario] of Object.entries(scenarios)) {
  const text = JSON.stringify(scenario);
  const engine = scenario.parallel ? scale : core;  // lab_core refuses "parallel"
  const probe = JSON.parse(engine.solve(text));
  if (probe.error) throw new Error(`${name}: ${probe.error.message}`);
  const wasmUs = medianUs(() => engine.solve(text), ITER, 20);
  worstWasmUs = Math.max(worstWasmUs, wasmUs);
  const nativeUs = native ? native[`solve_${name}_median_us`] : null;
  result[name] = {
    configurations_evaluated: probe.configurations_evaluated,
    ...(probe.fewest_devices ? { fewest_devices: probe.fewest_devices.devices, fewest_devices_stage: probe.fewest_devices.zero_stage } : {}),
    solve_wasm_node_median_ms: Number((wasmUs / 1000).toFixed(4)),
    solve_native_median_ms: nativeUs == null ? null : Number((nativeUs / 1000).toFixed(4)),
    wasm_over_native_ratio: nativeUs == null ? null : Number((wasmUs / nativeUs).toFixed(3)),
  };
}
result.native_available = native !== null;
if (!native) result.native_note = `${nativeBin} not built (cmake --build build/native)`;
result.worst_wasm_median_ms = Number((worstWasmUs / 1000).toFixed(4));
result.meets_target = worstWasmUs / 1000 < TARGET_WASM_MS;
result.loadavg_before = loadavg_before;
result.loadavg_after = os.loadavg();
console.log(JSON.stringify(result));
