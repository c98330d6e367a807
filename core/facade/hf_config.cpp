// Hugging Face config.json -> TransformerSpec. Defaults are those of each transformers Config class
// (LlamaConfig, MistralConfig, Qwen2Config, Gemma2Config, GPT2Config, GPTNeoXConfig, Phi3Config);
// sizes are required all the same, since a config without them describes no particular model.
// Compiled -Oz (CMakeLists.txt): it runs once per paste, and lab_core is on the first load's budget.
#include "facade/hf_config.hpp"
#include "facade/json_fields.hpp"
#include "facade/scenario_json.hpp"

namespace lab {
using nlohmann::json;
using namespace fields;

namespace {

const char* const kPath = "model.hf_config";
enum Family { llama, mistral, qwen2, gemma2, gpt2, gpt_neox, phi3, kFamilies };
const char* const kTypes[kFamilies] = {"llama", "mistral", "qwen2", "gemma2", "gpt2", "gpt_neox", "phi3"};

std::string at(const char* key) { return std::string(kPath) + "." + key; }

// A config.json is a few KB; a 10 MB or deeply nested one is not a model description. The recursion
// stops at depth 17. Written with the json calls the other parsers already use (lab_core's size).
void check_size(const json& v, int depth, std::size_t& bytes) {
  if (depth > 16) throw InputError(kPath, "is nested more than 16 levels deep: not a model's config.json");
  bytes += v.is_string() ? v.get<std::string>().size() : 8;
  if (bytes > (256u << 10)) throw InputError(kPath, "is over 256 KiB (262,144 bytes): a model's config.json is a few kB");
  if (v.is_object() || v.is_array())
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (v.is_object()) bytes += it.key().size();
      check_size(*it, depth + 1, bytes);
    }
}

// null means "the default" in Hugging Face configs (n_inner, num_key_value_heads, sliding_window...).
const json* get(const json& c, const char* key) {
  return c.contains(key) && !c[key].is_null() ? &c[key] : nullptr;
}

std::int64_t size(const json& c, const char* key, std::int64_t lo, std::int64_t hi, std::int64_t fallback = -1) {
  if (const json* v = get(c, key)) return to_int(*v, at(key), lo, hi);
  if (fallback < 0) throw InputError(at(key), std::string("is required: the '") + key + "' of the model");
  return fallback;
}

bool flag(const json& c, const char* key, bool fallback) {
  const json* v = get(c, key);
  return v ? to_bool(*v, at(key)) : fallback;
}

// Gated families: silu/swish -> SwiGLU, gelu* -> GeGLU; plain MLPs (gpt2, gpt_neox): GELU or ReLU
// read and write the same bytes, counted as GELU.
MlpKind activation(const json& c, const char* key, const char* fallback, bool gated) {
  const json* v = get(c, key);
  const std::string a = v ? to_string_value(*v, at(key)) : fallback;
  const bool gelu = a.rfind("gelu", 0) == 0;
  if (gated && (a == "silu" || a == "swish")) return MlpKind::swiglu;
  if (gated && gelu) return MlpKind::geglu;
  if (!gated && (gelu || a == "relu" || a == "silu")) return MlpKind::gelu;
  throw InputError(at(key), "activation '" + a + "' is not modelled (silu or gelu)");
}

}  // namespace

TransformerSpec parse_hf_config(const json& c, const std::string& name) {
  require_object(c, kPath);
  std::size_t bytes = 0;
  check_size(c, 0, bytes);
  for (const char* moe : {"num_local_experts", "num_experts", "n_routed_experts", "num_experts_per_tok", "moe_intermediate_size"}) {
    const json* v = get(c, moe);
    if (v && !(v->is_number() && to_number(*v, at(moe), -1e300, 1e300) == 0))
      throw InputError(at(moe), "Mixture-of-Experts models are not modelled: the lab counts dense Transformers");
  }
  const json* type_value = get(c, "model_type");
  if (!type_value) throw InputError(at("model_type"), "is required: it names the architecture");
  const std::string type = to_string_value(*type_value, at("model_type"));
  int f = 0;
  while (f < kFamilies && type != kTypes[f]) ++f;
  if (f == kFamilies)
    throw InputError(at("model_type"), "'" + type.substr(0, 40) +
                                           "' is not modelled; known: llama, mistral, qwen2, gemma2, gpt2, gpt_neox, phi3");
  TransformerSpec m;
  m.id = "custom";
  m.family = kTypes[f];
  m.provenance = "a pasted Hugging Face config.json";
  const char* heads_key = "num_attention_heads";
  if (f == gpt2) {
    m.hidden = size(c, "n_embd", 1, 131072);
    m.layers = size(c, "n_layer", 1, 1000);
    m.heads = size(c, heads_key = "n_head", 1, 1024);
    m.context = size(c, "n_positions", 1, 1'048'576, 1024);
    m.mlp_hidden = size(c, "n_inner", 1, 1'048'576, 4 * m.hidden);
    m.mlp = activation(c, "activation_function", "gelu_new", false);
    m.tied_head = flag(c, "tie_word_embeddings", true);
  } else {
    static const std::int64_t kContext[kFamilies] = {2048, 131072, 32768, 8192, 0, 2048, 4096};
    m.hidden = size(c, "hidden_size", 1, 131072);
    m.layers = size(c, "num_hidden_layers", 1, 1000);
    m.heads = size(c, heads_key, 1, 1024);
    m.mlp_hidden = size(c, "intermediate_size", 1, 1'048'576);
    m.context = size(c, "max_position_embeddings", 1, 1'048'576, kContext[f]);
    m.kv_heads = size(c, "num_key_value_heads", 1, 1024, f == mistral ? 8 : m.heads);
    if (f == llama || f == mistral || f == gemma2) m.head_dim = size(c, "head_dim", 1, 16384, f == gemma2 ? 256 : 0);
    m.learned_positions = false;
    set_biases(m, false);
    m.norm = NormKind::rmsnorm;
    m.tied_head = flag(c, "tie_word_embeddings", f == gemma2);
    m.mlp = f == gemma2 ? activation(c, get(c, "hidden_activation") ? "hidden_activation" : "hidden_act", "gelu_pytorch_tanh", true)
                        : activation(c, "hidden_act", f == gpt_neox ? "gelu" : "silu", f != gpt_neox);
  }
  m.vocab = size(c, "vocab_size", 1, 10'000'000);
  if (f == gpt2) set_biases(m, true);  // GPT-2: every Linear (Conv1D) and LayerNorm has a bias
  if (f == llama || f == gemma2) m.qkv_bias = m.attn_out_bias = flag(c, "attention_bias", false);
  if (f == llama) m.mlp_bias = flag(c, "mlp_bias", false);
  if (f == qwen2) m.qkv_bias = true;  // Qwen2Attention: bias on q_proj, k_proj, v_proj only
  if (f == gpt_neox) {
    set_biases(m, true);
    m.norm = NormKind::layernorm;
    m.qkv_bias = m.attn_out_bias = flag(c, "attention_bias", true);
    m.parallel_residual = flag(c, "use_parallel_residual", true);
    const json* rotary = get(c, "rotary_pct");  // default 0.25
    if (!rotary || to_number(*rotary, at("rotary_pct"), 0, 1) < 1) m.approximations |= kPartialRotary;
  }
  if (f == gemma2) {
    m.norms_per_layer = 4;
    if (get(c, "final_logit_softcapping") || get(c, "attn_logit_softcapping")) m.approximations |= kSoftcapping;
  }
  if (f == phi3 && get(c, "partial_rotary_factor") &&
      to_number(*get(c, "partial_rotary_factor"), at("partial_rotary_factor"), 0, 1) < 1)
    m.approximations |= kPartialRotary;
  // A sliding window: Mistral (default 4,096), Gemma 2 (every other layer), Phi-3; Qwen2 only with
  // use_sliding_window.
  const bool windowed = f == mistral || f == gemma2 || f == phi3 || (f == qwen2 && flag(c, "use_sliding_window", false));
  const bool window_null = c.contains("sliding_window") && !get(c, "sliding_window");  // null: none
  if (windowed && !window_null) m.sliding_window = size(c, "sliding_window", 1, 1'048'576, f == phi3 ? 0 : 4096);
  if (const json* r = get(c, "rope_scaling")) {
    if (!r->is_object()) throw InputError(at("rope_scaling"), "must be an object or null");
    m.approximations |= kRopeScaling;
  }
  check_attention(m, at(heads_key), at(f == gpt2 ? "n_head" : "num_key_value_heads"));
  std::string label = name;
  if (label.empty()) {
    const json* path = get(c, "_name_or_path");
    label = path && path->is_string() ? path->get<std::string>() : "";
    if (label.empty()) label = "Hugging Face " + type + " model";
  }
  if (label.size() > 200) label.resize(200);
  m.name = label;
  return m;
}

}  // namespace lab
