// Act 3 scenarios the chart tests evaluate through the engine (unit and e2e): each shows one thing the
// charts must draw. enginePoints: the communication-tax chart's context, as the act computes it.
const BASE = { model: 'gpt2-xl', precision: 'mixed', optimizer: 'adam', batch_size: 1 };
export const ACT3_SCENARIOS = {
  // The prediction's answer shape: fits per device, free interconnect (r is rounding noise).
  laptopsZero3Free: { ...BASE, device: 'rtx4060-laptop-8gb', checkpointing: 'full', parallel: { data_parallel: 8, zero_stage: 3, interconnect: 'ideal' } },
  // Out of memory per device; DDP's bucket copy; a crossover below the tokens per device.
  laptopsDdpPcie: { ...BASE, device: 'rtx4060-laptop-8gb', parallel: { data_parallel: 8, zero_stage: 0, interconnect: 'pcie4' } },
  // Tensor, pipeline and data parallel at once: a bubble, exposed communication.
  h100ThreeWays: { ...BASE, device: 'h100-sxm-80gb', batch_size: 4, parallel: { data_parallel: 8, zero_stage: 1, tensor_parallel: 5, pipeline_parallel: 4, micro_batches: 8, interconnect: 'nvlink4' } },
  // Slower than one device: fully sharded over 10 Gb Ethernet, far below its crossover.
  h100Zero3Ethernet: { ...BASE, device: 'h100-sxm-80gb', parallel: { data_parallel: 64, zero_stage: 3, interconnect: 'ethernet-10g' } },
  // PyTorch's step model (DDP's bucket copy, ZeRO-1): the stack is the sum, the peak a line below it;
  // the engine compares stages 0 and 1 only.
  h100PytorchZero1: { model: 'gpt2-xl', device: 'h100-sxm-80gb', optimizer: 'adam', batch_size: 1, framework: 'pytorch', activation_model: 'pytorch_eager',
    step: 'steady', zero_grad: 'set_to_none', optimizer_impl: 'foreach', precision: 'autocast_fp16', parallel: { data_parallel: 8, zero_stage: 1, interconnect: 'nvlink4' } },
  // Fits but cannot train (pure FP16: no FP32 master copy).
  laptopsPureFp16: { ...BASE, device: 'rtx4060-laptop-8gb', precision: 'fp16', checkpointing: 'full', parallel: { data_parallel: 8, zero_stage: 3, interconnect: 'nvlink4' } },
};

// The scenario at N = 1, 2, 4, … 1,024 data-parallel replicas: [{ devices, speedup, fits }].
export function enginePoints(evaluate, scenario) {
  return Array.from({ length: 11 }, (_, i) => 2 ** i).map((n) => {
    const r = evaluate({ ...scenario, parallel: { ...scenario.parallel, data_parallel: n } });
    return { devices: r.parallel.devices, speedup: r.parallel.speedup, fits: r.memory.fits };
  });
}
