// One training micro-batch through the tiny GPT: embed → L pre-LN blocks (LN → qkv → causal
// attention → proj → +, LN → fc → GELU → proj → +) → LN → head → cross-entropy, then backward.
// Checkpointing: "selective" recomputes each head's softmax in backward; every-k (full = 1) keeps
// only segment inputs in the forward and recomputes a segment just before its backward. The
// acquire/release calls here are the measured side of the inventory (inventory.cpp) — keep the two
// schedules identical; test_inventory.cpp proves they are.
#include "refengine/model.hpp"
#include <algorithm>
#include "refengine/ops.hpp"

namespace lab::ref {

void TinyGpt::layer_forward(std::int64_t l, const Pass& p) {
  const RefConfig& c = inv_.cfg;
  const std::int64_t BT = c.batch * c.seq, C = c.d_model, M = c.mlp_hidden;
  auto n = [&](const char* w) { return layer_tensor(l, w, p.rec); };
  const std::string pre = std::string(p.rec ? "rec" : "fwd") + ".L" + std::to_string(l) + ".";

  phase(pre + "ln1");
  Buf mean, rstd;
  if (p.store) {
    mean = arena_.acquire(n("ln1.mean"));
    rstd = arena_.acquire(n("ln1.rstd"));
  }
  const Buf h1 = arena_.acquire(n("ln1.out"));
  const Buf x = get(p.xin);
  layernorm_forward(x, weight(l, "ln1.g"), weight(l, "ln1.b"), h1, mean.as<float>(), rstd.as<float>(), BT, C);

  phase(pre + "qkv");
  const Buf qkv = arena_.acquire(n("qkv"));
  linear_forward(k_, h1, weight(l, "attn.qkv.w"), weight(l, "attn.qkv.b"), qkv, BT, C, 3 * C);
  if (!p.store) arena_.release(n("ln1.out"));

  phase(pre + "attn");
  const bool keep_probs = p.store && p.save_probs;
  Buf probs, scratch;
  if (keep_probs)
    probs = arena_.acquire(n("attn.probs"));
  else
    scratch = arena_.acquire(layer_tensor(l, "attn.head_probs"));
  const Buf y = arena_.acquire(n("attn.y"));
  attention_forward(k_, {c.batch, c.seq, C, c.heads}, qkv, y, probs, scratch);
  if (!keep_probs) arena_.release(layer_tensor(l, "attn.head_probs"));
  if (!p.store) arena_.release(n("qkv"));

  phase(pre + "proj");
  const Buf a = arena_.acquire(n("attn.proj.out"));
  linear_forward(k_, y, weight(l, "attn.proj.w"), weight(l, "attn.proj.b"), a, BT, C, C);
  if (!p.store) arena_.release(n("attn.y"));

  phase(pre + "res1");
  const Buf xm = arena_.acquire(n("x_mid"));
  residual_forward(x, a, xm, BT * C);
  arena_.release(n("attn.proj.out"));
  if (p.xin_dies) arena_.release(p.xin);

  phase(pre + "ln2");
  Buf mean2, rstd2;
  if (p.store) {
    mean2 = arena_.acquire(n("ln2.mean"));
    rstd2 = arena_.acquire(n("ln2.rstd"));
  }
  const Buf h2 = arena_.acquire(n("ln2.out"));
  layernorm_forward(xm, weight(l, "ln2.g"), weight(l, "ln2.b"), h2, mean2.as<float>(), rstd2.as<float>(), BT, C);

  phase(pre + "fc");
  const Buf f = arena_.acquire(n("mlp.f"));
  linear_forward(k_, h2, weight(l, "mlp.fc.w"), weight(l, "mlp.fc.b"), f, BT, C, M);
  if (!p.store) arena_.release(n("ln2.out"));

  phase(pre + "gelu");
  const Buf g = arena_.acquire(n("mlp.g"));
  gelu_forward(f, g, BT * M);
  if (!p.store) arena_.release(n("mlp.f"));

  phase(pre + "fc2");
  const Buf o = arena_.acquire(n("mlp.proj.out"));
  linear_forward(k_, g, weight(l, "mlp.proj.w"), weight(l, "mlp.proj.b"), o, BT, M, C);
  if (!p.store) arena_.release(n("mlp.g"));

  phase(pre + "res2");
  const Buf xo = arena_.acquire(p.xout);
  residual_forward(xm, o, xo, BT * C);
  arena_.release(n("mlp.proj.out"));
  if (!p.store) arena_.release(n("x_mid"));
  if (p.xout_dies) arena_.release(p.xout);
}

void TinyGpt::layer_backward(std::int64_t l, bool rec, bool probs_saved, const std::string& xin) {
  const RefConfig& c = inv_.cfg;
  const std::int64_t BT = c.batch * c.seq, C = c.d_model, M = c.mlp_hidden;
  auto n = [&](const char* w) { return layer_tensor(l, w, rec); };
  auto t = [&](const char* w) { return layer_tensor(l, w); };
  const std::string pre = "bwd.L" + std::to_string(l) + ".";
  const Buf dx = get("dx");  // gradient w.r.t. this block's output; becomes w.r.t. its input

  // x_out = x_mid + mlp(x_mid): the MLP branch reads dx directly (residual backward = identity).
  phase(pre + "fc2");
  const Buf dg = arena_.acquire(t("d.mlp.g"));
  linear_backward(k_, dx, get(n("mlp.g")), weight(l, "mlp.proj.w"), dg, grad(l, "mlp.proj.w"),
                  grad(l, "mlp.proj.b"), BT, M, C);
  arena_.release(n("mlp.g"));

  phase(pre + "gelu");
  const Buf df = arena_.acquire(t("d.mlp.f"));
  gelu_backward(dg, get(n("mlp.f")), df, BT * M);
  arena_.release(t("d.mlp.g"));
  arena_.release(n("mlp.f"));

  phase(pre + "fc");
  const Buf dh2 = arena_.acquire(t("d.ln2.out"));
  linear_backward(k_, df, get(n("ln2.out")), weight(l, "mlp.fc.w"), dh2, grad(l, "mlp.fc.w"), grad(l, "mlp.fc.b"),
                  BT, C, M);
  arena_.release(t("d.mlp.f"));
  arena_.release(n("ln2.out"));

  phase(pre + "ln2");
  layernorm_backward(dh2, get(n("x_mid")), get(n("ln2.mean")).as<float>(), get(n("ln2.rstd")).as<float>(),
                     weight(l, "ln2.g"), dx, grad(l, "ln2.g"), grad(l, "ln2.b"), BT, C);
  arena_.release(t("d.ln2.out"));
  arena_.release(n("ln2.mean"));
  arena_.release(n("ln2.rstd"));
  arena_.release(n("x_mid"));

  // x_mid = x + attn(x): same again for the attention branch.
  phase(pre + "proj");
  const Buf dy = arena_.acquire(t("d.attn.y"));
  linear_backward(k_, dx, get(n("attn.y")), weight(l, "attn.proj.w"), dy, grad(l, "attn.proj.w"),
                  grad(l, "attn.proj.b"), BT, C, C);
  arena_.release(n("attn.y"));

  phase(pre + "attn");
  const Buf dqkv = arena_.acquire(t("d.qkv"));
  Buf probs, pscratch;
  if (probs_saved)
    probs = get(n("attn.probs"));
  else
    pscratch = arena_.acquire(t("attn.head_probs_recomputed"));
  const Buf dscratch = arena_.acquire(t("attn.head_dprobs"));
  attention_backward(k_, {c.batch, c.seq, C, c.heads}, dy, get(n("qkv")), probs, pscratch, dscratch, dqkv);
  arena_.release(t("d.attn.y"));
  arena_.release(n("qkv"));
  if (probs_saved)
    arena_.release(n("attn.probs"));
  else
    arena_.release(t("attn.head_probs_recomputed"));
  arena_.release(t("attn.head_dprobs"));

  phase(pre + "qkv");
  const Buf dh1 = arena_.acquire(t("d.ln1.out"));
  linear_backward(k_, dqkv, get(n("ln1.out")), weight(l, "attn.qkv.w"), dh1, grad(l, "attn.qkv.w"),
                  grad(l, "attn.qkv.b"), BT, C, 3 * C);
  arena_.release(t("d.qkv"));
  arena_.release(n("ln1.out"));

  phase(pre + "ln1");
  layernorm_backward(dh1, get(xin), get(n("ln1.mean")).as<float>(), get(n("ln1.rstd")).as<float>(),
                     weight(l, "ln1.g"), dx, grad(l, "ln1.g"), grad(l, "ln1.b"), BT, C);
  arena_.release(t("d.ln1.out"));
  arena_.release(n("ln1.mean"));
  arena_.release(n("ln1.rstd"));
  arena_.release(xin);
}

double TinyGpt::forward_backward(float loss_scale) {
  const RefConfig& c = inv_.cfg;
  const std::int64_t B = c.batch, T = c.seq, BT = B * T, C = c.d_model, V = c.vocab, L = c.layers;
  const std::int64_t k = segment_length(c);
  const bool selective = c.checkpointing.kind == CheckpointKind::selective;
  auto seg_start = [&](std::int64_t l) { return k > 0 && l % k == 0; };
  const auto* tokens = get("tokens").as<const std::int32_t>();
  const auto* targets = get("targets").as<const std::int32_t>();

  // ---- forward
  phase("fwd.embed");
  embedding_forward(tokens, get("wte"), get("wpe"), arena_.acquire(residual_tensor(0)), B, T, C);
  for (std::int64_t l = 0; l < L; ++l) {
    Pass p;
    p.xin = residual_tensor(l);
    p.xout = residual_tensor(l + 1);
    if (k == 0) {
      p.save_probs = !selective;
    } else {
      p.store = false;
      p.xin_dies = !seg_start(l);
    }
    layer_forward(l, p);
  }
  phase("fwd.lnf");
  const Buf lmean = arena_.acquire("lnf.mean"), lrstd = arena_.acquire("lnf.rstd");
  const Buf hf = arena_.acquire("lnf.out");
  layernorm_forward(get(residual_tensor(L)), get("lnf.g"), get("lnf.b"), hf, lmean.as<float>(), lrstd.as<float>(), BT, C);
  phase("fwd.head");
  const Buf logits = arena_.acquire("logits");
  linear_forward(k_, hf, get("head.w"), Buf{}, logits, BT, C, V);
  phase("fwd.loss");
  const double loss = cross_entropy_forward(logits, targets, BT, V);

  // ---- backward
  phase("bwd.loss");
  const Buf dlogits = arena_.acquire("dlogits");
  cross_entropy_backward(logits, targets, dlogits, BT, V, loss_scale);
  arena_.release("logits");
  arena_.release("targets");
  phase("bwd.head");
  const Buf dhf = arena_.acquire("d.lnf.out");
  linear_backward(k_, dlogits, hf, get("head.w"), dhf, get("head.w.grad"), Buf{}, BT, C, V);
  arena_.release("dlogits");
  arena_.release("lnf.out");
  phase("bwd.lnf");
  const Buf dx = arena_.acquire("dx");
  dispatch(dx.dtype, [&](auto tag) {  // dx starts at zero: layernorm_backward accumulates into it
    auto* p = dx.as<decltype(tag)>();
    for (std::int64_t i = 0; i < dx.numel; ++i) store(p + i, 0.0f);
  });
  layernorm_backward(dhf, get(residual_tensor(L)), lmean.as<float>(), lrstd.as<float>(), get("lnf.g"), dx,
                     get("lnf.g.grad"), get("lnf.b.grad"), BT, C);
  arena_.release("d.lnf.out");
  arena_.release("lnf.mean");
  arena_.release("lnf.rstd");
  arena_.release(residual_tensor(L));
  for (std::int64_t l = L - 1; l >= 0; --l) {
    if (k == 0) {
      layer_backward(l, false, !selective, residual_tensor(l));
      continue;
    }
    const std::int64_t a = l / k * k;
    if (l == std::min(a + k, L) - 1)  // entering a segment from above: recompute it
      for (std::int64_t j = a; j <= l; ++j) {
        Pass p;
        p.rec = true;
        p.xin = j == a ? residual_tensor(a) : residual_tensor(j, true);
        p.xout = residual_tensor(j + 1, true);
        p.xout_dies = j == l;
        layer_forward(j, p);
      }
    layer_backward(l, true, true, l == a ? residual_tensor(a) : residual_tensor(l, true));
  }
  phase("bwd.embed");
  const Buf index = arena_.acquire("embed.token_index"), offsets = arena_.acquire("embed.token_offsets");
  embedding_backward(tokens, dx, get("wte.grad"), get("wpe.grad"), B, T, C, V, c.context, index.as<std::int32_t>(),
                     offsets.as<std::int32_t>());
  arena_.release("embed.token_index");
  arena_.release("embed.token_offsets");
  arena_.release("dx");
  arena_.release("tokens");
  return loss;
}

}  // namespace lab::ref
