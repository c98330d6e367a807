// A stand-in for lab_scale written by hand from issue 28's contract (evaluate's `memory` and `parallel`
// blocks, solve's `fewest_devices`), for Act 3's view-model tests until the engine module lands. Its
// physics is the ZeRO paper's model states only (Ψ·(2 + 2 + K) split by stage), a fixed activation
// and reserve, and a ring all-reduce's time: enough shape for the model's logic, not the engine's numbers.
export const SPEC = { layers: 48, heads: 25, kv_heads: 25, mlp_hidden: 6400 };
const PSI = 1.5e9;
const USABLE = 7.5e9;
const ACT_RESERVE = 0.6e9;
const BW = { ideal: Infinity, nvlink4: 450e9, pcie4: 32e9, 'ethernet-10g': 1.25e9 };

function statesPerDevice(stage, n) {
  const k = 12;
  if (stage === 0) return PSI * (4 + k);
  if (stage === 1) return 4 * PSI + (k * PSI) / n;
  if (stage === 2) return 2 * PSI + ((2 + k) * PSI) / n;
  return ((4 + k) * PSI) / n;
}

export function evaluate(s) {
  const p = s.parallel;
  if (!(p.interconnect in BW)) return { error: { field: 'parallel.interconnect', message: 'not in the catalogue' } };
  const n = p.data_parallel;
  const devices = n * p.tensor_parallel * p.pipeline_parallel;
  const stat = statesPerDevice(p.zero_stage, n) / (p.tensor_parallel * p.pipeline_parallel);
  const peak = stat + ACT_RESERVE;
  const compute_s = 1.0 / (p.tensor_parallel * p.pipeline_parallel);
  const bytes = n > 1 ? (2 * (n - 1) / n) * 2 * PSI * (p.zero_stage === 3 ? 1.5 : 1) : 0;
  const communication_s = bytes / BW[p.interconnect];
  const exposed = Math.max(0, communication_s - 0.1 * compute_s);
  const m = p.micro_batches;
  const pp = p.pipeline_parallel;
  const bubble_fraction = (pp - 1) / (m + pp - 1);
  const bubble_s = pp > 1 ? (compute_s + exposed) * bubble_fraction / (1 - bubble_fraction) : 0;
  const step_s = compute_s + exposed + bubble_s;
  const single = 1.0 * n;
  const speedup = single / step_s;
  const r = devices > 1 ? (devices / speedup - 1) / (devices - 1) : 0;
  return {
    memory: { per_device: true, peak_bytes: peak, total_bytes: peak, static_bytes: stat, usable_device_bytes: USABLE,
      fits: peak <= USABLE, numerically_valid: true, components: { weights: stat, activations: ACT_RESERVE / 2, reserve: ACT_RESERVE / 2 }, binding: { kind: peak <= USABLE ? 'none' : 'static', message: '' } },
    parallel: {
      devices, data_parallel: n, global_batch: s.batch_size * m * n, tokens_per_device: s.batch_size * 1024 * m / p.tensor_parallel,
      crossover_tokens_per_device: { data_parallel: 4000, fully_sharded: 6000 }, tensor_parallel: p.tensor_parallel, pipeline_parallel: pp, micro_batches: m, zero_stage: p.zero_stage,
      interconnect: { id: p.interconnect, name: p.interconnect, bytes_per_s: BW[p.interconnect], latency_s: 0, provenance: 'fake' },
      memory_by_stage: [0, 1, 2, 3].map((z) => ({ zero_stage: z, static_bytes: statesPerDevice(z, n) / (p.tensor_parallel * pp),
        peak_bytes: statesPerDevice(z, n) / (p.tensor_parallel * pp) + ACT_RESERVE, fits: statesPerDevice(z, n) / (p.tensor_parallel * pp) + ACT_RESERVE <= USABLE })),
      compute_s, communication_s, exposed_communication_s: exposed, hidden_communication_s: communication_s - exposed,
      bubble_s, bubble_fraction, step_s, single_device_step_s: single, speedup, scaling_efficiency: speedup / devices, communication_ratio: r,
      formulas: { symbols: { N: n, t: p.tensor_parallel, p: pp, m, b: s.batch_size, s: 1024, h: 1600, psi: PSI / (p.tensor_parallel * pp), W: 2, G: 2, K: 12, B: BW[p.interconnect], alpha: 0, r },
        model_states: { expression: ['(W + G + K) * psi', '(W + G) * psi + K * psi / N', 'W * psi + (G + K) * psi / N', '(W + G + K) * psi / N'][p.zero_stage], bytes: stat },
        all_reduce: { expression: '2 (N - 1) / N * S / B + 2 (N - 1) * alpha, per bucket', seconds: communication_s },
        bubble: { expression: '(p - 1) / (m + p - 1)', value: bubble_fraction }, speedup: { expression: 'N / (1 + (N - 1) * r)', value: speedup },
        crossover: { data_parallel: 4000, fully_sharded: 6000, data_parallel_seconds: communication_s, fully_sharded_seconds: communication_s * 1.5, backward_s_per_token: 1e-4, compute_s_per_token: 1.5e-4 } },
    },
  };
}

export function solve(s) {
  const by_stage = [0, 1, 2, 3].map((z) => {
    for (let n = 1; n <= 1024; n += 1) {
      const r = evaluate({ ...s, parallel: { ...s.parallel, data_parallel: n, zero_stage: z } });
      if (r.memory.fits) return { zero_stage: z, devices: n, peak_bytes_per_device: r.memory.peak_bytes };
    }
    return { zero_stage: z, devices: null, peak_bytes_per_device: null };
  });
  const best = by_stage.filter((b) => b.devices !== null).sort((a, b) => a.devices - b.devices || a.zero_stage - b.zero_stage)[0];
  return { fewest_devices: { devices: best ? best.devices : null, zero_stage: best ? best.zero_stage : null, by_stage, max_devices: 1024, text: '' } };
}

export const fakeScale = { evaluate, solve };
