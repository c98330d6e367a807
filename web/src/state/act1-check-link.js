// Act 1's step opened in the workbench, whose "Check it on your GPU" writes the PyTorch script
// (issue 27: "and from Act 1's, when counted the PyTorch way"). The workbench's query parameters are
// written here, not through workbench-url.js: Act 1 is on the first load and the workbench's modules
// are not (the first-load budget). workbench-url.js parses what this writes (tests/web/unit).
const num = (x) => String(Number(x.toFixed(4)));

// scenario: the engine's resolved scenario of Act 1's selected step (result.scenario); units: gb|gib.
export function act1CheckHref(scenario, units = 'gb') {
  const s = scenario;
  const p = new URLSearchParams({ act: 'workbench', model: s.model });
  if (typeof s.device === 'string') p.set('gpu', s.device);
  else {
    // Act 1's custom device is an H100 with another capacity; the engine returns it resolved.
    const d = s.device;
    Object.entries({ gpu: 'custom', base: 'h100-sxm-80gb', mem: num(d.capacity_bytes / 1e9), mem_unit: 'gb',
      tf16: num(d.peak_fp16_flops_per_s / 1e12), tf32: num(d.peak_fp32_flops_per_s / 1e12), bw: num(d.hbm_bytes_per_s / 1e9) })
      .forEach(([k, v]) => p.set(k, v));
  }
  Object.entries({ prec: s.precision, opt: s.optimizer, batch: s.batch_size, seq: s.seq_len, ckpt: 'none', count: 'pytorch',
    step: s.step, zero_grad: s.zero_grad, opt_impl: s.optimizer_impl, units })
    .forEach(([k, v]) => p.set(k, String(v)));
  return `?${p.toString()}`;
}
