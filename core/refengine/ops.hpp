// The op table of the reference engine: each op's forward and backward, side by side in one file
// per op group (ops_*.cpp). Ops read and write typed buffers (any storage type, float32 compute),
// never allocate, and know nothing about the model or the allocator (model.cpp wires them).
// Gradients are *written* (overwrite) unless the comment says "accumulates".
#pragma once
#include <cstdint>
#include "refengine/dtype.hpp"
#include "refengine/gemm.hpp"

namespace lab::ref {

// ---- embedding (ops_embedding.cpp): out[b,t,:] = wte[tokens[b,t],:] + wpe[t,:]
void embedding_forward(const std::int32_t* tokens, const Buf& wte, const Buf& wpe, const Buf& out, std::int64_t B,
                       std::int64_t T, std::int64_t C);
// dwte (V x C) and dwpe (ctx x C) written in full (rows without tokens are zero). Each row is summed
// in float32 and rounded once; `index` (B·T ints) and `offsets` (V+1 ints) are scratch.
void embedding_backward(const std::int32_t* tokens, const Buf& dout, const Buf& dwte, const Buf& dwpe,
                        std::int64_t B, std::int64_t T, std::int64_t C, std::int64_t V, std::int64_t ctx_len,
                        std::int32_t* index, std::int32_t* offsets);

// ---- linear (ops_linear.cpp): y (N x OC) = x (N x IC) · w (IC x OC) + b   (b may be empty)
void linear_forward(KernelCtx& ctx, const Buf& x, const Buf& w, const Buf& b, const Buf& y, std::int64_t N,
                    std::int64_t IC, std::int64_t OC);
// dw = xᵀ·dy, db = Σ_rows dy, dx = dy·wᵀ (dx / db may be empty to skip them).
void linear_backward(KernelCtx& ctx, const Buf& dy, const Buf& x, const Buf& w, const Buf& dx, const Buf& dw,
                     const Buf& db, std::int64_t N, std::int64_t IC, std::int64_t OC);

// ---- layernorm (ops_layernorm.cpp) over the last dimension C; mean/rstd (float32, N) may be null.
inline constexpr float kLayerNormEps = 1e-5f;
void layernorm_forward(const Buf& x, const Buf& gamma, const Buf& beta, const Buf& y, float* mean, float* rstd,
                       std::int64_t N, std::int64_t C);
// dx accumulates (the residual stream's gradient); dgamma, dbeta are written.
void layernorm_backward(const Buf& dy, const Buf& x, const float* mean, const float* rstd, const Buf& gamma,
                        const Buf& dx, const Buf& dgamma, const Buf& dbeta, std::int64_t N, std::int64_t C);

// ---- GELU, tanh approximation (ops_gelu.cpp)
void gelu_forward(const Buf& x, const Buf& y, std::int64_t n);
void gelu_backward(const Buf& dy, const Buf& x, const Buf& dx, std::int64_t n);

// ---- residual add (ops_residual.cpp): y = a + b. Backward: da += dy, db += dy (both accumulate).
// The model never calls residual_backward: it lets both branches read the same gradient buffer.
void residual_forward(const Buf& a, const Buf& b, const Buf& y, std::int64_t n);
void residual_backward(const Buf& dy, const Buf& da, const Buf& db, std::int64_t n);

// ---- softmax over the rows of one rows x cols block (ops_attention.cpp). Causal: row r keeps
// columns 0..r and writes 0 elsewhere. In place (y == x, dx == dy) is allowed.
void softmax_forward(const Buf& x, const Buf& y, std::int64_t rows, std::int64_t cols, bool causal);
void softmax_backward(const Buf& dy, const Buf& y, const Buf& dx, std::int64_t rows, std::int64_t cols, bool causal);

// ---- causal self-attention with materialised scores (ops_attention.cpp)
// qkv: (B, T, 3C) holding q | k | v, heads of C/H channels each; y: (B, T, C).
struct AttnShape {
  std::int64_t B = 1, T = 1, C = 1, H = 1;
};
// probs: (B, H, T, T) softmax output kept for backward, or empty: then each head's probabilities
// live in `head_scratch` (T x T) only while that head is computed.
void attention_forward(KernelCtx& ctx, const AttnShape& s, const Buf& qkv, const Buf& y, const Buf& probs,
                       const Buf& head_scratch);
// dqkv written in full. probs empty: each head's probabilities are recomputed into probs_scratch
// (selective recomputation). dprobs_scratch (T x T) holds one head's dP/dS.
void attention_backward(KernelCtx& ctx, const AttnShape& s, const Buf& dy, const Buf& qkv, const Buf& probs,
                        const Buf& probs_scratch, const Buf& dprobs_scratch, const Buf& dqkv);

// ---- cross-entropy, mean over N rows (ops_loss.cpp)
double cross_entropy_forward(const Buf& logits, const std::int32_t* targets, std::int64_t N, std::int64_t V);
// dlogits = scale · (softmax(logits) − onehot(target)) / N. scale carries the loss scale.
void cross_entropy_backward(const Buf& logits, const std::int32_t* targets, const Buf& dlogits, std::int64_t N,
                            std::int64_t V, float scale);

// A view of `b` starting `elements` in, of `numel` elements.
inline Buf slice(const Buf& b, std::int64_t elements, std::int64_t numel) {
  return {static_cast<char*>(b.data) + elements * dtype_bytes(b.dtype), b.dtype, numel};
}

}  // namespace lab::ref
