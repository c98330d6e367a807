// Builds the exact inventory: parameters and their companions (gradient, master, optimizer
// vectors), then one training step phase by phase — forward, recomputation under checkpointing,
// backward, optimizer — recording which tensor is born and which dies in each phase. model.cpp
// performs the same schedule with real buffers; tests/core/refengine/test_inventory.cpp checks
// that the allocator's measurements equal predict_memory() for many configurations.
#include "refengine/inventory.hpp"
#include <algorithm>
#include <stdexcept>
#include "refengine/gemm.hpp"

namespace lab::ref {

const char* category_name(Category c) {
  switch (c) {
    case Category::weights: return "weights";
    case Category::master_weights: return "master_weights";
    case Category::gradients: return "gradients";
    case Category::optimizer_momentum: return "optimizer:momentum";
    case Category::optimizer_adam_m: return "optimizer:adam_m";
    case Category::optimizer_adam_v: return "optimizer:adam_v";
    case Category::activations: return "activations";
    case Category::transient: return "transient";
    case Category::logits: return "logits";
    case Category::inputs: return "inputs";
  }
  return "?";
}

std::int64_t total(const CategoryBytes& b) {
  std::int64_t t = 0;
  for (auto x : b) t += x;
  return t;
}

int Inventory::find(const std::string& name) const {
  auto it = index.find(name);
  if (it == index.end()) throw std::logic_error("inventory has no tensor named '" + name + "'");
  return it->second;
}

std::string layer_tensor(std::int64_t layer, const char* what, bool recomputed) {
  return "L" + std::to_string(layer) + "." + what + (recomputed ? "@rec" : "");
}
std::string residual_tensor(std::int64_t index, bool recomputed) {
  return "x" + std::to_string(index) + (recomputed ? "@rec" : "");
}

std::vector<ParamSpec> parameter_specs(const RefConfig& c) {
  const std::int64_t V = c.vocab, C = c.d_model, M = c.mlp_hidden;
  std::vector<ParamSpec> p;
  auto add = [&](std::string name, std::vector<std::int64_t> shape, ParamInit init, bool matmul, bool decay) {
    std::int64_t n = 1;
    for (auto s : shape) n *= s;
    p.push_back({std::move(name), std::move(shape), n, init, matmul, decay});
  };
  add("wte", {V, C}, ParamInit::normal, false, true);             // (V, C)
  add("wpe", {c.context, C}, ParamInit::normal, false, true);     // (ctx, C)
  for (std::int64_t l = 0; l < c.layers; ++l) {
    const std::string L = "L" + std::to_string(l) + ".";
    add(L + "ln1.g", {C}, ParamInit::ones, false, false);
    add(L + "ln1.b", {C}, ParamInit::zeros, false, false);
    add(L + "attn.qkv.w", {C, 3 * C}, ParamInit::normal, true, true);   // (C, 3C)
    add(L + "attn.qkv.b", {3 * C}, ParamInit::zeros, false, false);
    add(L + "attn.proj.w", {C, C}, ParamInit::normal_residual, true, true);
    add(L + "attn.proj.b", {C}, ParamInit::zeros, false, false);
    add(L + "ln2.g", {C}, ParamInit::ones, false, false);
    add(L + "ln2.b", {C}, ParamInit::zeros, false, false);
    add(L + "mlp.fc.w", {C, M}, ParamInit::normal, true, true);         // (C, M)
    add(L + "mlp.fc.b", {M}, ParamInit::zeros, false, false);
    add(L + "mlp.proj.w", {M, C}, ParamInit::normal_residual, true, true);  // (M, C)
    add(L + "mlp.proj.b", {C}, ParamInit::zeros, false, false);
  }
  add("lnf.g", {C}, ParamInit::ones, false, false);
  add("lnf.b", {C}, ParamInit::zeros, false, false);
  add("head.w", {C, V}, ParamInit::normal, true, true);  // (C, V), untied, no bias
  return p;
}

std::int64_t parameter_count(const RefConfig& c) {
  std::int64_t n = 0;
  for (const auto& p : parameter_specs(c)) n += p.numel;
  return n;
}

std::int64_t model_flops_per_step(const RefConfig& c) {
  std::int64_t matmul = 0;
  for (const auto& p : parameter_specs(c))
    if (p.matmul) matmul += p.numel;
  const std::int64_t tokens = c.batch * c.seq;
  return 6 * matmul * tokens + 12 * c.layers * c.d_model * c.seq * tokens;
}

std::int64_t executed_flops_per_step(const RefConfig& c) {
  const std::int64_t BT = c.batch * c.seq, C = c.d_model, T = c.seq;
  const std::int64_t block_forward = 2 * (4 * C * C + 2 * C * c.mlp_hidden) * BT + 4 * BT * T * C;
  std::int64_t recompute = 0;
  if (c.checkpointing.kind == CheckpointKind::selective) recompute = c.layers * 2 * BT * T * C;
  if (segment_length(c) > 0) recompute = c.layers * block_forward;
  return model_flops_per_step(c) + recompute;
}

namespace {

class Builder {
 public:
  explicit Builder(Inventory& inv) : inv_(inv) {}
  void phase(std::string name) {
    inv_.phases.push_back(std::move(name));
    cur_ = static_cast<int>(inv_.phases.size()) - 1;
  }
  int add(const std::string& name, Category cat, std::vector<std::int64_t> shape, DType dt) {
    if (inv_.index.count(name)) throw std::logic_error("inventory: duplicate tensor '" + name + "'");
    TensorSpec t;
    t.name = name;
    t.category = cat;
    t.numel = 1;
    for (auto s : shape) t.numel *= s;
    t.shape = std::move(shape);
    t.dtype = dt;
    t.bytes = t.numel * dtype_bytes(dt);
    t.born = cur_;
    t.dies = cur_ == 0 ? kPersistent : -2;  // -2: not yet known; must be set by kill()
    inv_.tensors.push_back(std::move(t));
    const int id = static_cast<int>(inv_.tensors.size()) - 1;
    inv_.index.emplace(name, id);
    return id;
  }
  void kill(const std::string& name) {
    TensorSpec& t = inv_.tensors[static_cast<std::size_t>(inv_.find(name))];
    if (t.dies != -2) throw std::logic_error("inventory: tensor '" + name + "' freed twice");
    t.dies = cur_;
  }

 private:
  Inventory& inv_;
  int cur_ = 0;
};

struct Dims {
  std::int64_t B, T, C, H, M, V, BT;
};

// One block's forward. `rec`: the recomputation pass (names carry "@rec"). `store`: activations
// are kept for backward (else each dies after its last forward use). `save_probs`: the (B,H,T,T)
// softmax output is kept; otherwise one head's T x T scratch is used and dropped.
struct LayerPass {
  bool rec = false, store = true, save_probs = true;
  std::string xin, xout;
  bool xin_dies = false;      // forward-only input: freed at the residual add
  Category xout_cat = Category::activations;
  bool xout_dies = false;     // recomputed output nobody needs
};

void layer_forward(Builder& b, const Dims& d, DType act, std::int64_t l, const LayerPass& p) {
  auto n = [&](const char* w) { return layer_tensor(l, w, p.rec); };
  const Category tag = p.store ? Category::activations : Category::transient;
  const std::string pre = std::string(p.rec ? "rec" : "fwd") + ".L" + std::to_string(l) + ".";
  b.phase(pre + "ln1");
  if (p.store) {
    b.add(n("ln1.mean"), Category::activations, {d.BT}, DType::f32);
    b.add(n("ln1.rstd"), Category::activations, {d.BT}, DType::f32);
  }
  b.add(n("ln1.out"), tag, {d.B, d.T, d.C}, act);
  b.phase(pre + "qkv");
  b.add(n("qkv"), tag, {d.B, d.T, 3 * d.C}, act);
  if (!p.store) b.kill(n("ln1.out"));
  b.phase(pre + "attn");
  const bool probs = p.store && p.save_probs;
  if (probs)
    b.add(n("attn.probs"), Category::activations, {d.B, d.H, d.T, d.T}, act);
  else
    b.add(layer_tensor(l, "attn.head_probs"), Category::transient, {d.T, d.T}, act);
  b.add(n("attn.y"), tag, {d.B, d.T, d.C}, act);
  if (!probs) b.kill(layer_tensor(l, "attn.head_probs"));
  if (!p.store) b.kill(n("qkv"));
  b.phase(pre + "proj");
  b.add(n("attn.proj.out"), Category::transient, {d.B, d.T, d.C}, act);
  if (!p.store) b.kill(n("attn.y"));
  b.phase(pre + "res1");
  b.add(n("x_mid"), tag, {d.B, d.T, d.C}, act);
  b.kill(n("attn.proj.out"));
  if (p.xin_dies) b.kill(p.xin);
  b.phase(pre + "ln2");
  if (p.store) {
    b.add(n("ln2.mean"), Category::activations, {d.BT}, DType::f32);
    b.add(n("ln2.rstd"), Category::activations, {d.BT}, DType::f32);
  }
  b.add(n("ln2.out"), tag, {d.B, d.T, d.C}, act);
  b.phase(pre + "fc");
  b.add(n("mlp.f"), tag, {d.B, d.T, d.M}, act);
  if (!p.store) b.kill(n("ln2.out"));
  b.phase(pre + "gelu");
  b.add(n("mlp.g"), tag, {d.B, d.T, d.M}, act);
  if (!p.store) b.kill(n("mlp.f"));
  b.phase(pre + "fc2");
  b.add(n("mlp.proj.out"), Category::transient, {d.B, d.T, d.C}, act);
  if (!p.store) b.kill(n("mlp.g"));
  b.phase(pre + "res2");
  b.add(p.xout, p.xout_cat, {d.B, d.T, d.C}, act);
  b.kill(n("mlp.proj.out"));
  if (!p.store) b.kill(n("x_mid"));
  if (p.xout_dies) b.kill(p.xout);
}

// One block's backward; `rec` selects the recomputed activations' names, `probs_saved` whether
// the softmax output exists or is recomputed head by head.
void layer_backward(Builder& b, const Dims& d, DType act, std::int64_t l, bool rec, bool probs_saved,
                    const std::string& xin) {
  auto n = [&](const char* w) { return layer_tensor(l, w, rec); };
  auto g = [&](const char* w) { return layer_tensor(l, w); };
  const std::string pre = "bwd.L" + std::to_string(l) + ".";
  b.phase(pre + "fc2");
  b.add(g("d.mlp.g"), Category::transient, {d.B, d.T, d.M}, act);
  b.kill(n("mlp.g"));
  b.phase(pre + "gelu");
  b.add(g("d.mlp.f"), Category::transient, {d.B, d.T, d.M}, act);
  b.kill(g("d.mlp.g"));
  b.kill(n("mlp.f"));
  b.phase(pre + "fc");
  b.add(g("d.ln2.out"), Category::transient, {d.B, d.T, d.C}, act);
  b.kill(g("d.mlp.f"));
  b.kill(n("ln2.out"));
  b.phase(pre + "ln2");
  b.kill(g("d.ln2.out"));
  b.kill(n("ln2.mean"));
  b.kill(n("ln2.rstd"));
  b.kill(n("x_mid"));
  b.phase(pre + "proj");
  b.add(g("d.attn.y"), Category::transient, {d.B, d.T, d.C}, act);
  b.kill(n("attn.y"));
  b.phase(pre + "attn");
  b.add(g("d.qkv"), Category::transient, {d.B, d.T, 3 * d.C}, act);
  if (!probs_saved) b.add(g("attn.head_probs_recomputed"), Category::transient, {d.T, d.T}, act);
  b.add(g("attn.head_dprobs"), Category::transient, {d.T, d.T}, act);
  b.kill(g("d.attn.y"));
  b.kill(n("qkv"));
  if (probs_saved)
    b.kill(n("attn.probs"));
  else
    b.kill(g("attn.head_probs_recomputed"));
  b.kill(g("attn.head_dprobs"));
  b.phase(pre + "qkv");
  b.add(g("d.ln1.out"), Category::transient, {d.B, d.T, d.C}, act);
  b.kill(g("d.qkv"));
  b.kill(n("ln1.out"));
  b.phase(pre + "ln1");
  b.kill(g("d.ln1.out"));
  b.kill(n("ln1.mean"));
  b.kill(n("ln1.rstd"));
  b.kill(xin);
}

}  // namespace

Inventory build_inventory(const RefConfig& c) {
  Inventory inv;
  inv.cfg = c;
  inv.types = storage_types(c.precision, c.mixed_half);
  const StorageTypes ty = inv.types;
  const Dims d{c.batch, c.seq, c.d_model, c.heads, c.mlp_hidden, c.vocab, c.batch * c.seq};
  const DType act = ty.activations;
  Builder b(inv);

  // ---- init: parameters and everything that lives as long as the session.
  b.phase("init");
  inv.params = parameter_specs(c);
  inv.param_rows.resize(inv.params.size());
  for (std::size_t i = 0; i < inv.params.size(); ++i)
    inv.param_rows[i].weights = b.add(inv.params[i].name, Category::weights, inv.params[i].shape, ty.weights);
  if (ty.master)
    for (std::size_t i = 0; i < inv.params.size(); ++i)
      inv.param_rows[i].master = b.add(inv.params[i].name + ".master", Category::master_weights, inv.params[i].shape, DType::f32);
  for (std::size_t i = 0; i < inv.params.size(); ++i)
    inv.param_rows[i].grad = b.add(inv.params[i].name + ".grad", Category::gradients, inv.params[i].shape, ty.grads);
  for (std::size_t i = 0; i < inv.params.size(); ++i) {
    const auto& p = inv.params[i];
    if (c.optimizer == Optimizer::momentum) {
      inv.param_rows[i].state1 = b.add(p.name + ".momentum", Category::optimizer_momentum, p.shape, ty.optimizer_state);
    } else if (c.optimizer == Optimizer::adam) {
      inv.param_rows[i].state1 = b.add(p.name + ".adam_m", Category::optimizer_adam_m, p.shape, ty.optimizer_state);
      inv.param_rows[i].state2 = b.add(p.name + ".adam_v", Category::optimizer_adam_v, p.shape, ty.optimizer_state);
    }
  }
  std::int64_t max_n = std::max({3 * d.C, d.M, d.V, d.T, d.C});
  b.add("gemm.workspace", Category::transient, {gemm_workspace_floats(max_n)}, DType::f32);

  // ---- one step: data and forward.
  const std::int64_t k = segment_length(c);  // 0: every block keeps its activations
  const bool selective = c.checkpointing.kind == CheckpointKind::selective;
  auto seg_start = [&](std::int64_t l) { return k > 0 && l % k == 0; };
  b.phase("data");
  b.add("tokens", Category::inputs, {d.B, d.T}, DType::i32);
  b.add("targets", Category::inputs, {d.B, d.T}, DType::i32);
  b.phase("fwd.embed");
  b.add(residual_tensor(0), Category::activations, {d.B, d.T, d.C}, act);
  // The same loop as the trainer's forward pass (model.cpp) on purpose: this predicts what that
  // allocates, and test_inventory.cpp holds the two to the byte.
  for (std::int64_t l = 0; l < c.layers; ++l) {
    LayerPass p;
    p.xin = residual_tensor(l);
    p.xout = residual_tensor(l + 1);
    if (k == 0) {
      p.save_probs = !selective;
    } else {
      p.store = false;
      p.xin_dies = !seg_start(l);
      p.xout_cat = seg_start(l + 1) || l + 1 == c.layers ? Category::activations : Category::transient;
    }
    layer_forward(b, d, act, l, p);
  }
  b.phase("fwd.lnf");
  b.add("lnf.mean", Category::activations, {d.BT}, DType::f32);
  b.add("lnf.rstd", Category::activations, {d.BT}, DType::f32);
  b.add("lnf.out", Category::activations, {d.B, d.T, d.C}, act);
  b.phase("fwd.head");
  b.add("logits", Category::logits, {d.B, d.T, d.V}, DType::f32);
  b.phase("fwd.loss");

  // ---- backward (with the recomputation of each checkpointed segment just before it is needed).
  b.phase("bwd.loss");
  b.add("dlogits", Category::logits, {d.B, d.T, d.V}, DType::f32);
  b.kill("logits");
  b.kill("targets");
  b.phase("bwd.head");
  b.add("d.lnf.out", Category::transient, {d.B, d.T, d.C}, act);
  b.kill("dlogits");
  b.kill("lnf.out");
  b.phase("bwd.lnf");
  b.add("dx", Category::transient, {d.B, d.T, d.C}, act);
  b.kill("d.lnf.out");
  b.kill("lnf.mean");
  b.kill("lnf.rstd");
  b.kill(residual_tensor(c.layers));
  for (std::int64_t l = c.layers - 1; l >= 0; --l) {
    if (k == 0) {
      layer_backward(b, d, act, l, false, !selective, residual_tensor(l));
      continue;
    }
    const std::int64_t a = l / k * k;
    const bool last_of_segment = l == std::min(a + k, c.layers) - 1;
    if (last_of_segment)
      for (std::int64_t j = a; j <= l; ++j) {
        LayerPass p;
        p.rec = true;
        p.xin = j == a ? residual_tensor(a) : residual_tensor(j, true);
        p.xout = residual_tensor(j + 1, true);
        p.xout_cat = j == l ? Category::transient : Category::activations;
        p.xout_dies = j == l;
        layer_forward(b, d, act, j, p);
      }
    layer_backward(b, d, act, l, true, true, l == a ? residual_tensor(a) : residual_tensor(l, true));
  }
  b.phase("bwd.embed");
  b.add("embed.token_index", Category::transient, {d.BT}, DType::i32);
  b.add("embed.token_offsets", Category::transient, {d.V + 1}, DType::i32);
  b.kill("embed.token_index");
  b.kill("embed.token_offsets");
  b.kill("dx");
  b.kill("tokens");
  b.phase("opt");

  for (const auto& t : inv.tensors)
    if (t.dies == -2) throw std::logic_error("inventory: tensor '" + t.name + "' is never freed");
  return inv;
}

MemoryProfile predict_memory(const Inventory& inv) {
  const std::size_t P = inv.phases.size();
  std::vector<CategoryBytes> born(P, CategoryBytes{}), died(P, CategoryBytes{});
  for (const auto& t : inv.tensors) {
    born[static_cast<std::size_t>(t.born)][static_cast<std::size_t>(t.category)] += t.bytes;
    if (t.dies != kPersistent) died[static_cast<std::size_t>(t.dies)][static_cast<std::size_t>(t.category)] += t.bytes;
  }
  MemoryProfile m;
  CategoryBytes live{};
  for (std::size_t p = 0; p < P; ++p) {
    for (std::size_t c = 0; c < kCategoryCount; ++c) {
      live[c] += born[p][c];
      m.max_by_category[c] = std::max(m.max_by_category[c], live[c]);
    }
    const std::int64_t peak = total(live);
    if (peak > m.peak_bytes) {
      m.peak_bytes = peak;
      m.peak_phase = inv.phases[p];
      m.at_peak = live;
    }
    for (std::size_t c = 0; c < kCategoryCount; ++c) live[c] -= died[p][c];
    m.timeline.push_back({inv.phases[p], peak, live});
  }
  return m;
}

}  // namespace lab::ref
