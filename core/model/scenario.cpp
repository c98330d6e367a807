// Names of scenario enums and the Chapter replay parameter rule.
#include "model/scenario.hpp"

namespace lab {

const char* to_string(Precision p) {
  switch (p) {
    case Precision::fp32: return "fp32";
    case Precision::mixed: return "mixed";
    case Precision::fp16: return "fp16";
    case Precision::bf16: return "bf16";
    case Precision::autocast_bf16: return "autocast_bf16";
    case Precision::autocast_fp16: return "autocast_fp16";
  }
  return "?";
}
// One switch per enum, not a shared table (here, in pipeline.cpp and memory.cpp): -Wswitch then
// flags an enum value added without its name.
const char* to_string(Optimizer o) {
  switch (o) {
    case Optimizer::sgd: return "sgd";
    case Optimizer::momentum: return "momentum";
    case Optimizer::adam: return "adam";
  }
  return "?";
}
const char* to_string(Convention c) {
  switch (c) {
    case Convention::ours: return "ours";
    case Convention::chapter: return "chapter";
    case Convention::megatron: return "megatron";
  }
  return "?";
}
const char* to_string(ActivationModel m) {
  switch (m) {
    case ActivationModel::korthikanti: return "korthikanti";
    case ActivationModel::chapter: return "chapter";
    case ActivationModel::inventory: return "inventory";
    case ActivationModel::pytorch_eager: return "pytorch_eager";
  }
  return "?";
}
const char* to_string(CheckpointKind k) {
  switch (k) {
    case CheckpointKind::none: return "none";
    case CheckpointKind::selective: return "selective";
    case CheckpointKind::full: return "full";
    case CheckpointKind::every_k: return "every_k_layers";
  }
  return "?";
}

const char* to_string(Framework f) { return f == Framework::textbook ? "textbook" : "pytorch"; }
const char* to_string(PytorchBuild b) { return b == PytorchBuild::cuda ? "cuda" : "cpu-1.13"; }
const char* to_string(StepKind k) { return k == StepKind::first ? "first" : "steady"; }
const char* to_string(StepMode m) {
  return m == StepMode::train ? "train" : (m == StepMode::forward_with_grad ? "forward_with_grad" : "inference");
}
const char* to_string(ZeroGrad z) { return z == ZeroGrad::set_to_none ? "set_to_none" : "zero"; }
const char* to_string(PytorchImplementation i) {
  return i == PytorchImplementation::nanogpt ? "nanogpt" : (i == PytorchImplementation::hf_llama ? "hf_llama" : "from_scratch");
}
const char* to_string(AutocastScope a) { return a == AutocastScope::forward ? "forward" : "step"; }
const char* to_string(OptimizerImpl o) {
  return o == OptimizerImpl::per_parameter ? "per_parameter" : (o == OptimizerImpl::foreach ? "foreach" : "fused");
}
const char* to_string(GradientBuckets g) {
  return g == GradientBuckets::copy ? "copy" : (g == GradientBuckets::view ? "view" : "none");
}
bool is_autocast(Precision p) { return p == Precision::autocast_bf16 || p == Precision::autocast_fp16; }

std::int64_t memory_parameter_count(const Scenario& s) {
  // Chapter L4590ff: the walkthrough rounds GPT-2 XL to 1.5e9 parameters.
  if (s.chapter_replay) return 1'500'000'000LL;
  return count_parameters(s.model).total;
}

}  // namespace lab
