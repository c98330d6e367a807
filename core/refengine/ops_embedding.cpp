// Token + learned position embedding: forward gathers two rows and adds them; backward scatters the
// gradient back, row by row in float32 (a counting sort by token, so each row is rounded once).
#include <stdexcept>
#include "refengine/ops.hpp"

namespace lab::ref {

namespace {
template <class TW, class TO>
void embed_fwd(const std::int32_t* tokens, const TW* wte, const TW* wpe, TO* out, std::int64_t B, std::int64_t T,
               std::int64_t C) {
  for (std::int64_t b = 0; b < B; ++b)
    for (std::int64_t t = 0; t < T; ++t) {
      const TW* e = wte + static_cast<std::int64_t>(tokens[b * T + t]) * C;
      const TW* p = wpe + t * C;
      TO* o = out + (b * T + t) * C;
      for (std::int64_t c = 0; c < C; ++c) store(o + c, load(e + c) + load(p + c));
    }
}

template <class TD, class TG>
void embed_bwd(const std::int32_t* tokens, const TD* dout, TG* dwte, TG* dwpe, std::int64_t B, std::int64_t T,
               std::int64_t C, std::int64_t V, std::int64_t ctx_len, std::int32_t* index, std::int32_t* offsets) {
  const std::int64_t n = B * T;
  // Counting sort of positions by token id: offsets[v]..offsets[v+1] index the positions of token v.
  for (std::int64_t v = 0; v <= V; ++v) offsets[v] = 0;
  for (std::int64_t i = 0; i < n; ++i) ++offsets[tokens[i] + 1];
  for (std::int64_t v = 0; v < V; ++v) offsets[v + 1] += offsets[v];
  for (std::int64_t i = 0; i < n; ++i) index[offsets[tokens[i]]++] = static_cast<std::int32_t>(i);
  for (std::int64_t v = V; v > 0; --v) offsets[v] = offsets[v - 1];
  offsets[0] = 0;
  constexpr std::int64_t kChunk = 64;  // float32 accumulators for 64 channels at a time, on the stack
  float acc[kChunk];
  for (std::int64_t v = 0; v < V; ++v)
    for (std::int64_t c0 = 0; c0 < C; c0 += kChunk) {
      const std::int64_t cn = C - c0 < kChunk ? C - c0 : kChunk;
      for (std::int64_t c = 0; c < cn; ++c) acc[c] = 0.0f;
      for (std::int32_t i = offsets[v]; i < offsets[v + 1]; ++i) {
        const TD* d = dout + static_cast<std::int64_t>(index[i]) * C + c0;
        for (std::int64_t c = 0; c < cn; ++c) acc[c] += load(d + c);
      }
      for (std::int64_t c = 0; c < cn; ++c) store(dwte + v * C + c0 + c, acc[c]);
    }
  for (std::int64_t t = 0; t < ctx_len; ++t)
    for (std::int64_t c0 = 0; c0 < C; c0 += kChunk) {
      const std::int64_t cn = C - c0 < kChunk ? C - c0 : kChunk;
      for (std::int64_t c = 0; c < cn; ++c) acc[c] = 0.0f;
      if (t < T)
        for (std::int64_t b = 0; b < B; ++b) {
          const TD* d = dout + (b * T + t) * C + c0;
          for (std::int64_t c = 0; c < cn; ++c) acc[c] += load(d + c);
        }
      for (std::int64_t c = 0; c < cn; ++c) store(dwpe + t * C + c0 + c, acc[c]);
    }
}
}  // namespace

void embedding_forward(const std::int32_t* tokens, const Buf& wte, const Buf& wpe, const Buf& out, std::int64_t B,
                       std::int64_t T, std::int64_t C) {
  if (wte.dtype != wpe.dtype) throw std::logic_error("embedding_forward: wte and wpe types differ");
  dispatch(wte.dtype, [&](auto w) {
    using TW = decltype(w);
    dispatch(out.dtype, [&](auto o) {
      using TO = decltype(o);
      embed_fwd(tokens, wte.as<TW>(), wpe.as<TW>(), out.as<TO>(), B, T, C);
    });
  });
}

void embedding_backward(const std::int32_t* tokens, const Buf& dout, const Buf& dwte, const Buf& dwpe,
                        std::int64_t B, std::int64_t T, std::int64_t C, std::int64_t V, std::int64_t ctx_len,
                        std::int32_t* index, std::int32_t* offsets) {
  if (dwte.dtype != dwpe.dtype) throw std::logic_error("embedding_backward: dwte and dwpe types differ");
  dispatch(dout.dtype, [&](auto d) {
    using TD = decltype(d);
    dispatch(dwte.dtype, [&](auto g) {
      using TG = decltype(g);
      embed_bwd(tokens, dout.as<TD>(), dwte.as<TG>(), dwpe.as<TG>(), B, T, C, V, ctx_len, index, offsets);
    });
  });
}

}  // namespace lab::ref
