// A training scenario: what the student has configured. Parsed from JSON by scenario_json.cpp with
// one error per bad field; everything downstream (memory, flops, pipeline, solver) reads this struct.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include "model/devices.hpp"
#include "model/interconnects.hpp"
#include "model/models.hpp"

namespace lab {

// autocast_*: torch.autocast (FP32 parameters, gradients and optimizer state; 16-bit matmuls and a
// cache of 16-bit weight copies); only with framework "pytorch" (core/memory/pytorch_eager.hpp).
enum class Precision { fp32, mixed, fp16, bf16, autocast_bf16, autocast_fp16 };
enum class Optimizer { sgd, momentum, adam };
// Static-memory bookkeeping conventions (PHYSICS.md): ours (16 B/param mixed Adam, ZeRO),
// the chapter's 12 B/param (no master copy), Megatron's 18 B/param (FP32 gradients).
enum class Convention { ours, chapter, megatron };
enum class CheckpointKind { none, selective, full, every_k };
// korthikanti: physics for any transformer; chapter: the chapter's empirical 65 GB; inventory: the
// exact tensor table of the reference engine (core/refengine/inventory.hpp) for a model it can run.
// pytorch_eager: the tensors autograd saves for a straightforward eager PyTorch model (pytorch_eager.hpp).
enum class ActivationModel { korthikanti, chapter, inventory, pytorch_eager };
// textbook: the Megatron/ZeRO layout, everything summed (the acts' default). pytorch: what PyTorch
// allocates, phase by phase through one step (core/memory/step_phases.hpp).
enum class Framework { textbook, pytorch };
// Which PyTorch the pytorch framework describes: 2.x on a CUDA GPU (the lab's devices), or Debian
// bookworm's python3-torch 1.13 on CPU (the build tests/fixtures/pytorch was measured with).
enum class PytorchBuild { cuda, cpu_1_13 };
enum class StepKind { first, steady };
enum class StepMode { train, forward_with_grad, inference };
enum class ZeroGrad { set_to_none, zero };
enum class OptimizerImpl { per_parameter, foreach, fused };
// How the model's code is written (core/memory/README.md): nanoGPT's GPT-2 block, Hugging Face's Llama
// block, or a course assignment's from-scratch Llama (every op hand-written). It decides what autograd saves.
enum class PytorchImplementation { nanogpt, hf_llama, from_scratch };
// What torch.autocast wraps: the model call and the loss, or the whole step (backward and
// optimizer.step() too, so the cache of 16-bit weight copies lives until the step ends).
enum class AutocastScope { forward, step };

// The framework behaviours of one PyTorch training step (core/memory/README.md, the step-phase model).
struct FrameworkKnobs {
  Framework framework = Framework::textbook;
  PytorchBuild build = PytorchBuild::cuda;
  StepKind step = StepKind::steady;
  StepMode mode = StepMode::train;
  ZeroGrad zero_grad = ZeroGrad::set_to_none;          // PyTorch >= 2.0 default
  OptimizerImpl optimizer_impl = OptimizerImpl::foreach;  // PyTorch 2.x default for CUDA tensors
  // The parser's default: nanogpt when the model has learned positions, else hf_llama.
  PytorchImplementation implementation = PytorchImplementation::hf_llama;
  AutocastScope autocast_scope = AutocastScope::forward;
};

struct Checkpointing {
  CheckpointKind kind = CheckpointKind::none;
  std::int64_t every_k_layers = 0;  // only for every_k
};

// Data-pipeline knobs (used by the timing model; defaults in core/facade/README.md).
struct PipelineKnobs {
  std::int64_t workers = 0;                 // 0 = load in the main process
  double worker_tokens_per_s = 500e3;       // chapter: ~500K tokens/s per CPU core (tokenization)
  bool prefetch = false;
  std::int64_t prefetch_depth = 2;          // batches buffered per worker (PyTorch prefetch_factor)
  bool pinned_memory = false;
  double host_link_bytes_per_s = 0;         // 0 = the device's own link
  // Chapter L3295: 1,200 tokens/s for 8.3 h per epoch = 35,856,000 tokens (the chapter's epoch).
  double epoch_tokens = 35'856'000;
  std::int64_t schedule_steps = 3;          // steps in the timing model's timeline (0: none)
};

// DDP's gradient buckets: "copy" (PyTorch's default flat bucket buffers beside .grad), "view"
// (gradient_as_bucket_view=True: .grad lives in the buckets), "none" (an in-place all-reduce of each .grad).
enum class GradientBuckets { copy, view, none };
// ZeRO stage 1 in framework "pytorch" (core/parallel/parallel_pytorch.hpp): torch's
// ZeroRedundancyOptimizer (whole tensors, greedy by size) or a hand-written flat 1/N shard.
enum class ShardedOptimizer { zero_redundancy, flat };

// More than one device (the scenario's "parallel" object; core/parallel/README.md). Absent = one device.
// Parsed only where the facade's parallel hook is enabled (core/facade/facade_parallel.hpp).
struct ParallelKnobs {
  std::int64_t data_parallel = 1;      // N replicas (ZeRO shards over these)
  int zero_stage = 0;                  // 0 plain data parallel, 1 optimizer state, 2 + gradients, 3 + parameters
  std::int64_t tensor_parallel = 1;    // t: Megatron's split of each layer's matmuls
  bool sequence_parallel = false;      // Korthikanti et al. 2022: norms and dropout split over t too
  std::int64_t pipeline_parallel = 1;  // p: stages of consecutive layers
  std::int64_t micro_batches = 1;      // m per step per replica (gradient accumulation when p = 1)
  InterconnectSpec interconnect;       // the link every collective runs over
  bool overlap = true;                 // gradient communication overlaps backward compute
  std::int64_t bucket_bytes = 25LL * 1024 * 1024;  // DDP's bucket_cap_mb = 25 (PyTorch's default)
  GradientBuckets gradient_buckets = GradientBuckets::copy;
  ShardedOptimizer sharded_optimizer = ShardedOptimizer::zero_redundancy;
  std::int64_t devices() const { return data_parallel * tensor_parallel * pipeline_parallel; }
};

struct Scenario {
  TransformerSpec model;
  DeviceSpec device;
  Precision precision = Precision::fp32;
  Optimizer optimizer = Optimizer::adam;
  std::int64_t batch_size = 1;
  std::int64_t seq_len = 1024;
  Checkpointing checkpointing;
  ActivationModel activation_model = ActivationModel::korthikanti;
  bool flash_attention = false;
  Convention convention = Convention::ours;
  std::int64_t reserve_bytes = 512LL * 1024 * 1024;  // CUDA context + allocator slack (see core/memory/README.md)
  bool chapter_replay = false;  // reproduce the chapter's walkthrough exactly (N = 1.5e9, ...)
  // Iron Law inputs.
  double train_tokens = 1e9;
  std::int64_t num_devices = 1;
  double efficiency = 0.45;  // η; chapter L223: GPT-3 training achieved η ≈ 0.45
  PipelineKnobs pipeline;
  FrameworkKnobs framework;
  // Dropout layers present (masks saved). Textbook default true (Korthikanti counts the masks);
  // pytorch default: the architecture's own (GPT-2 style true, Llama style false).
  bool dropout = true;
  std::optional<ParallelKnobs> parallel;  // absent: one device, everything as before
};

const char* to_string(Precision p);
const char* to_string(Optimizer o);
const char* to_string(Convention c);
const char* to_string(ActivationModel m);
const char* to_string(CheckpointKind k);
const char* to_string(Framework f);
const char* to_string(PytorchBuild b);
const char* to_string(StepKind k);
const char* to_string(StepMode m);
const char* to_string(ZeroGrad z);
const char* to_string(OptimizerImpl o);
const char* to_string(PytorchImplementation i);
const char* to_string(AutocastScope a);
const char* to_string(GradientBuckets g);
bool is_autocast(Precision p);

// Parameter count used for memory: exact, except Chapter replay's rounded 1.5e9 for GPT-2 XL.
std::int64_t memory_parameter_count(const Scenario& s);

}  // namespace lab
