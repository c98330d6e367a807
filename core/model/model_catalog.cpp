// The model catalogue (models.hpp): exact shapes from each checkpoint's config.json. Compiled -Oz
// (CMakeLists.txt): read once at start-up, and lab_core is on the first load's budget.
#include "model/models.hpp"

namespace lab {

namespace {
// The shape every entry has; gpt2() and llama() add their family's defaults.
TransformerSpec shape(const char* id, const char* name, const char* family, std::int64_t layers, std::int64_t d,
                      std::int64_t heads, std::int64_t kv_heads, std::int64_t f, std::int64_t vocab,
                      std::int64_t context, const char* provenance) {
  TransformerSpec s;
  s.id = id;
  s.name = name;
  s.family = family;
  s.layers = layers;
  s.hidden = d;
  s.heads = heads;
  s.kv_heads = kv_heads;
  s.mlp_hidden = f;
  s.vocab = vocab;
  s.context = context;
  s.provenance = provenance;
  complete_attention(s);
  return s;
}

TransformerSpec gpt2(const char* id, const char* name, std::int64_t layers, std::int64_t d, std::int64_t heads) {
  return shape(id, name, "gpt2", layers, d, heads, heads, 4 * d, 50257, 1024,
               "Radford et al. 2019 (GPT-2) / HuggingFace config: vocab 50,257, n_ctx 1,024, tied head, "
               "biases, pre-LayerNorm, MLP 4d");
}

// Llama-style: RMSNorm, SwiGLU, rotary positions, no biases, untied head (each model's config.json).
TransformerSpec llama(const char* id, const char* name, const char* family, std::int64_t layers,
                      std::int64_t d, std::int64_t heads, std::int64_t kv_heads, std::int64_t f,
                      std::int64_t vocab, std::int64_t context, const char* provenance) {
  TransformerSpec s = shape(id, name, family, layers, d, heads, kv_heads, f, vocab, context, provenance);
  s.tied_head = false;
  s.learned_positions = false;
  set_biases(s, false);
  s.mlp = MlpKind::swiglu;
  s.norm = NormKind::rmsnorm;
  return s;
}

std::vector<TransformerSpec> build_catalog() {
  std::vector<TransformerSpec> c = {
      gpt2("gpt2-small", "GPT-2 small (124M)", 12, 768, 12),
      gpt2("gpt2-medium", "GPT-2 medium (355M)", 24, 1024, 16),
      gpt2("gpt2-large", "GPT-2 large (774M)", 36, 1280, 20),
      gpt2("gpt2-xl", "GPT-2 XL (1.5B)", 48, 1600, 25),
      llama("llama-2-7b", "Llama 2 7B", "llama", 32, 4096, 32, 32, 11008, 32000, 4096, "meta-llama/Llama-2-7b-hf config.json"),
      llama("llama-2-13b", "Llama 2 13B", "llama", 40, 5120, 40, 40, 13824, 32000, 4096, "meta-llama/Llama-2-13b-hf config.json"),
      llama("llama-3-8b", "Llama 3 8B", "llama", 32, 4096, 32, 8, 14336, 128256, 8192, "meta-llama/Meta-Llama-3-8B config.json"),
      llama("mistral-7b", "Mistral 7B v0.1", "mistral", 32, 4096, 32, 8, 14336, 32000, 32768, "mistralai/Mistral-7B-v0.1 config.json"),
      llama("qwen2-7b", "Qwen2 7B", "qwen2", 28, 3584, 28, 4, 18944, 152064, 131072, "Qwen/Qwen2-7B config.json"),
      llama("tinyllama-1.1b", "TinyLlama 1.1B", "llama", 22, 2048, 32, 4, 5632, 32000, 2048, "TinyLlama/TinyLlama-1.1B config.json"),
      gpt2("measure-tiny", "Measure it's tiny model", 4, 128, 4),
      // A from-scratch course model: Llama-style, untied, f about 8/3·d rounded up to 16.
      llama("course-s", "Course model S (11M)", "course", 8, 256, 8, 8, 688, 10000, 256, "course Llama-style model, small"),
      llama("course-m", "Course model M (58M)", "course", 8, 512, 8, 8, 1376, 32000, 512, "course Llama-style model, medium"),
      llama("course-l", "Course model L (134M)", "course", 12, 768, 12, 12, 2048, 32000, 1024, "course Llama-style model, large"),
  };
  for (auto& m : c) {
    if (m.id == "mistral-7b") m.sliding_window = 4096;
    if (m.id == "qwen2-7b") m.qkv_bias = true;
    if (m.id == "measure-tiny") {  // the reference engine's model (core/refengine/config.hpp)
      m.vocab = 64; m.context = 64; m.tied_head = false; m.family = "measure";
      m.provenance = "the reference engine's model (Measure it)";
    }
  }
  return c;
}
}  // namespace

const std::vector<TransformerSpec>& model_catalog() {
  static const std::vector<TransformerSpec> catalog = build_catalog();
  return catalog;
}

const TransformerSpec* find_model(const std::string& id) {
  for (const auto& m : model_catalog())
    if (m.id == id) return &m;
  return nullptr;
}

}  // namespace lab
