// Parsing scenarios: catalog ids or custom objects for model/device, enums by name, ranges chosen
// so every downstream count fits in 64 bits or is caught by checked arithmetic.
#include "facade/scenario_json.hpp"
#include "facade/facade_parallel.hpp"
#include "facade/hf_config.hpp"
#include "facade/json_fields.hpp"
#include "memory/pytorch_eager.hpp"

namespace lab {
using nlohmann::json;
using namespace fields;

namespace {

const std::vector<std::string> kScenarioFields = {
    "model", "device", "precision", "optimizer", "batch_size", "seq_len", "checkpointing",
    "activation_model", "flash_attention", "convention", "reserve_bytes", "chapter_replay",
    "train_tokens", "num_devices", "efficiency", "data_workers", "worker_tokens_per_s", "prefetch",
    "prefetch_depth", "pinned_memory", "host_link_bytes_per_s", "epoch_tokens", "schedule_steps",
    "framework", "pytorch_build", "step", "mode", "zero_grad", "optimizer_impl", "dropout",
    "pytorch_implementation", "autocast_scope", "parallel"};

std::string catalog_ids_models() {
  std::string s;
  for (const auto& m : model_catalog()) s += (s.empty() ? "" : ", ") + m.id;
  return s;
}
std::string catalog_ids_devices() {
  std::string s;
  for (const auto& d : device_catalog()) s += (s.empty() ? "" : ", ") + d.id;
  return s;
}

}  // namespace

// kv_heads must divide heads; without a head_dim, hidden must split evenly into heads. Fills both in.
void check_attention(TransformerSpec& m, const std::string& heads_field, const std::string& kv_field) {
  if (m.head_dim == 0 && m.hidden % m.heads != 0)
    throw InputError(heads_field, "hidden (" + std::to_string(m.hidden) + ") must be divisible by heads (" + std::to_string(m.heads) + ")");
  complete_attention(m);
  if (m.heads % m.kv_heads != 0)
    throw InputError(kv_field, "kv_heads (" + std::to_string(m.kv_heads) + ") must divide heads (" + std::to_string(m.heads) + ")");
}

namespace {

TransformerSpec parse_model(const json& v) {
  if (v.is_string()) {
    auto m = find_model(v.get<std::string>());
    if (!m) throw InputError("model", "unknown model id '" + v.get<std::string>() + "'; known: " + catalog_ids_models());
    return *m;
  }
  if (!v.is_object()) throw InputError("model", "must be a model id string (" + catalog_ids_models() + ") or a custom transformer object");
  if (v.contains("hf_config")) {
    reject_unknown(v, "model", {"hf_config", "name"});
    const std::string name = v.contains("name") ? to_string_value(v["name"], "model.name") : "";
    if (name.size() > 200) throw InputError("model.name", "must be at most 200 characters");
    return parse_hf_config(v["hf_config"], name);
  }
  reject_unknown(v, "model", {"base", "name", "layers", "hidden", "heads", "vocab", "context", "mlp_ratio",
                              "mlp_hidden", "tied_head", "learned_positions", "biases", "mlp", "norm", "kv_heads",
                              "head_dim", "qkv_bias", "attn_out_bias", "mlp_bias", "norm_bias", "norms_per_layer",
                              "parallel_residual", "sliding_window"});
  TransformerSpec m;
  if (v.contains("base")) {
    auto b = find_model(to_string_value(v["base"], "model.base"));
    if (!b) throw InputError("model.base", "unknown model id '" + v["base"].get<std::string>() + "'; known: " + catalog_ids_models());
    m = *b;
    // A base's derived widths follow a changed hidden or heads; its own (Gemma-like) ones stay.
    if (m.head_dim * m.heads == m.hidden) m.head_dim = 0;
    if (m.kv_heads == m.heads) m.kv_heads = 0;
  } else {
    for (const char* required : {"layers", "hidden", "heads", "vocab", "context"})
      if (!v.contains(required))
        throw InputError(std::string("model.") + required, std::string("a custom model needs '") + required + "' (or a 'base' model id to start from)");
    m.mlp_hidden = 0;
  }
  m.id = "custom";
  m.name = v.contains("name") ? to_string_value(v["name"], "model.name") : "Custom transformer";
  m.provenance = "user-described custom transformer";
  if (m.name.size() > 200) throw InputError("model.name", "must be at most 200 characters");
  // Table-driven: one read loop per type keeps lab_core small (the first load's budget).
  struct IntField { const char* key; std::int64_t TransformerSpec::*member; std::int64_t lo, hi; };
  static const IntField kInts[] = {
      {"layers", &TransformerSpec::layers, 1, 1000},          {"hidden", &TransformerSpec::hidden, 1, 131072},
      {"heads", &TransformerSpec::heads, 1, 1024},            {"vocab", &TransformerSpec::vocab, 1, 10'000'000},
      {"context", &TransformerSpec::context, 1, 1'048'576},   {"mlp_hidden", &TransformerSpec::mlp_hidden, 1, 1'048'576},
      {"head_dim", &TransformerSpec::head_dim, 1, 16384},     {"kv_heads", &TransformerSpec::kv_heads, 1, 1024},
      {"sliding_window", &TransformerSpec::sliding_window, 0, 1'048'576}};
  struct BoolField { const char* key; bool TransformerSpec::*member; };
  static const BoolField kBools[] = {
      {"tied_head", &TransformerSpec::tied_head}, {"learned_positions", &TransformerSpec::learned_positions},
      {"qkv_bias", &TransformerSpec::qkv_bias},   {"attn_out_bias", &TransformerSpec::attn_out_bias},
      {"mlp_bias", &TransformerSpec::mlp_bias},   {"norm_bias", &TransformerSpec::norm_bias},
      {"parallel_residual", &TransformerSpec::parallel_residual}};
  const std::string prefix = "model.";
  for (const auto& f : kInts)
    if (v.contains(f.key)) m.*f.member = to_int(v[f.key], prefix + f.key, f.lo, f.hi);
  if (v.contains("biases")) set_biases(m, to_bool(v["biases"], "model.biases"));  // before the per-projection flags
  for (const auto& f : kBools)
    if (v.contains(f.key)) m.*f.member = to_bool(v[f.key], prefix + f.key);
  if (v.contains("mlp")) m.mlp = static_cast<MlpKind>(to_choice(v["mlp"], "model.mlp", {"gelu", "swiglu", "geglu"}));
  if (v.contains("norm")) m.norm = to_choice(v["norm"], "model.norm", {"layernorm", "rmsnorm"}) == 0 ? NormKind::layernorm : NormKind::rmsnorm;
  if (v.contains("norms_per_layer")) {
    m.norms_per_layer = static_cast<int>(to_int(v["norms_per_layer"], "model.norms_per_layer", 2, 4));
    if (m.norms_per_layer == 3) throw InputError("model.norms_per_layer", "must be 2 (pre-norm) or 4 (Gemma 2: also after each sublayer)");
  }
  if (v.contains("mlp_ratio") && v.contains("mlp_hidden"))
    throw InputError("model.mlp_ratio", "give either 'mlp_ratio' or 'mlp_hidden', not both");
  if (v.contains("mlp_ratio")) {
    const double r = to_number(v["mlp_ratio"], "model.mlp_ratio", 0, 64, false);
    m.mlp_hidden = static_cast<std::int64_t>(r * static_cast<double>(m.hidden) + 0.5);
    if (m.mlp_hidden < 1) throw InputError("model.mlp_ratio", "gives an MLP width below 1");
  } else if (m.mlp_hidden == 0) {
    m.mlp_hidden = 4 * m.hidden;
  }
  check_attention(m, "model.heads", "model.kv_heads");
  return m;
}

// The same shape as parse_model (a catalogue id or a custom object), kept apart: each names its own
// fields, limits and error paths.
DeviceSpec parse_device(const json& v) {
  if (v.is_string()) {
    auto d = find_device(v.get<std::string>());
    if (!d) throw InputError("device", "unknown device id '" + v.get<std::string>() + "'; known: " + catalog_ids_devices());
    return *d;
  }
  if (!v.is_object()) throw InputError("device", "must be a device id string (" + catalog_ids_devices() + ") or a custom device object");
  reject_unknown(v, "device", {"base", "name", "capacity_bytes", "peak_fp32_flops_per_s", "peak_fp16_flops_per_s",
                               "peak_bf16_flops_per_s", "hbm_bytes_per_s", "host_link_bytes_per_s", "tdp_watts"});
  DeviceSpec d;
  if (v.contains("base")) {
    auto b = find_device(to_string_value(v["base"], "device.base"));
    if (!b) throw InputError("device.base", "unknown device id '" + v["base"].get<std::string>() + "'; known: " + catalog_ids_devices());
    d = *b;
  } else {
    for (const char* required : {"capacity_bytes", "peak_fp32_flops_per_s", "peak_fp16_flops_per_s", "hbm_bytes_per_s"})
      if (!v.contains(required))
        throw InputError(std::string("device.") + required, std::string("a custom device needs '") + required + "' (or a 'base' device id to start from)");
    d.host_link_bytes_per_s = 31.5e9;
  }
  d.id = "custom";
  d.name = v.contains("name") ? to_string_value(v["name"], "device.name") : "Custom device";
  d.provenance = "user-described custom device";
  if (d.name.size() > 200) throw InputError("device.name", "must be at most 200 characters");
  const std::int64_t PiB = 1LL << 50;
  if (v.contains("capacity_bytes")) d.capacity_bytes = to_int(v["capacity_bytes"], "device.capacity_bytes", 1, PiB);
  if (v.contains("peak_fp32_flops_per_s")) d.peak_fp32_flops_per_s = to_number(v["peak_fp32_flops_per_s"], "device.peak_fp32_flops_per_s", 0, 1e19, false);
  if (v.contains("peak_fp16_flops_per_s")) d.peak_fp16_flops_per_s = to_number(v["peak_fp16_flops_per_s"], "device.peak_fp16_flops_per_s", 0, 1e19, false);
  if (v.contains("peak_bf16_flops_per_s")) d.peak_bf16_flops_per_s = to_number(v["peak_bf16_flops_per_s"], "device.peak_bf16_flops_per_s", 0, 1e19);
  if (v.contains("hbm_bytes_per_s")) d.hbm_bytes_per_s = to_number(v["hbm_bytes_per_s"], "device.hbm_bytes_per_s", 0, 1e16, false);
  if (v.contains("host_link_bytes_per_s")) d.host_link_bytes_per_s = to_number(v["host_link_bytes_per_s"], "device.host_link_bytes_per_s", 0, 1e15, false);
  if (v.contains("tdp_watts")) d.tdp_watts = to_number(v["tdp_watts"], "device.tdp_watts", 0, 1e6);
  return d;
}


// The exact inventory describes the reference engine's tiny GPT-2-style decoder only: GELU MLP,
// LayerNorm with biases, learned positions, an untied head; within the engine's request limits.
void check_inventory_scenario(const Scenario& s) {
  const auto& m = s.model;
  const char* why = nullptr;
  if (s.chapter_replay) why = "chapter_replay uses the chapter's activation model, not the inventory";
  else if (m.id != "custom") why = "the inventory describes the reference engine's tiny model: give a custom model object";
  else if (m.mlp != MlpKind::gelu || m.norm != NormKind::layernorm || !m.learned_positions || m.tied_head ||
           !(m.qkv_bias && m.attn_out_bias && m.mlp_bias && m.norm_bias))
    why = "the reference engine runs GELU MLPs, LayerNorm with biases, learned positions and an untied head (tied_head: false)";
  else if (kv_heads_of(m) != m.heads || q_width(m) != m.hidden || m.norms_per_layer != 2 || m.parallel_residual)
    why = "the reference engine runs full multi-head attention (kv_heads = heads, head_dim = hidden/heads), two norms per block, no parallel residual";
  else if (m.vocab < 2 || m.vocab > 8192 || m.context > 2048 || m.hidden > 2048 || m.heads > 64 || m.layers > 48 || m.mlp_hidden > 8192)
    why = "the reference engine takes vocab 2-8192, context up to 2048, hidden up to 2048, heads up to 64, layers up to 48, MLP up to 8192";
  else if (s.batch_size > 256) why = "the reference engine takes batch_size up to 256";
  else if (is_autocast(s.precision)) why = "the reference engine has no autocast";
  if (why) throw InputError(s.chapter_replay ? "chapter_replay" : "activation_model", std::string("'inventory': ") + why);
}

// framework and its PyTorch behaviours (core/memory/README.md, the step-phase model). An autocast precision
// implies the pytorch framework; the behaviour fields need it.
void parse_framework(const PresentFields& f, Scenario& s) {
  auto& k = s.framework;
  k.framework = is_autocast(s.precision) ? Framework::pytorch : Framework::textbook;
  if (f.find("framework")) k.framework = static_cast<Framework>(to_choice(*f.find("framework"), "framework", {"textbook", "pytorch"}));
  const char* needs = nullptr;
  if (f.find("pytorch_build")) { needs = "pytorch_build"; k.build = static_cast<PytorchBuild>(to_choice(*f.find("pytorch_build"), "pytorch_build", {"cuda", "cpu-1.13"})); }
  if (f.find("step")) { needs = "step"; k.step = static_cast<StepKind>(to_choice(*f.find("step"), "step", {"first", "steady"})); }
  if (f.find("mode")) { needs = "mode"; k.mode = static_cast<StepMode>(to_choice(*f.find("mode"), "mode", {"train", "forward_with_grad", "inference"})); }
  if (f.find("zero_grad")) { needs = "zero_grad"; k.zero_grad = static_cast<ZeroGrad>(to_choice(*f.find("zero_grad"), "zero_grad", {"set_to_none", "zero"})); }
  if (f.find("optimizer_impl")) { needs = "optimizer_impl"; k.optimizer_impl = static_cast<OptimizerImpl>(to_choice(*f.find("optimizer_impl"), "optimizer_impl", {"per_parameter", "foreach", "fused"})); }
  k.implementation = default_implementation(s.model);
  if (f.find("pytorch_implementation")) { needs = "pytorch_implementation"; k.implementation = static_cast<PytorchImplementation>(to_choice(*f.find("pytorch_implementation"), "pytorch_implementation", {"nanogpt", "hf_llama", "from_scratch"})); }
  if (f.find("autocast_scope")) { needs = "autocast_scope"; k.autocast_scope = static_cast<AutocastScope>(to_choice(*f.find("autocast_scope"), "autocast_scope", {"forward", "step"})); }
  if (k.framework == Framework::textbook) {
    if (is_autocast(s.precision))
      throw InputError("precision", std::string("'") + to_string(s.precision) + "' is torch.autocast, which the textbook layout does not describe; use framework \"pytorch\"");
    if (needs) throw InputError(needs, "describes a PyTorch behaviour; it needs framework \"pytorch\"");
  }
}

// What the pytorch framework covers: eager models trained without activation checkpointing.
void check_framework_scenario(const Scenario& s) {
  if (s.activation_model == ActivationModel::pytorch_eager) {
    if (s.chapter_replay) throw InputError("chapter_replay", "'pytorch_eager': chapter_replay uses the chapter's activation model");
    if (s.checkpointing.kind != CheckpointKind::none)
      throw InputError("checkpointing", "'pytorch_eager' describes eager PyTorch without activation checkpointing");
  }
  if (s.framework.framework != Framework::pytorch) return;
  if (s.chapter_replay) throw InputError("framework", "chapter_replay reproduces the chapter's textbook walkthrough; use framework \"textbook\"");
  if (s.precision == Precision::mixed)
    throw InputError("precision", "'mixed' is the textbook layout (16-bit weights + FP32 master); PyTorch's mixed precision is \"autocast_bf16\" or \"autocast_fp16\"");
  if (s.activation_model != ActivationModel::pytorch_eager)
    throw InputError("activation_model", "framework \"pytorch\" predicts what eager PyTorch saves: use \"pytorch_eager\"");
  if (s.checkpointing.kind != CheckpointKind::none)
    throw InputError("checkpointing", "the PyTorch step-phase model covers training without activation checkpointing");
  if (s.flash_attention && s.framework.build == PytorchBuild::cpu_1_13)
    throw InputError("flash_attention", "PyTorch 1.13 has no scaled_dot_product_attention (it came with 2.0)");
  if (s.convention != Convention::ours)
    throw InputError("convention", "conventions are textbook bookkeeping; framework \"pytorch\" counts what PyTorch allocates");
  if (const char* why = implementation_mismatch(s)) throw InputError("pytorch_implementation", why);
}

}  // namespace

Checkpointing parse_checkpointing(const json& v, std::int64_t layers) {
  Checkpointing c;
  if (v.is_string()) {
    const auto i = to_choice(v, "checkpointing", {"none", "selective", "full"});
    c.kind = i == 0 ? CheckpointKind::none : (i == 1 ? CheckpointKind::selective : CheckpointKind::full);
    return c;
  }
  if (!v.is_object()) throw InputError("checkpointing", "must be \"none\", \"selective\", \"full\" or {\"every_k_layers\": k}");
  reject_unknown(v, "checkpointing", {"every_k_layers"});
  if (!v.contains("every_k_layers")) throw InputError("checkpointing.every_k_layers", "is required in the object form");
  c.kind = CheckpointKind::every_k;
  c.every_k_layers = to_int(v["every_k_layers"], "checkpointing.every_k_layers", 1, layers);
  return c;
}

Scenario parse_scenario(const json& j, const std::vector<std::string>& extra_known) {
  const PresentFields f(j, "", kScenarioFields, extra_known);
  Scenario s;
  s.chapter_replay = f.find("chapter_replay") && to_bool(*f.find("chapter_replay"), "chapter_replay");
  s.model = *find_model("gpt2-xl");
  s.device = *find_device(s.chapter_replay ? "v100-sxm2-32gb" : "h100-sxm-80gb");
  if (f.find("model")) s.model = parse_model(*f.find("model"));
  if (s.chapter_replay && s.model.id != "gpt2-xl")
    throw InputError("model", "chapter_replay reproduces the chapter's GPT-2 XL walkthrough; use model \"gpt2-xl\"");
  if (f.find("device")) s.device = parse_device(*f.find("device"));
  s.seq_len = std::min<std::int64_t>(s.model.context, 1024);
  if (f.find("precision"))
    s.precision = static_cast<Precision>(to_choice(*f.find("precision"), "precision", {"fp32", "mixed", "fp16", "bf16", "autocast_bf16", "autocast_fp16"}));
  parse_framework(f, s);
  if (f.find("optimizer")) {
    const auto i = to_choice(*f.find("optimizer"), "optimizer", {"sgd", "momentum", "adam", "adamw"});
    s.optimizer = i == 0 ? Optimizer::sgd : (i == 1 ? Optimizer::momentum : Optimizer::adam);
  }
  if (f.find("batch_size")) s.batch_size = to_int(*f.find("batch_size"), "batch_size", 1, 65536);
  if (f.find("seq_len")) {
    const std::int64_t cap = s.model.learned_positions ? s.model.context : 1'048'576;
    s.seq_len = to_int(*f.find("seq_len"), "seq_len", 1, cap);
  }
  if (f.find("checkpointing")) s.checkpointing = parse_checkpointing(*f.find("checkpointing"), s.model.layers);
  const bool pytorch = s.framework.framework == Framework::pytorch;
  s.activation_model = s.chapter_replay ? ActivationModel::chapter : (pytorch ? ActivationModel::pytorch_eager : ActivationModel::korthikanti);
  if (f.find("activation_model"))
    s.activation_model = static_cast<ActivationModel>(to_choice(*f.find("activation_model"), "activation_model", {"korthikanti", "chapter", "inventory", "pytorch_eager"}));
  if (s.activation_model == ActivationModel::inventory) check_inventory_scenario(s);
  if (f.find("flash_attention")) s.flash_attention = to_bool(*f.find("flash_attention"), "flash_attention");
  s.dropout = pytorch ? architecture_dropout(s.model) : true;
  if (f.find("dropout")) s.dropout = to_bool(*f.find("dropout"), "dropout");
  if (f.find("convention")) s.convention = static_cast<Convention>(to_choice(*f.find("convention"), "convention", {"ours", "chapter", "megatron"}));
  if (s.chapter_replay) s.reserve_bytes = 0;
  if (f.find("reserve_bytes")) s.reserve_bytes = to_int(*f.find("reserve_bytes"), "reserve_bytes", 0, 1LL << 50);
  if (f.find("train_tokens")) s.train_tokens = to_number(*f.find("train_tokens"), "train_tokens", 0, 1e18, false);
  if (f.find("num_devices")) s.num_devices = to_int(*f.find("num_devices"), "num_devices", 1, 1'000'000);
  if (f.find("efficiency")) s.efficiency = to_number(*f.find("efficiency"), "efficiency", 0, 1, false);
  auto& p = s.pipeline;
  if (f.find("data_workers")) p.workers = to_int(*f.find("data_workers"), "data_workers", 0, 256);
  if (f.find("worker_tokens_per_s")) p.worker_tokens_per_s = to_number(*f.find("worker_tokens_per_s"), "worker_tokens_per_s", 0, 1e12, false);
  if (f.find("prefetch")) p.prefetch = to_bool(*f.find("prefetch"), "prefetch");
  if (f.find("prefetch_depth")) p.prefetch_depth = to_int(*f.find("prefetch_depth"), "prefetch_depth", 1, 64);
  if (f.find("pinned_memory")) p.pinned_memory = to_bool(*f.find("pinned_memory"), "pinned_memory");
  if (f.find("host_link_bytes_per_s")) p.host_link_bytes_per_s = to_number(*f.find("host_link_bytes_per_s"), "host_link_bytes_per_s", 0, 1e15, false);
  if (f.find("epoch_tokens")) p.epoch_tokens = to_number(*f.find("epoch_tokens"), "epoch_tokens", 0, 1e18, false);
  if (f.find("schedule_steps")) p.schedule_steps = to_int(*f.find("schedule_steps"), "schedule_steps", 0, 16);
  check_framework_scenario(s);
  if (f.find("parallel")) {
    const auto* hooks = facade::parallel_hooks();
    if (!hooks)
      throw InputError("parallel", "this engine module does not include multi-device scenarios; the lab's scale module (lab_scale) evaluates them");
    hooks->parse(*f.find("parallel"), s, f.find("num_devices") != nullptr);
  }
  return s;
}

void write_model(JsonWriter& w, const TransformerSpec& m) {
  static const char* const kMlp[] = {"gelu", "swiglu", "geglu"};
  w.begin_object()
      .field("layers", m.layers).field("hidden", m.hidden).field("heads", m.heads).field("vocab", m.vocab)
      .field("context", m.context).field("mlp_hidden", m.mlp_hidden).field("tied_head", m.tied_head)
      .field("learned_positions", m.learned_positions).field("biases", m.biases)
      .field("mlp", kMlp[static_cast<int>(m.mlp)])
      .field("norm", m.norm == NormKind::layernorm ? "layernorm" : "rmsnorm").field("name", m.name)
      .field("kv_heads", kv_heads_of(m)).field("head_dim", head_dim_of(m)).field("qkv_bias", m.qkv_bias)
      .field("attn_out_bias", m.attn_out_bias).field("mlp_bias", m.mlp_bias).field("norm_bias", m.norm_bias)
      .field("norms_per_layer", static_cast<std::int64_t>(m.norms_per_layer))
      .field("parallel_residual", m.parallel_residual);
  if (m.sliding_window > 0) w.field("sliding_window", m.sliding_window);
  w.end_object();
}

void write_model_notes(JsonWriter& w, const TransformerSpec& m) {
  w.begin_array();
  if (m.sliding_window > 0)
    w.value("Sliding window of " + std::to_string(m.sliding_window) +
            " tokens: eager attention still builds the whole score matrix (only the mask changes), so it is counted in full.");
  if (m.approximations & kSoftcapping) w.value("Logit soft-capping is a few elementwise ops: not counted.");
  if (m.approximations & kPartialRotary) w.value("Rotary on part of each head: no parameters; not counted.");
  if (m.approximations & kRopeScaling) w.value("RoPE scaling changes positions only: no parameters or memory.");
  w.end_array();
}

namespace {
void write_device(JsonWriter& w, const DeviceSpec& d) {
  w.begin_object()
      .field("name", d.name).field("capacity_bytes", d.capacity_bytes)
      .field("peak_fp32_flops_per_s", d.peak_fp32_flops_per_s).field("peak_fp16_flops_per_s", d.peak_fp16_flops_per_s)
      .field("peak_bf16_flops_per_s", d.peak_bf16_flops_per_s).field("hbm_bytes_per_s", d.hbm_bytes_per_s)
      .field("host_link_bytes_per_s", d.host_link_bytes_per_s).field("tdp_watts", d.tdp_watts)
      .end_object();
}
}  // namespace

json model_to_json(const TransformerSpec& m) {
  JsonWriter w;
  write_model(w, m);
  return json::parse(w.str());
}

json device_to_json(const DeviceSpec& d) {
  JsonWriter w;
  write_device(w, d);
  return json::parse(w.str());
}

void write_scenario(JsonWriter& w, const Scenario& s) {
  w.begin_object();
  w.key("model");
  if (s.model.id == "custom") write_model(w, s.model); else w.value(s.model.id);
  w.key("device");
  if (s.device.id == "custom") write_device(w, s.device); else w.value(s.device.id);
  w.field("precision", to_string(s.precision)).field("optimizer", to_string(s.optimizer))
      .field("batch_size", s.batch_size).field("seq_len", s.seq_len);
  w.key("checkpointing");
  if (s.checkpointing.kind == CheckpointKind::every_k)
    w.begin_object().field("every_k_layers", s.checkpointing.every_k_layers).end_object();
  else
    w.value(to_string(s.checkpointing.kind));
  w.field("activation_model", to_string(s.activation_model)).field("flash_attention", s.flash_attention)
      .field("convention", to_string(s.convention)).field("reserve_bytes", s.reserve_bytes)
      .field("chapter_replay", s.chapter_replay).field("train_tokens", s.train_tokens)
      .field("num_devices", s.num_devices).field("efficiency", s.efficiency)
      .field("data_workers", s.pipeline.workers).field("worker_tokens_per_s", s.pipeline.worker_tokens_per_s)
      .field("prefetch", s.pipeline.prefetch).field("prefetch_depth", s.pipeline.prefetch_depth)
      .field("pinned_memory", s.pipeline.pinned_memory);
  if (s.pipeline.host_link_bytes_per_s > 0) w.field("host_link_bytes_per_s", s.pipeline.host_link_bytes_per_s);
  w.field("epoch_tokens", s.pipeline.epoch_tokens).field("schedule_steps", s.pipeline.schedule_steps);
  // New fields appear only where they differ from the textbook defaults, so existing results keep
  // their exact scenario object.
  const auto& k = s.framework;
  if (k.framework == Framework::pytorch)
    w.field("framework", to_string(k.framework)).field("pytorch_build", to_string(k.build))
        .field("step", to_string(k.step)).field("mode", to_string(k.mode))
        .field("zero_grad", to_string(k.zero_grad)).field("optimizer_impl", to_string(k.optimizer_impl))
        .field("dropout", s.dropout).field("pytorch_implementation", to_string(k.implementation))
        .field("autocast_scope", to_string(k.autocast_scope));
  else if (!s.dropout)
    w.field("dropout", false);
  if (s.parallel) {
    w.key("parallel");
    facade::parallel_hooks()->write_scenario(w, *s.parallel);  // a parsed "parallel" implies the hooks
  }
  w.end_object();
}

json scenario_to_json(const Scenario& s) {
  JsonWriter w;
  write_scenario(w, s);
  return json::parse(w.str());
}

}  // namespace lab
