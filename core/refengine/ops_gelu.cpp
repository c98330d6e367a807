// GELU (tanh approximation, as GPT-2): forward and backward are one loop each over fastmath.hpp.
#include <type_traits>
#include "refengine/fastmath.hpp"
#include "refengine/ops.hpp"
#include "refengine/simd.hpp"

namespace lab::ref {

namespace {
// Vector twins of gelu_value / gelu_grad (same operations, so the same bits as the scalar tail).
inline v4f gelu_value_v4(v4f x) {
  const v4f x2 = x * x;
  const v4f minus_u2 = x * (x2 * -kGeluU3 - kGeluU1);
  return x / (1.0f + exp_approx_v4(minus_u2));
}
inline v4f gelu_grad_v4(v4f x) {
  const v4f x2 = x * x;
  const v4f minus_u2 = x * (x2 * -kGeluU3 - kGeluU1);
  const v4f s = 1.0f / (1.0f + exp_approx_v4(minus_u2));
  const v4f du2 = x2 * kGeluD2 + kGeluU1;
  return s + x * s * (1.0f - s) * du2;
}

template <class TX, class TY>
__attribute__((noinline)) void gelu_fwd(const TX* __restrict x, TY* __restrict y, std::int64_t n) {
  std::int64_t i = 0;
  if constexpr (std::is_same_v<TX, float> && std::is_same_v<TY, float>) {
    // Two independent vectors per iteration: one vector's chain is latency-bound (~40 dependent
    // operations); interleaving two lets the CPU overlap them.
    for (; i + 8 <= n; i += 8) {
      const v4f y0 = gelu_value_v4(loadu(x + i)), y1 = gelu_value_v4(loadu(x + i + 4));
      storeu(y + i, y0);
      storeu(y + i + 4, y1);
    }
    for (; i + 4 <= n; i += 4) storeu(y + i, gelu_value_v4(loadu(x + i)));
  }
  for (; i < n; ++i) store(y + i, gelu_value(load(x + i)));
}
template <class TD, class TX>
__attribute__((noinline)) void gelu_bwd(const TD* __restrict dy, const TX* __restrict x, TD* __restrict dx,
                                        std::int64_t n) {
  std::int64_t i = 0;
  if constexpr (std::is_same_v<TX, float> && std::is_same_v<TD, float>) {
    for (; i + 8 <= n; i += 8) {  // two vectors per iteration, as in gelu_fwd
      const v4f g0 = gelu_grad_v4(loadu(x + i)), g1 = gelu_grad_v4(loadu(x + i + 4));
      storeu(dx + i, loadu(dy + i) * g0);
      storeu(dx + i + 4, loadu(dy + i + 4) * g1);
    }
    for (; i + 4 <= n; i += 4) storeu(dx + i, loadu(dy + i) * gelu_grad_v4(loadu(x + i)));
  }
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
