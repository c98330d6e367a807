// Names of scenario enums and the Chapter replay parameter rule.
#include "scenario.hpp"

namespace lab {

const char* to_string(Precision p) {
  switch (p) {
    case Precision::fp32: return "fp32";
    case Precision::mixed: return "mixed";
    case Precision::fp16: return "fp16";
    case Precision::bf16: return "bf16";
  }
  return "?";
}
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

std::int64_t memory_parameter_count(const Scenario& s) {
  // Chapter L4590ff: the walkthrough rounds GPT-2 XL to 1.5e9 parameters.
  if (s.chapter_replay) return 1'500'000'000LL;
  return count_parameters(s.model).total;
}

}  // namespace lab
