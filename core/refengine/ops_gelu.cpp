// GELU (tanh approximation, as GPT-2): forward and backward are one loop each over fastmath.hpp.
#include <type_traits>
#include "refengine/fastmath.hpp"
#include "refengine/ops.hpp"
#include "refengine/simd.hpp"

namespace lab::ref {

namespace {
// Vector twins of gelu_value / gelu_grad (same operations, so the same bits as the scalar tail),
// on kBlock vectors at a time so that the exps run step by step over all of them (simd.hpp).
constexpr int kBlock = 16;

inline v4f minus_u2_v4(v4f x) { return x * ((x * x) * -kGeluU3 - kGeluU1); }
inline v4f gelu_value_v4(v4f x, v4f e) { return x / (1.0f + e); }  // e = exp(-2u)
inline v4f gelu_grad_v4(v4f x, v4f e) {
  const v4f s = 1.0f / (1.0f + e);
  const v4f du2 = (x * x) * kGeluD2 + kGeluU1;
  return s + x * s * (1.0f - s) * du2;
}

// Runs emit(offset, x, exp(-2u)) over the float32 prefix of x that fills whole vectors: kBlock vectors
// at a time with their exps computed together, then single vectors. Returns the scalar tail's start.
template <class Emit>
inline std::int64_t for_each_gelu_vector(const float* x, std::int64_t n, Emit&& emit) {
  std::int64_t i = 0;
  for (; i + 4 * kBlock <= n; i += 4 * kBlock) {
    v4f v[kBlock], e[kBlock];
#pragma GCC unroll 16
    for (int j = 0; j < kBlock; ++j) {
      v[j] = loadu(x + i + 4 * j);
      e[j] = minus_u2_v4(v[j]);
    }
    exp_approx_block<kBlock>(e);
#pragma GCC unroll 16
    for (int j = 0; j < kBlock; ++j) emit(i + 4 * j, v[j], e[j]);
  }
  for (; i + 4 <= n; i += 4) {
    const v4f v = loadu(x + i);
    emit(i, v, exp_approx_v4(minus_u2_v4(v)));
  }
  return i;
}

template <class TX, class TY>
__attribute__((noinline)) void gelu_fwd(const TX* __restrict x, TY* __restrict y, std::int64_t n) {
  std::int64_t i = 0;
  if constexpr (std::is_same_v<TX, float> && std::is_same_v<TY, float>)
    i = for_each_gelu_vector(x, n, [&](std::int64_t at, v4f v, v4f e) { storeu(y + at, gelu_value_v4(v, e)); });
  for (; i < n; ++i) store(y + i, gelu_value(load(x + i)));
}
template <class TD, class TX>
__attribute__((noinline)) void gelu_bwd(const TD* __restrict dy, const TX* __restrict x, TD* __restrict dx,
                                        std::int64_t n) {
  std::int64_t i = 0;
  if constexpr (std::is_same_v<TX, float> && std::is_same_v<TD, float>)
    i = for_each_gelu_vector(x, n, [&](std::int64_t at, v4f v, v4f e) {
      storeu(dx + at, loadu(dy + at) * gelu_grad_v4(v, e));
    });
  for (; i < n; ++i) store(dx + i, load(dy + i) * gelu_grad(load(x + i)));
}
}  // namespace

void gelu_forward(const Buf& x, const Buf& y, std::int64_t n) {
  dispatch(x.dtype, [&](auto tx) {
    dispatch(y.dtype, [&](auto ty) { gelu_fwd(x.as<decltype(tx)>(), y.as<decltype(ty)>(), n); });
  });
}

void gelu_backward(const Buf& dy, const Buf& x, const Buf& dx, std::int64_t n) {
  dispatch(dy.dtype, [&](auto td) {
    using TD = decltype(td);
    dispatch(x.dtype, [&](auto tx) { gelu_bwd(dy.as<TD>(), x.as<decltype(tx)>(), dx.as<TD>(), n); });
  });
}

}  // namespace lab::ref
