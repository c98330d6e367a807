// What autograd saves in eager PyTorch, op by op. Element types follow the PyTorch rules named in
// each item's source: autocast casts matmul inputs to 16 bits (one copy per call, never cached) and
// caches 16-bit copies of leaf weights; the residual stream stays FP32 under autocast (FP32 + 16-bit
// promotes to FP32); bmm saves reshaped copies of non-viewable q/k/v. Checked against fixtures.
#include "memory/pytorch_eager.hpp"
#include "util/checked.hpp"

namespace lab {

PytorchImplementation default_implementation(const TransformerSpec& m) {
  return m.learned_positions ? PytorchImplementation::nanogpt : PytorchImplementation::hf_llama;
}
bool nanogpt_style(const Scenario& s) { return s.framework.implementation == PytorchImplementation::nanogpt; }
bool from_scratch_style(const Scenario& s) { return s.framework.implementation == PytorchImplementation::from_scratch; }
const char* implementation_mismatch(const Scenario& s) {
  const auto& m = s.model;
  switch (s.framework.implementation) {
    case PytorchImplementation::nanogpt:
      if (!m.learned_positions) return "'nanogpt' is GPT-2's code, with learned positions; this model has none (use \"hf_llama\" or \"from_scratch\")";
      return kv_heads_of(m) == m.heads ? nullptr : "'nanogpt' fuses q, k, v with one K and V head per query head; this model groups them (kv_heads < heads)";
    case PytorchImplementation::hf_llama:
      return m.learned_positions ? "'hf_llama' applies rotary positions; this model learns its positions (use \"nanogpt\")" : nullptr;
    case PytorchImplementation::from_scratch:
      // The per-projection flags, not the `biases` shorthand: a model can say biases true and then
      // turn each projection's off (the workbench's field editor sends both).
      if (m.learned_positions || m.norm != NormKind::rmsnorm || m.mlp != MlpKind::swiglu ||
          m.qkv_bias || m.attn_out_bias || m.mlp_bias || m.norm_bias)
        return "'from_scratch' is a Llama-style course model (RMSNorm, SwiGLU, rotary positions, no biases); this model is not";
      if (s.flash_attention) return "'from_scratch' writes attention by hand (Q K^T, mask, softmax); flash_attention needs library attention";
      return nullptr;
  }
  return nullptr;
}
bool architecture_dropout(const TransformerSpec& m) {
  // GPT-2 (Radford et al. 2019; HF config resid/embd/attn_pdrop 0.1) trains with dropout; Llama
  // (Touvron et al. 2023, Meta's reference code) has no dropout layers.
  return m.mlp == MlpKind::gelu && m.norm == NormKind::layernorm && m.learned_positions;
}

namespace {

struct Types {
  bool fp32, autocast, pure16, cuda, v113;
  std::int64_t x;        // residual stream element (FP32 under autocast: promotion)
  std::int64_t linear;   // matmul output element
  std::int64_t input;    // a matmul input as saved (autocast: its 16-bit cast)
};

Types types_of(const Scenario& s) {
  Types t{};
  t.autocast = is_autocast(s.precision);
  t.pure16 = s.precision == Precision::fp16 || s.precision == Precision::bf16;
  t.fp32 = !t.autocast && !t.pure16;
  t.cuda = s.framework.build == PytorchBuild::cuda;
  t.v113 = s.framework.build == PytorchBuild::cpu_1_13;
  t.x = t.pure16 ? 2 : 4;
  t.linear = t.fp32 ? 4 : 2;
  t.input = t.fp32 ? 4 : 2;
  return t;
}

// A dropout mask: CUDA's native_dropout saves a 1-byte bool mask; the CPU path multiplies by a
// mask tensor of the input's own type (aten/src/ATen/native/Dropout.cpp, is_fused_kernel_acceptable).
std::int64_t mask_bytes(const Types& t, std::int64_t elements, std::int64_t input_element) {
  return mul(elements, t.cuda ? 1 : input_element);
}

// A norm layer on the residual stream (n = s·b rows of h).
std::int64_t norm_bytes(const Types& t, NormKind kind, std::int64_t sbh, std::int64_t sb) {
  if (kind == NormKind::layernorm)
    // native_layer_norm saves its input and the mean and rstd per row: FP32 on CUDA (the op math
    // type), the input's type in 1.13's CPU kernel.
    return add(mul(t.x, sbh), mul(2, t.cuda ? 4 : t.x, sb));
  // RMSNorm as Meta/HF write it: x.float() (saved by pow and by the multiply; for 16-bit x these are
  // two separate FP32 copies), rsqrt's result, the normalized tensor (saved by "* weight"); 1.13's
  // mean.dim also saves its input (x^2); pure 16-bit: type_as(x) makes the 16-bit copy "* weight" saves.
  std::int64_t b = add(mul(4, sbh), mul(4, sb), mul(t.pure16 ? 2 : 4, sbh));
  if (t.pure16) b = add(b, mul(4, sbh));
  if (t.v113) b = add(b, mul(4, sbh));
  return b;
}

void push(std::vector<EagerItem>& v, const char* op, std::int64_t bytes, const char* source) {
  if (bytes > 0) v.push_back({op, bytes, source});
}

void sum_items(const Scenario& s, EagerActivations& e) {
  for (const auto& i : e.per_layer) e.per_layer_bytes = add(e.per_layer_bytes, i.bytes);
  for (const auto& i : e.model) e.model_bytes = add(e.model_bytes, i.bytes);
  e.saved_bytes = add(mul(s.model.layers, e.per_layer_bytes), e.model_bytes);
}

// A course assignment's Llama (scripts/measure-pytorch.py, ScratchModel): every op hand-written, so
// autograd saves each elementary op's operands. Measured on CPU 1.13; the CUDA autocast terms follow
// autocast's FP32 op list (exp, sum, logsumexp run in FP32), not measured.
void scratch_items(const Scenario& s, const Types& t, EagerActivations& e) {
  const auto& m = s.model;
  const std::int64_t b = s.batch_size, n = s.seq_len, h = m.hidden, a = m.heads, f = m.mlp_hidden;
  const std::int64_t hd = head_dim_of(m), sb = mul(n, b), sbh = mul(sb, h), sbf = mul(sb, f), bas = mul(b, a, n);
  const std::int64_t sbq = mul(sb, q_width(m));  // q, and K/V once repeated for every query head
  const std::int64_t scores = mul(bas, n), bsv = mul(sb, m.vocab);
  const bool cuda_autocast = t.cuda && t.autocast;
  const std::int64_t le = t.linear, in = t.input;
  const std::int64_t se = cuda_autocast ? 4 : le;  // exp and sum: FP32 on CUDA autocast's list
  e.residual_element_bytes = t.x;
  e.linear_element_bytes = le;
  e.score_element_bytes = se;
  // x / sqrt(mean(x*x) + eps) * g on x.float(): x as FP32 (the input itself, or its FP32 copy), x*x
  // (1.13's mean saves its input), sqrt's output (saved by the division), the quotient (saved by * g).
  const std::int64_t norm = add(mul(t.v113 ? 12 : 8, sbh), mul(4, sb));
  const char* norm_src = "hand-written RMSNorm in FP32: x, x*x (1.13's mean), sqrt(...) and the quotient";
  auto& L = e.per_layer;
  push(L, "layer.norm_1", norm, norm_src);
  if (!t.autocast) {
    push(L, "layer.attn.q", mul(in, sbh), "x @ W saves x (q, k and v share it)");
  } else {
    for (const char* op : {"layer.attn.q", "layer.attn.k", "layer.attn.v"})
      push(L, op, mul(2, sbh), "autocast casts x for each matmul; each cast is saved");
  }
  push(L, "layer.attn.rope", mul(2, n, hd, t.pure16 ? 2 : 4),
       "RoPE: cos[positions] and sin[positions] are new tensors for q and for k, saved by the multiplies");
  // GQA: repeat_interleave copies K and V for every query head (saving its int64 index, a entries,
  // twice); the matmuls then save the repeated, query-wide copies, so activations do not shrink.
  if (kv_heads_of(m) != a) push(L, "layer.attn.repeat_kv", mul(2, 8, a), "repeat_interleave saves its index (int64, one per head) for K and V");
  push(L, "layer.attn.scores", mul(2, in, sbq), "q @ k^T saves q and k (the rotated tensors, or their 16-bit casts)");
  push(L, "layer.attn.mask", mul(n, n), "masked_fill saves the inverted boolean mask (1 byte per s*s)");
  push(L, "layer.attn.softmax", add(mul(8, bas), mul(se, scores), mul(se, bas)),
       "exp(x - max) / sum: max's int64 indices, exp's output, the row sums");
  push(L, "layer.attn.av", add(mul(in, scores), mul(in, sbq)),
       "att @ v saves the attention weights and a copy of v (its heads transposed)");
  push(L, "layer.attn.proj", mul(in, sbq), "y @ Wo saves the merged heads (a copy)");
  push(L, "layer.norm_2", norm, norm_src);
  push(L, "layer.mlp.gate", mul(in, sbh), "h @ W_gate saves h (shared with the up projection)");
  if (t.autocast) push(L, "layer.mlp.up", mul(2, sbh), "autocast casts h again for the up projection");
  push(L, "layer.mlp.silu_mul", mul(4, le, sbf), "g * sigmoid(g) * u saves sigmoid's output, g, g*sigmoid(g) and u");
  push(L, "layer.mlp.proj", mul(le, sbf), "h @ W_down saves its input");

  auto& M = e.model;
  push(M, "embedding", mul(8, sb), "E[idx] saves the int64 indices");
  push(M, "final_norm", norm, norm_src);
  // A tied head multiplies by E.T, a view: autocast casts it at each use and never caches it.
  push(M, "head", add(mul(in, sbh), m.tied_head && t.autocast ? mul(2, m.vocab, h) : 0),
       "x @ W_head saves x (a tied head's E.T is cast at each use under autocast; the matmul saves the copy)");
  // logsumexp saves its input and output, gather the int64 targets; the input is the logits
  // themselves except on CUDA autocast, whose logsumexp (FP32 list) saves an FP32 copy.
  e.loss_element_bytes = se;
  // CUDA autocast's graph also saves the 16-bit logits (measured on an H100: one storage with the kept
  // logits, so the timeline counts them once).
  e.loss_saves_logits_bytes = mul(le, bsv);
  push(M, "loss", add(mul(se, bsv), mul(8, sb), mul(se, sb), cuda_autocast ? e.loss_saves_logits_bytes : 0),
       "logsumexp(logits) - logits[target]: logsumexp saves the logits and its output, gather the targets");
  sum_items(s, e);
}

}  // namespace

namespace {

// nanoGPT's and Hugging Face's code: library ops (nn.Linear, F.softmax, F.cross_entropy, ...).
void library_items(const Scenario& s, const Types& t, EagerActivations& e) {
  const auto& m = s.model;
  const bool gpt2 = nanogpt_style(s), flash = s.flash_attention, drop = s.dropout;
  const std::int64_t b = s.batch_size, n = s.seq_len, h = m.hidden, a = m.heads, f = m.mlp_hidden;
  const std::int64_t sb = mul(n, b), sbh = mul(sb, h), sbf = mul(sb, f), scores = mul(a, n, n, b);
  // q's width, and K/V's once Hugging Face's repeat_kv has copied them for every query head (GQA);
  // nanoGPT's fused q/k/v output is q + 2 kv wide.
  const std::int64_t sbq = mul(sb, q_width(m)), sb_qkv = mul(sb, add(q_width(m), mul(2, kv_width(m))));
  const std::int64_t bsv = mul(sb, m.vocab);
  e.residual_element_bytes = t.x;
  e.linear_element_bytes = t.linear;
  // Softmax: nanoGPT's F.softmax runs in the scores' type, except that CUDA autocast lists softmax
  // as an FP32 op; the Llama code calls softmax(att.float()) and so is always FP32.
  e.score_element_bytes = gpt2 ? (t.fp32 || (t.autocast && t.cuda) ? 4 : 2) : 4;
  const std::int64_t se = e.score_element_bytes;
  auto& L = e.per_layer;
  const char* norm_src = m.norm == NormKind::layernorm
      ? "native_layer_norm saves its input and FP32 mean/rstd per row"
      : "RMSNorm (x * rsqrt(mean(x^2) + eps) * w): x as FP32, rsqrt, the normalized x; 1.13's mean saves x^2";
  push(L, gpt2 ? "layer.ln_1" : "layer.norm_1", norm_bytes(t, m.norm, sbh, sb), norm_src);
  // Linear saves its input; under autocast the 16-bit cast of it, one per call (casts of non-leaf
  // tensors are not cached), so separate q/k/v projections save three copies.
  if (gpt2 || !t.autocast) {
    push(L, gpt2 ? "layer.attn.qkv" : "layer.attn.q", mul(t.input, sbh), "Linear saves its input (autocast: its 16-bit cast)");
  } else {
    for (const char* op : {"layer.attn.q", "layer.attn.k", "layer.attn.v"})
      push(L, op, mul(2, sbh), "autocast casts each projection's input to 16 bits; each cast is saved");
  }
  // RoPE (q*cos + rotate_half(q)*sin) saves cos and sin, which Hugging Face builds once per forward for
  // every layer (a model item below); the rotated q, k are new tensors, FP32 under autocast (promotion
  // by the FP32 cos/sin) until the matmul casts them.
  const std::int64_t qk_e = gpt2 ? t.linear : (t.fp32 ? 4 : 2);
  if (flash) {
    // scaled_dot_product_attention (PyTorch 2.x flash / memory-efficient kernels) saves q, k, v, its
    // output and the FP32 log-sum-exp per row; no score matrix, no mask (dropout via the Philox seed).
    const std::int64_t qkv = gpt2 ? mul(t.linear, sb_qkv) : add(mul(2, qk_e, sbq), mul(t.linear, sbq));
    push(L, "layer.attn.sdpa", add(qkv, mul(t.linear, sbq), mul(4, a, n, b)),
         "scaled_dot_product_attention saves q, k, v, its output and the log-sum-exp (FP32, b*a*s)");
  } else {
    // q @ k^T: bmm saves reshaped copies of q and k^T when they are not viewable as 3-D (b > 1 with
    // q, k sliced from the fused qkv output); with b = 1 they stay views of the whole qkv tensor.
    const std::int64_t qk = gpt2 && b == 1 ? mul(t.linear, sb_qkv) : mul(2, qk_e, sbq);
    push(L, "layer.attn.scores", qk, "bmm saves q and k (copies unless viewable: b = 1 keeps views of qkv)");
    // nanoGPT's masked_fill saves its boolean mask; Hugging Face adds its float mask (nothing saved).
    if (gpt2) push(L, "layer.attn.mask", mul(n, n), "masked_fill saves the causal mask (bool, 1 byte per s*s element)");
    push(L, "layer.attn.softmax", mul(se, scores), "softmax saves its output (FP32 on CUDA autocast, and in the Llama code)");
    std::int64_t att = 0;  // the attention weights entering att @ v, when a new tensor
    if (drop) {
      push(L, "layer.attn.dropout", mask_bytes(t, scores, se), "dropout saves its mask (CUDA: bool; CPU: the input's type)");
      att = mul(t.autocast ? 2 : se, scores);
    } else if (se == 4 && !t.fp32) {
      att = mul(2, scores);  // FP32 softmax output cast to 16 bits for the matmul (autocast or type_as)
    }
    const std::int64_t v = gpt2 && b == 1 ? 0 : mul(t.linear, sbq);
    push(L, "layer.attn.av", add(att, v), "bmm saves the attention weights (when a new tensor) and v (a copy unless viewable)");
  }
  // On CUDA, SDPA's output is laid out (b, s, heads, d): merging the heads back is already contiguous,
  // so Linear saves SDPA's own saved output, a storage counted once (measured on an H100).
  if (!(s.flash_attention && t.cuda))
    push(L, "layer.attn.proj", mul(t.linear, sbq), "Linear saves its input (the contiguous heads-merged output)");
  if (drop) push(L, "layer.attn.resid_dropout", mask_bytes(t, sbh, t.linear), "dropout mask after the projection");
  push(L, gpt2 ? "layer.ln_2" : "layer.norm_2", norm_bytes(t, m.norm, sbh, sb), norm_src);
  if (m.mlp == MlpKind::gelu) {
    push(L, gpt2 ? "layer.mlp.fc" : "layer.mlp.gate", mul(t.input, sbh), "Linear saves its input (autocast: its 16-bit cast)");
    push(L, "layer.mlp.gelu", mul(t.linear, sbf), "GELU saves its input");
  } else {
    push(L, gpt2 ? "layer.mlp.fc" : "layer.mlp.gate", mul(t.input, sbh), "Linear saves its input (autocast: its 16-bit cast)");
    if (t.autocast) push(L, "layer.mlp.up", mul(2, sbh), "autocast casts the up projection's input again");
    push(L, "layer.mlp.silu_mul", mul(3, t.linear, sbf), "SiLU saves its input; silu(g) * u saves both factors");
  }
  push(L, "layer.mlp.proj", mul(t.linear, sbf), "Linear saves its input");
  if (drop) push(L, "layer.mlp.resid_dropout", mask_bytes(t, sbh, t.linear), "dropout mask after the MLP");

  auto& M = e.model;
  push(M, "embedding", add(mul(8, sb), gpt2 ? mul(8, n) : 0), "embedding saves its int64 indices (tokens; positions arange)");
  if (drop) push(M, "embedding.dropout", mask_bytes(t, sbh, t.x), "dropout mask after the embeddings");
  // Hugging Face's LlamaRotaryEmbedding: cos and sin (1 x s x head dim, the hidden states' type) made
  // once per forward and saved by every block's multiplies: one storage each for the whole model.
  if (!gpt2)
    push(M, "layer.attn.rope", mul(2, n, head_dim_of(m), t.pure16 ? 2 : 4),
         "RoPE's cos and sin, built once per forward for every block, saved by the multiplies");
  push(M, "final_norm", norm_bytes(t, m.norm, sbh, sb), norm_src);
  push(M, "head", mul(t.input, sbh), "Linear saves its input (autocast: its 16-bit cast)");
  e.loss_element_bytes = t.pure16 ? 2 : 4;
  // CUDA autocast: the loss's graph also saves the 16-bit logits themselves (measured on an H100), a
  // storage the loop keeps anyway: the timeline counts them once, as logits.
  const bool cuda_autocast = t.cuda && t.autocast;
  if (cuda_autocast) e.loss_saves_logits_bytes = mul(2, bsv);
  push(M, "loss", add(mul(e.loss_element_bytes, bsv), mul(8, sb), e.loss_saves_logits_bytes),
       "cross_entropy: log_softmax saves its output (FP32 under autocast), nll_loss the int64 targets");

  sum_items(s, e);
}

}  // namespace

EagerActivations eager_activations(const Scenario& s) {
  EagerActivations e;
  const Types t = types_of(s);
  const auto& m = s.model;
  const std::int64_t h = m.hidden, f = m.mlp_hidden, sb = mul(s.seq_len, s.batch_size);
  if (from_scratch_style(s)) scratch_items(s, t, e);
  else library_items(s, t, e);
  if (t.autocast) {
    // autocast caches the 16-bit cast of every leaf weight it casts (aten/src/ATen/autocast_mode.cpp,
    // cached_cast) until the autocast region exits; the matmuls save those copies for backward.
    const std::int64_t mlp_w = m.mlp == MlpKind::gelu ? mul(2, h, f) : mul(3, h, f);
    const std::int64_t qkv_w = mul(h, add(q_width(m), mul(2, kv_width(m))));  // GQA: K, V are kv wide
    e.weight_cache_per_layer_bytes = mul(2, add(qkv_w, mul(q_width(m), h), mlp_w));
    // The head's copy, unless it is x @ E.T (from-scratch tied head): a view, cast at each use.
    e.weight_cache_model_bytes = from_scratch_style(s) && m.tied_head ? 0 : mul(2, m.vocab, h);
    e.weight_cache_attention_in_bytes = mul(2, qkv_w);
    e.weight_cache_down_bytes = mul(2, f, h);
    e.weight_cache_bytes = add(mul(m.layers, e.weight_cache_per_layer_bytes), e.weight_cache_model_bytes);
    // Biases per projection (Qwen2: q/k/v only).
    const std::int64_t mlp_b = !m.mlp_bias ? 0 : (m.mlp == MlpKind::gelu ? add(f, h) : add(f, f, h));
    const std::int64_t attn_b = add(m.qkv_bias ? add(q_width(m), mul(2, kv_width(m))) : 0, m.attn_out_bias ? h : 0);
    e.bias_cache_bytes = mul(2, m.layers, add(attn_b, mlp_b));
  }
  e.input_bytes = mul(2, 8, sb);
  e.logits_bytes = mul(t.linear, sb, m.vocab);
  return e;
}

}  // namespace lab
