// Live bytes through one PyTorch step. The loop it describes (scripts/measure-pytorch.py):
//   optimizer.zero_grad(); with autocast: logits, loss = model(x, y); loss.backward(); optimizer.step()
// and the loop keeps logits and loss until after optimizer.step(). Each constant names its behaviour.
#include "memory/step_phases.hpp"
#include <algorithm>
#include "util/checked.hpp"

namespace lab {

std::int64_t PhaseBytes::total() const {
  return add(parameters, gradients, gradient_buckets, optimizer_state, activations, autocast_cache, logits, inputs,
             add(transient, buffers, cuda_workspace));
}

std::int64_t cuda_workspace_bytes(const Scenario& s) {
  if (s.framework.build != PytorchBuild::cuda) return 0;
  // Compute capability major of the catalogue's GPUs; a custom device counts as pre-Hopper.
  const std::string& id = s.device.id;
  const bool big = id.rfind("h100", 0) == 0;  // Hopper (9.0); V100 7.0, T4 7.5, A100 8.0, Ada 8.9
  const std::int64_t per_handle = big ? 32LL * 1024 * 1024 : 4096LL * 1024 * 2 + 16LL * 1024 * 8;
  const std::int64_t handles = s.framework.mode == StepMode::train ? 2 : 1;
  return add(mul(handles, per_handle), 1024LL * 1024);  // + cuBLASLt's CUBLASLT_WORKSPACE_SIZE default
}

std::int64_t model_buffer_bytes(const Scenario& sc) {
  if (sc.framework.build != PytorchBuild::cuda) return 0;
  const TransformerSpec& m = sc.model;
  const bool pure16 = sc.precision == Precision::fp16 || sc.precision == Precision::bf16;
  const std::int64_t fe = pure16 ? 2 : 4, ctx = m.context, hd = head_dim_of(m);  // model.to(dtype) casts float buffers
  // What each style registers (register_buffer), as its code does:
  if (from_scratch_style(sc))  // the course's code: a bool causal mask and cos/sin (ctx x hd/2) per block
    return mul(m.layers, add(mul(ctx, ctx), mul(2, fe, ctx, hd / 2)));
  if (nanogpt_style(sc))  // nanoGPT: its `bias` mask (FP32 ctx x ctx) per block, only without flash
    return sc.flash_attention ? 0 : mul(m.layers, fe, ctx, ctx);
  // Hugging Face's Llama: one LlamaRotaryEmbedding per model, its inv_freq (hd/2); no mask buffer.
  return mul(fe, hd / 2);
}

// Hugging Face's eager attention mask (hf_llama without flash): s x s in the hidden states' type,
// built at the start of each forward (expanded over the batch as a view) and added to the scores,
// so nothing saves it; live until the model's forward returns (in the reference script, which
// computes the loss inside forward, through the loss).
// Also its position ids (int64, 1 x s), which feed RoPE under no_grad.
static std::int64_t hf_mask_bytes(const Scenario& s) {
  if (nanogpt_style(s) || from_scratch_style(s)) return 0;
  const bool pure16 = s.precision == Precision::fp16 || s.precision == Precision::bf16;
  return add(s.flash_attention ? 0 : mul(pure16 ? 2 : 4, s.seq_len, s.seq_len), mul(8, s.seq_len));
}

namespace {

struct Shapes {
  std::int64_t tensors = 0;        // parameter tensors
  std::int64_t largest = 0;        // elements of the largest one
  std::int64_t layer_params = 0;   // elements of one block
  std::int64_t top_params = 0;     // head + final norm (their gradients appear first in backward)
  std::int64_t after_attention_params = 0;
};

// Parameter tensors of the eager code: GPT-2 style fuses q/k/v (one Linear); Llama style has four.
Shapes shapes_of(const Scenario& sc) {
  const TransformerSpec& m = sc.model;
  const ParameterBreakdown p = count_parameters(m);
  // Tensors per block: a weight per Linear plus a bias where that projection has one (Qwen2: q/k/v only).
  const std::int64_t norm = m.norm == NormKind::layernorm ? (m.norm_bias ? 2 : 1) : 1;
  const std::int64_t qkv_linears = nanogpt_style(sc) ? 1 : 3, mlp_linears = m.mlp == MlpKind::gelu ? 2 : 3;
  const std::int64_t block = add(mul(qkv_linears, m.qkv_bias ? 2 : 1), m.attn_out_bias ? 2 : 1,
                                 mul(mlp_linears, m.mlp_bias ? 2 : 1), mul(m.norms_per_layer, norm));
  Shapes s;
  s.tensors = add(1, m.learned_positions ? 1 : 0, mul(m.layers, block), norm, m.tied_head ? 0 : 1);
  const std::int64_t q = q_width(m), kv = kv_width(m);
  const std::int64_t qkv = nanogpt_style(sc) ? mul(m.hidden, add(q, mul(2, kv))) : mul(m.hidden, std::max(q, kv));
  s.largest = std::max({mul(m.vocab, m.hidden), p.position_embedding, mul(m.hidden, m.mlp_hidden), qkv});
  s.layer_params = p.per_layer;
  s.top_params = add(p.final_norm, m.tied_head ? p.token_embedding : p.head);
  // Block parameters whose gradients exist when backward reaches the attention core: the MLP,
  // norm_2 and the output projection.
  const std::int64_t d = m.hidden, f = m.mlp_hidden, bias = m.mlp_bias ? 1 : 0;
  const std::int64_t mlp = m.mlp == MlpKind::gelu ? add(mul(2, d, f), mul(add(f, d), bias))
                                                  : add(mul(3, d, f), mul(add(f, f, d), bias));
  s.after_attention_params = add(mlp, p.final_norm, mul(q, d), m.attn_out_bias ? d : 0);
  return s;
}

}  // namespace

// The parameter tensors (elements) in the order model.parameters() yields them in the measured code
// (scripts/measure-pytorch.py): attributes in assignment order, a module's own parameters before its
// submodules'. For Adam's per-parameter temporaries two blocks are enough (every consecutive pair of
// tensors appears); ZeRO's partitions need every block (core/parallel/parallel_pytorch.cpp).
std::vector<std::int64_t> parameter_order(const Scenario& sc, std::int64_t max_blocks) {
  const TransformerSpec& m = sc.model;
  const std::int64_t d = m.hidden, f = m.mlp_hidden, V = m.vocab, q = q_width(m), kv = kv_width(m);
  std::vector<std::int64_t> v;
  auto linear = [&](std::int64_t in, std::int64_t out, bool bias) { v.push_back(mul(in, out)); if (bias) v.push_back(out); };
  auto norm = [&] { v.push_back(d); if (m.norm == NormKind::layernorm && m.norm_bias) v.push_back(d); };
  const std::int64_t blocks = std::min<std::int64_t>(m.layers, max_blocks);
  if (from_scratch_style(sc)) {
    // ScratchModel: the embedding, its own head matrix (untied), then each block's seven matrices
    // (own parameters) before its two norms' gains, then the final norm.
    v.push_back(mul(V, d));
    if (!m.tied_head) v.push_back(mul(d, V));
    for (std::int64_t i = 0; i < blocks; ++i) {
      v.push_back(mul(d, q)); v.push_back(mul(d, kv)); v.push_back(mul(d, kv)); v.push_back(mul(q, d));
      v.push_back(mul(d, f)); v.push_back(mul(d, f)); v.push_back(mul(f, d));
      v.push_back(d); v.push_back(d);
    }
    v.push_back(d);
    return v;
  }
  v.push_back(mul(V, d));
  if (m.learned_positions) v.push_back(mul(m.context, d));
  for (std::int64_t i = 0; i < blocks; ++i) {
    for (int n = 0; n < m.norms_per_layer; ++n) norm();
    if (nanogpt_style(sc)) linear(d, add(q, mul(2, kv)), m.qkv_bias);
    else { linear(d, q, m.qkv_bias); linear(d, kv, m.qkv_bias); linear(d, kv, m.qkv_bias); }
    linear(q, d, m.attn_out_bias);
    if (m.mlp == MlpKind::gelu) { linear(d, f, m.mlp_bias); linear(f, d, m.mlp_bias); }
    else { linear(d, f, m.mlp_bias); linear(d, f, m.mlp_bias); linear(f, d, m.mlp_bias); }
  }
  norm();
  if (!m.tied_head) v.push_back(mul(d, V));
  return v;
}

std::int64_t per_parameter_adam_elements(const std::vector<std::int64_t>& v) {
  std::int64_t best = 0;
  for (std::size_t i = 0; i < v.size(); ++i) best = std::max(best, add(mul(2, v[i]), i ? v[i - 1] : 0));
  return best;
}

namespace {

// _single_tensor_adam(w): per parameter, denom = (exp_avg_sq.sqrt() / bc2_sqrt).add_(eps) makes two
// temporaries of its size, while the previous parameter's denom is still bound to the loop's variable
// (freed only when the name is rebound): the maximum over consecutive pairs of 2 * this + previous.
std::int64_t adam_temporary_elements(const Scenario& sc) { return per_parameter_adam_elements(parameter_order(sc, 2)); }

std::int64_t item_bytes(const std::vector<EagerItem>& items, const char* op) {
  for (const auto& i : items)
    if (i.op == op) return i.bytes;
  return 0;
}

std::int64_t optimizer_vectors(Optimizer o) { return o == Optimizer::sgd ? 0 : (o == Optimizer::momentum ? 1 : 2); }

// Live at a block's softmax in the forward beyond what autograd has saved (`grad`), or everything
// live there under no_grad: the reference code's local variables (block input x, norm output h,
// q/k/v or the fused qkv output, RoPE'd q and k) and the score tensors around the softmax.
// Bytes of the K (or V) tensor a block's code keeps bound after GQA's repeat, per element: a copy for
// every query head (Hugging Face's repeat_kv, the course's repeat_interleave), except that repeat_kv
// with one K/V head (MQA) reshapes an expanded view, no copy; without GQA, K itself.
std::int64_t kv_local_elements(const Scenario& s) {
  const TransformerSpec& m = s.model;
  const std::int64_t sb = mul(s.seq_len, s.batch_size), kv = kv_heads_of(m);
  if (kv == m.heads || (kv == 1 && !from_scratch_style(s))) return mul(sb, kv_width(m));
  return mul(sb, q_width(m));
}

std::int64_t softmax_forward_live(const Scenario& s, const EagerActivations& e, bool grad, bool locals_only = false) {
  const bool autocast = is_autocast(s.precision), gpt2 = nanogpt_style(s);
  const bool pure16 = s.precision == Precision::fp16 || s.precision == Precision::bf16;
  const std::int64_t sbh = mul(s.seq_len, s.batch_size, s.model.hidden);
  const std::int64_t S = mul(s.model.heads, s.seq_len, s.seq_len, s.batch_size);
  const std::int64_t le = e.linear_element_bytes, xe = e.residual_element_bytes, se = e.score_element_bytes;
  const std::int64_t rope_e = pure16 ? 2 : 4;  // RoPE'd q, k: FP32 under autocast (FP32 cos/sin)
  std::int64_t live = 0;
  if (!grad) live = add(live, mul(xe, sbh));            // x: saved by norm_1 when recording
  if (!grad || autocast) live = add(live, mul(xe, sbh));  // h: saved by the projections unless cast
  if (gpt2) {
    // q, k, v are views of the fused qkv output; with b = 1 (or SDPA) those views are what is saved.
    if (!grad || (s.batch_size > 1 && !s.flash_attention)) live = add(live, mul(3, le, sbh));
  } else {
    // RoPE'd q, k: saved by the scores' bmm only when viewable as 3-D (the from-scratch stack is
    // contiguous; rotate_half's result keeps q's transposed strides, so bmm saves copies when b > 1).
    const bool rope_saved = from_scratch_style(s) || s.batch_size == 1 || s.flash_attention;
    const std::int64_t sbq = mul(s.seq_len, s.batch_size, q_width(s.model)), kv_local = kv_local_elements(s);
    if (!grad || autocast || !rope_saved) live = add(live, mul(rope_e, add(sbq, kv_local)));
    if (!grad || !s.flash_attention) live = add(live, mul(le, kv_local));                  // v, not saved yet
  }
  if (locals_only) return live;
  if (s.flash_attention) return grad ? live : add(live, mul(le, sbh), mul(4, s.model.heads, s.seq_len, s.batch_size));
  // At masked_fill: the scaled scores and the masked copy, and the bool mask (saved when recording).
  // At softmax: the masked scores; the Llama code's .float() copy of them; CUDA autocast's FP32 cast
  // of nanoGPT's 16-bit scores (softmax is on autocast's FP32 list); its output. When recording, the
  // softmax output is already counted as saved (attention_held), so it is subtracted from both.
  const std::int64_t bas = mul(s.model.heads, s.seq_len, s.batch_size);
  if (from_scratch_style(s)) {
    // exp(x - max) / sum: the masked scores (the caller's att) stay bound; under no_grad at the
    // division also exp's output and the row sums (saved, so counted, when recording) and the quotient.
    if (grad) return add(live, mul(le, S), mul(se, S));
    return add(live, mul(le, S), mul(2, se, S), mul(se, bas));
  }
  if (!gpt2) {
    // Hugging Face: att + mask promotes to the mask's (hidden states') type, softmax(dtype=float32)
    // writes FP32 (pure 16-bit first converts its input), .to(q.dtype) casts back (q is FP32 under
    // autocast: no copy). The scores and the sum, then the sum and the softmax's output (and copies).
    const std::int64_t ae = pure16 ? 2 : 4;
    // CPU 1.13 adds 16-bit scores to the FP32 mask through an FP32 copy of the scores (CUDA casts inside).
    const bool copy = s.framework.build == PytorchBuild::cpu_1_13 && le != ae;
    const std::int64_t at_add = mul(add(le, ae, copy ? ae : 0), S);
    const std::int64_t at_softmax = mul(add(ae, 4, pure16 ? 4 : 0), S);
    const std::int64_t at_cast = mul(add(ae, 4, pure16 ? 2 : 0), S);
    return add(live, std::max({at_add, at_softmax, at_cast}) - (grad ? mul(se, S) : 0));
  }
  const std::int64_t at_mask = add(mul(2, le, S), grad ? 0 : mul(s.seq_len, s.seq_len));
  std::int64_t at_softmax = add(mul(le, S), mul(se, S));
  if (le != 4 && autocast && e.score_element_bytes == 4) at_softmax = add(at_softmax, mul(4, S));
  return add(live, std::max(at_mask, at_softmax) - (grad ? mul(se, S) : 0));
}

}  // namespace

StepPhases step_phases(const Scenario& s, const EagerActivations& e) {
  StepPhases r;
  const auto& m = s.model;
  const auto& k = s.framework;
  const bool pure16 = s.precision == Precision::fp16 || s.precision == Precision::bf16;
  const std::int64_t pe = pure16 ? 2 : 4;  // parameters, gradients and optimizer state share the type
  const Shapes sh = shapes_of(s);
  const std::int64_t N = count_parameters(m).total;
  const std::int64_t P = mul(N, pe), G = P;
  // Optimizer state: zeros_like(param) per vector; 1.13's Adam also keeps a 4-byte FP32 'step' tensor
  // per parameter (2.x keeps it on the CPU unless capturable/fused, so not in GPU memory); SGD's
  // momentum has none (measured: fixture 02's state is exactly the buffers).
  std::int64_t O = mul(optimizer_vectors(s.optimizer), P);
  if (k.build == PytorchBuild::cpu_1_13 && s.optimizer == Optimizer::adam) O = add(O, mul(4, sh.tensors));
  r.parameter_tensors = sh.tensors;
  r.largest_tensor_bytes = mul(sh.largest, pe);
  if (s.optimizer == Optimizer::adam) {
    switch (k.optimizer_impl) {
      case OptimizerImpl::per_parameter: r.optimizer_temporary_bytes = mul(adam_temporary_elements(s), pe); break;
      // _multi_tensor_adam(w): exp_avg_sq_sqrt = _foreach_sqrt(...) over the whole model (2.x); 1.13
      // adds denom = _foreach_add(exp_avg_sq_sqrt, eps), a second model-sized list.
      case OptimizerImpl::foreach: r.optimizer_temporary_bytes = mul(k.build == PytorchBuild::cpu_1_13 ? 2 : 1, P); break;
      // _fused_adam(w): one kernel updates in place.
      case OptimizerImpl::fused: r.optimizer_temporary_bytes = 0; break;
    }
  }
  // SGD and momentum (weight_decay 0, no nesterov) update in place; momentum's buffer is
  // clone(grad) at the first step, which is the optimizer state itself.

  const bool train = k.mode == StepMode::train;
  const bool t_autocast = is_autocast(s.precision), scratch = from_scratch_style(s);
  // autocast_scope "step": the region (and its cache of weight copies) stays open until step() ends.
  const bool region_open = t_autocast && k.autocast_scope == AutocastScope::step;
  const bool steady = k.step == StepKind::steady && train;
  const std::int64_t sb = mul(s.seq_len, s.batch_size), sbh = mul(sb, m.hidden);
  const std::int64_t bsv = mul(sb, m.vocab);
  const std::int64_t ids = mul(8, sb);  // int64 token ids; targets the same (inputs, made before the step)
  auto base = [&](const char* name) {
    PhaseBytes b;
    b.phase = name;
    b.parameters = P;
    b.optimizer_state = steady ? O : 0;
    // zero_grad(set_to_none=True) frees the gradients before the forward; "zero" keeps them.
    b.gradients = steady && k.zero_grad == ZeroGrad::zero ? G : 0;
    b.inputs = k.mode == StepMode::inference ? ids : mul(2, ids);
    return b;
  };
  PhaseBytes start = base("start");
  r.timeline.push_back(start);

  const std::int64_t cache_at_last_attention =
      add(mul(m.layers - 1, e.weight_cache_per_layer_bytes), e.weight_cache_attention_in_bytes, e.bias_cache_bytes);
  if (k.mode == StepMode::inference) {
    // torch.no_grad(): nothing is saved. The peak is at a block's softmax, in its MLP or at the head;
    // autocast's cache holds every weight copy made so far (the last block's, as the largest).
    PhaseBytes at = base("forward.layer.attention");
    at.phase = "forward.layer." + std::to_string(m.layers - 1) + ".attention";
    at.autocast_cache = cache_at_last_attention;
    // Hugging Face's per-forward locals: the mask and RoPE's cos/sin (not saved under no_grad).
    const std::int64_t hf_locals = nanogpt_style(s) || scratch ? 0
        : add(hf_mask_bytes(s), mul(2, s.seq_len, head_dim_of(m), pure16 ? 2 : 4));
    at.transient = add(softmax_forward_live(s, e, false), hf_locals);
    r.timeline.push_back(at);
    // In the MLP, the attention's locals are still bound (one Python function per block), and the
    // caller still holds the block's input: x0, q/k/v (or qkv), the attention weights, y, x1; then
    // GELU's input and output (h was rebound), or SwiGLU's h, gate, up, silu(gate) and the product.
    PhaseBytes mp = base("forward.layer.mlp");
    mp.phase = "forward.layer." + std::to_string(m.layers - 1) + ".mlp";
    mp.autocast_cache = add(mul(m.layers, e.weight_cache_per_layer_bytes), e.bias_cache_bytes);
    const std::int64_t le = e.linear_element_bytes, xe = e.residual_element_bytes;
    const std::int64_t sbf = mul(sb, m.mlp_hidden), scores = mul(m.heads, s.seq_len, s.seq_len, s.batch_size);
    const bool pure16 = s.precision == Precision::fp16 || s.precision == Precision::bf16;
    const std::int64_t kv_local = kv_local_elements(s), sbq = mul(sb, q_width(m));
    std::int64_t left = nanogpt_style(s) ? mul(3, le, sbh) : add(mul(pure16 ? 2 : 4, add(sbq, kv_local)), mul(le, kv_local));
    left = add(left, mul(le, sbh), mul(2, xe, sbh));  // y, x0 and x1
    if (s.flash_attention) left = add(left, mul(le, sbh));  // SDPA's output, before the head merge
    else left = add(left, mul(nanogpt_style(s) || from_scratch_style(s) ? e.score_element_bytes : (pure16 ? 2 : 4), scores));
    // GELU: its input and output; at the residual add, its output, the projection's output and the
    // new x. CPU 1.13 under autocast adds a temporary there: an FP32 copy of the 16-bit operand of
    // the mixed-type add (CUDA's kernels cast inside, with no copy).
    std::int64_t gelu = mul(2, le, sbf);
    if (k.build == PytorchBuild::cpu_1_13 && t_autocast)
      gelu = std::max(gelu, add(mul(le, sbf), mul(le, sbh), mul(4, sbh), mul(xe, sbh)));
    // SwiGLU: h, gate, up, silu(gate) (from scratch g * sigmoid(g), sigmoid's output freed) and the product.
    mp.transient = add(left, m.mlp == MlpKind::gelu ? gelu : add(mul(xe, sbh), mul(4, le, sbf)), hf_locals);
    r.timeline.push_back(mp);
    PhaseBytes hd = base("head");
    hd.autocast_cache = add(e.weight_cache_bytes, e.bias_cache_bytes);
    hd.logits = e.logits_bytes;
    hd.transient = add(mul(xe, sbh), t_autocast ? mul(2, sbh) : 0, hf_locals);  // the final norm's output (and its cast)
    r.timeline.push_back(hd);
  } else {
    // The saved tensors, split where backward releases them; token ids and targets are inputs.
    // Block i's saved tensors still held at its attention core's backward: everything up to the
    // softmax (or SDPA) — the norm, the q/k/v inputs, q and k, the mask, the softmax output.
    std::int64_t attention_held = 0;
    for (const auto& it : e.per_layer) {
      const std::string& op = it.op;
      if (op == "layer.ln_1" || op == "layer.norm_1" || op == "layer.attn.qkv" || op == "layer.attn.q" ||
          op == "layer.attn.k" || op == "layer.attn.v" || op == "layer.attn.scores" || op == "layer.attn.mask" ||
          op == "layer.attn.softmax" || op == "layer.attn.sdpa")
        attention_held = add(attention_held, it.bytes);
    }
    // The core's own gradients: softmax backward holds the gradient of its output and writes the
    // gradient of its input, both in the softmax's type (a*s^2*b each). SDPA's backward writes dq,
    // dk, dv and holds the output's gradient, plus flash-attention's FP32 dq accumulator (approximate).
    const std::int64_t scores = mul(m.heads, s.seq_len, s.seq_len, s.batch_size);
    const std::int64_t attention_core = s.flash_attention ? add(mul(4, e.linear_element_bytes, sbh), mul(4, sbh))
                                                          : mul(2, e.score_element_bytes, scores);
    // What the embeddings save besides the token ids, and Hugging Face's RoPE cos/sin: saved from
    // the forward's start until the first block's backward, near the step's end.
    std::int64_t embedding = -ids;
    for (const auto& it : e.model)
      if (it.op.rfind("embedding", 0) == 0 || it.op == "layer.attn.rope") embedding = add(embedding, it.bytes);
    const std::int64_t hf_mask = hf_mask_bytes(s);  // live through the forward (the loss's included)
    // The forward, block by block: what each block saves accumulates (with its weight copies).
    for (std::int64_t i = 0; i + 1 < m.layers; ++i) {
      PhaseBytes fl = start;
      fl.phase = "forward.layer." + std::to_string(i);
      fl.activations = add(embedding, mul(i + 1, e.per_layer_bytes));
      fl.autocast_cache = mul(i + 1, e.weight_cache_per_layer_bytes);
      fl.transient = hf_mask;
      r.timeline.push_back(fl);
    }
    // The last block's softmax in the forward: every earlier block's saved tensors, this block's up
    // to the softmax, and the locals and score tensors around it.
    PhaseBytes fa = start;
    fa.phase = "forward.layer." + std::to_string(m.layers - 1) + ".attention";
    fa.activations = add(embedding, mul(m.layers - 1, e.per_layer_bytes), attention_held);
    fa.autocast_cache = cache_at_last_attention;
    fa.transient = add(softmax_forward_live(s, e, true), hf_mask);
    r.timeline.push_back(fa);
    // The last block's residual add after its MLP: every block's saved tensors, the attention's
    // locals still bound in the block's frame (e.g. the fused qkv output that q, k, v view), the
    // MLP output projection's output and the new residual stream.
    PhaseBytes fm = start;
    fm.phase = "forward.layer." + std::to_string(m.layers - 1) + ".mlp";
    fm.activations = add(embedding, mul(m.layers, e.per_layer_bytes));
    fm.autocast_cache = add(mul(m.layers, e.weight_cache_per_layer_bytes), e.bias_cache_bytes);
    fm.transient = add(softmax_forward_live(s, e, true, true), mul(e.linear_element_bytes, sbh), mul(e.residual_element_bytes, sbh), hf_mask);
    r.timeline.push_back(fm);
    PhaseBytes fe = start;
    fe.phase = "forward_end";
    fe.activations = e.saved_bytes - mul(2, ids) - e.loss_saves_logits_bytes;  // those are counted as logits
    fe.autocast_cache = add(e.weight_cache_bytes, e.bias_cache_bytes);  // the region is still open
    fe.logits = e.logits_bytes;
    fe.transient = hf_mask;  // the reference script's loss runs inside forward, beside the mask
    r.timeline.push_back(fe);
    if (t_autocast || scratch) {
      // cross_entropy under autocast (an FP32-list op) works on an FP32 copy of the 16-bit logits,
      // while the forward's local x (the final norm's FP32 output; the head saved its cast) is alive.
      // The from-scratch logsumexp allocates logits - max (the logits' type) in any precision.
      PhaseBytes lf = fe;
      lf.phase = "loss_forward";
      // CUDA (log_softmax with dtype=float32 on the 16-bit logits) holds a 16-bit one instead (measured).
      const std::int64_t loss_in = scratch ? e.loss_element_bytes : (k.build == PytorchBuild::cuda && t_autocast ? 2 : 4);
      lf.transient = add(mul(loss_in, bsv), t_autocast ? mul(e.residual_element_bytes, sbh) : 0, hf_mask);
      r.timeline.push_back(lf);
    }
    if (train) {
      // loss.backward(): NllLossBackward writes the gradient of log_softmax's output, then
      // LogSoftmaxBackward the gradient of the logits, both in the loss's type, while the saved
      // log-probabilities are still held. Bias copies left with the autocast region.
      PhaseBytes lb = fe;
      lb.phase = "loss_backward";
      lb.autocast_cache = e.weight_cache_bytes;
      lb.transient = mul(2, e.loss_element_bytes, bsv);
      // CUDA autocast runs log_softmax with dtype=float32 on the 16-bit logits (no FP32 copy of its
      // input), so its backward writes the logits' gradient in 16 bits (measured on an H100).
      if (k.build == PytorchBuild::cuda && t_autocast && !scratch) lb.transient = add(mul(4, bsv), mul(2, bsv));
      // From scratch: logsumexp's backward computes grad * exp(logits - lse) as three logits-sized
      // tensors (the difference, its exp, the product), after the per-token loss gradient and its negation.
      if (scratch) lb.transient = add(mul(3, e.loss_element_bytes, bsv), mul(2, e.loss_element_bytes, sb));
      r.timeline.push_back(lb);
      // The head's backward: log_softmax's output is released; the logits' gradient (16-bit under
      // autocast, after the cast's backward), the gradient of the head's input and of its weight
      // (V*d, of the 16-bit copy under autocast, whose cast back to FP32 follows) are live.
      PhaseBytes hb = lb;
      hb.phase = "head_backward";
      hb.activations = lb.activations - (e.model.back().bytes - ids - e.loss_saves_logits_bytes);
      const std::int64_t vd = mul(m.vocab, m.hidden);
      hb.transient = add(mul(t_autocast ? 2 : e.loss_element_bytes, bsv), mul(e.linear_element_bytes, sbh),
                         mul(t_autocast ? 2 : pe, vd));
      if (t_autocast) hb.transient = std::max(hb.transient, add(mul(e.linear_element_bytes, sbh), mul(6, vd)));
      r.timeline.push_back(hb);
      if (m.norm == NormKind::rmsnorm) {
        // The final RMSNorm's backward: the head has released its input and left its weight's
        // gradient. Multiplying by the gain writes two gradients beside the incoming one (Hugging Face);
        // the hand-written x / sqrt(...) divides, negates and multiplies: four beside it, all FP32.
        PhaseBytes nb = hb;
        nb.phase = "final_norm_backward";
        // (From scratch, at the division: "* g" has released the quotient it saved, 4*s*b*h.)
        nb.activations = hb.activations - item_bytes(e.model, "head") - (scratch ? mul(4, sbh) : 0);
        if (!region_open) nb.autocast_cache = hb.autocast_cache - e.weight_cache_model_bytes;
        nb.gradients = std::max(hb.gradients, mul(sh.top_params, pe));
        nb.transient = scratch ? mul(5, 4, sbh) : mul(3, e.residual_element_bytes, sbh);
        r.timeline.push_back(nb);
      }
      // Backward, block by block from the top: block i's saved tensors are still held, blocks above
      // have released theirs and left their gradients (set_to_none: gradients appear as backward
      // reaches their parameters); the residual-stream gradient flows down.
      for (std::int64_t i = m.layers - 1; i >= 0; --i) {
        PhaseBytes bl = base("backward.layer");
        bl.phase += "." + std::to_string(i);
        bl.activations = add(embedding, mul(i + 1, e.per_layer_bytes));
        // The head's weight copy went with the head's backward; block i still holds all of its own.
        bl.autocast_cache = mul(i + 1, e.weight_cache_per_layer_bytes);
        const std::int64_t grads_above = mul(add(sh.top_params, mul(m.layers - 1 - i, sh.layer_params)), pe);
        bl.gradients = std::max(bl.gradients, grads_above);
        bl.logits = e.logits_bytes;
        // At the block's first op (the MLP's down projection): the residual-stream gradient (and its
        // 16-bit cast under autocast), the gradient of the projection's input (s*b*f) and of its
        // weight (f*d, in the weight copy's 16-bit type under autocast, before AccumulateGrad stores it).
        bl.transient = add(mul(e.residual_element_bytes, sbh), t_autocast ? mul(2, sbh) : 0,
                           mul(e.linear_element_bytes, sb, m.mlp_hidden), mul(m.hidden, m.mlp_hidden, t_autocast ? 2 : pe));
        r.timeline.push_back(bl);
        if (m.mlp == MlpKind::swiglu) {
          // SwiGLU's multiply, next: the down projection has released its saved input and left its
          // weight's gradient; the product's backward writes two s*b*f gradients while the incoming
          // one is alive (with a small vocabulary the step's peak).
          PhaseBytes mb = bl;
          mb.phase = "backward.layer." + std::to_string(i) + ".mlp";
          const std::int64_t down = mul(m.mlp_hidden, m.hidden);
          mb.activations = bl.activations - item_bytes(e.per_layer, "layer.mlp.proj");
          mb.gradients = std::max(bl.gradients, add(grads_above, mul(down, pe)));
          if (!region_open) mb.autocast_cache = bl.autocast_cache - e.weight_cache_down_bytes;
          mb.transient = add(mul(e.residual_element_bytes, sbh), mul(3, e.linear_element_bytes, sb, m.mlp_hidden));
          r.timeline.push_back(mb);
        }
        {
          // The MLP's first projection (gate, or GELU's fc), last in the MLP's backward: the other
          // projections and the activation have released what they saved and left their weights'
          // gradients; its own weight gradient (the 16-bit copy's under autocast) and the gradient
          // of its input join the incoming one, the residual-stream gradient and (SwiGLU) the up
          // projection's gradient of h. With b*s small next to d the weights' gradients make this the peak.
          const bool gated = m.mlp != MlpKind::gelu;
          const std::int64_t fd = mul(m.mlp_hidden, m.hidden), sbf = mul(sb, m.mlp_hidden);
          PhaseBytes ib = bl;
          ib.phase = "backward.layer." + std::to_string(i) + ".mlp_in";
          ib.activations = bl.activations - item_bytes(e.per_layer, "layer.mlp.proj") - item_bytes(e.per_layer, "layer.mlp.silu_mul") -
                           item_bytes(e.per_layer, "layer.mlp.gelu") - item_bytes(e.per_layer, "layer.mlp.up");
          ib.gradients = std::max(bl.gradients, add(grads_above, mul(gated ? 2 : 1, fd, pe)));
          if (!region_open) ib.autocast_cache = bl.autocast_cache - mul(gated ? 2 : 1, e.weight_cache_down_bytes);
          ib.transient = add(mul(e.residual_element_bytes, sbh), gated ? mul(e.residual_element_bytes, sbh) : 0,
                             mul(e.linear_element_bytes, sbf), mul(t_autocast ? 2 : pe, fd), mul(e.linear_element_bytes, sbh));
          r.timeline.push_back(ib);
        }
        // Inside block i, at the attention core's backward (softmax backward, or SDPA's): the MLP,
        // the output projection, norm_2 and att @ v have released what they saved and left their
        // gradients; the q/k/v weight copies are still held; the residual-stream gradient and v's
        // gradient wait (autograd runs later-created nodes first) while the core's gradients exist.
        PhaseBytes at = bl;
        at.phase = "backward.layer." + std::to_string(i) + ".attention";
        at.activations = add(embedding, mul(i, e.per_layer_bytes), attention_held);
        at.autocast_cache = add(mul(i, e.weight_cache_per_layer_bytes), e.weight_cache_attention_in_bytes);
        at.gradients = std::max(base("").gradients, add(grads_above, mul(sh.after_attention_params, pe)));
        at.transient = add(mul(e.residual_element_bytes, sbh), mul(e.linear_element_bytes, sbh), attention_core);
        r.timeline.push_back(at);
        {
          // The attention's input projection last in backward (q; nanoGPT's fused qkv): every other
          // weight of the block has its gradient; this weight's gradient (the 16-bit copy's under
          // autocast) and the gradient of its input join the incoming one, the residual-stream
          // gradient and the gradient of h that the k and v projections accumulated.
          const bool fused = nanogpt_style(s);
          const std::int64_t width = fused ? add(q_width(m), mul(2, kv_width(m))) : q_width(m);
          const std::int64_t w = mul(m.hidden, width), norm_1 = m.norm == NormKind::layernorm && m.norm_bias ? mul(2, m.hidden) : m.hidden;
          PhaseBytes pb = at;
          pb.phase = "backward.layer." + std::to_string(i) + ".attention_in";
          pb.activations = add(embedding, mul(i, e.per_layer_bytes), item_bytes(e.per_layer, fused ? "layer.ln_1" : "layer.norm_1"),
                               item_bytes(e.per_layer, fused ? "layer.attn.qkv" : "layer.attn.q"));
          pb.gradients = std::max(base("").gradients, add(grads_above, mul(sh.layer_params - norm_1 - w, pe)));
          if (t_autocast && !region_open) pb.autocast_cache = add(mul(i, e.weight_cache_per_layer_bytes), mul(2, w));
          pb.transient = add(mul(e.residual_element_bytes, sbh), fused ? 0 : mul(e.residual_element_bytes, sbh),
                             mul(e.linear_element_bytes, sb, width), mul(e.linear_element_bytes, sbh), mul(t_autocast ? 2 : pe, w));
          r.timeline.push_back(pb);
        }
      }
      PhaseBytes be = base("backward_end");
      be.gradients = G;
      be.logits = e.logits_bytes;
      // The embedding's backward: the gradient reaching it (s*b*h) and its weight gradient (V*d), a new
      // tensor that AccumulateGrad takes over, or adds in place to a gradient zero_grad "zero" kept. A
      // tied table's two contributions meet in autograd's input buffer and are summed out of place
      // (one more V*d), the head's waiting there since the head's backward.
      const std::int64_t vd_bytes = mul(m.vocab, m.hidden, pe), flowing = mul(e.residual_element_bytes, sbh);
      be.transient = flowing;
      if (m.tied_head) be.transient = add(vd_bytes, std::max(flowing, vd_bytes));
      else if (base("").gradients > 0) be.transient = add(vd_bytes, flowing);
      r.timeline.push_back(be);
      // optimizer.step(): the first step creates the state (zeros_like) before updating.
      PhaseBytes os = base("optimizer_step");
      os.gradients = G;
      os.optimizer_state = O;
      os.logits = e.logits_bytes;
      os.transient = r.optimizer_temporary_bytes;
      r.timeline.push_back(os);
    }
  }
  // autocast_scope "step": every weight copy stays in the cache (bias copies too) from the end of the
  // forward until optimizer.step() returns, whether or not autograd still holds it.
  bool forward_part = true;
  for (auto& p : r.timeline) {
    if (p.phase == "loss_backward") forward_part = false;
    if (region_open && !forward_part) p.autocast_cache = add(e.weight_cache_bytes, e.bias_cache_bytes);
  }
  // On CUDA the buffers and the cuBLAS workspaces are live in every phase.
  const std::int64_t buffers = model_buffer_bytes(s), workspace = cuda_workspace_bytes(s);
  for (auto& p : r.timeline) { p.buffers = buffers; p.cuda_workspace = workspace; }
  select_peak(s, r);
  return r;
}

void select_peak(const Scenario& s, StepPhases& r) {
  const bool t_autocast = is_autocast(s.precision);
  const bool region_open = t_autocast && s.framework.autocast_scope == AutocastScope::step;
  r.allocator_peak_bytes = 0;
  bool forward_part = true;
  for (const auto& p : r.timeline) {
    if (p.phase == "loss_backward") forward_part = false;
    if (p.total() > r.allocator_peak_bytes) {
      r.allocator_peak_bytes = p.total();
      r.peak_phase = p.phase;
      r.cache_at_peak = !t_autocast || p.autocast_cache == 0 ? "none"
                        : (forward_part || region_open ? "cache" : "saved_copies");
    }
  }
}

}  // namespace lab
