// GELU (tanh approximation, as GPT-2): forward and backward are one loop each over fastmath.hpp.
#include "refengine/fastmath.hpp"
#include "refengine/ops.hpp"

namespace lab::ref {

namespace {
template <class TX, class TY>
__attribute__((noinline)) void gelu_fwd(const TX* __restrict x, TY* __restrict y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) store(y + i, gelu_value(load(x + i)));
}
template <class TD, class TX>
__attribute__((noinline)) void gelu_bwd(const TD* __restrict dy, const TX* __restrict x, TD* __restrict dx,
                                        std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) store(dx + i, load(dy + i) * gelu_grad(load(x + i)));
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
