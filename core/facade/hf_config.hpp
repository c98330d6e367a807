// A Hugging Face config.json as a model: {"model": {"hf_config": {...}, "name"?}}.
// Families: llama, mistral, qwen2, gemma2, gpt2, gpt_neox, phi3 (core/facade/README.md, "Hugging Face
// configs"); field names and defaults as the transformers library sets them.
#pragma once
#include <string>
#include <nlohmann/json.hpp>
#include "model/models.hpp"

namespace lab {

// Throws InputError naming the field (model.hf_config.<key>) and why: not an object, too large or deep,
// a Mixture-of-Experts key, an unknown model_type, a missing, mistyped or absurd size.
TransformerSpec parse_hf_config(const nlohmann::json& config, const std::string& name);

}  // namespace lab
