// Residual add: y = a + b. Its backward is the identity into both inputs.
#include "refengine/ops.hpp"

namespace lab::ref {

namespace {
template <class T>
__attribute__((noinline)) void add_fwd(const T* a, const T* b, T* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) store(y + i, load(a + i) + load(b + i));
}
template <class T>
void add_into(const T* dy, T* d, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) store(d + i, load(d + i) + load(dy + i));
}
}  // namespace

void residual_forward(const Buf& a, const Buf& b, const Buf& y, std::int64_t n) {
  dispatch(a.dtype, [&](auto t) {
    using T = decltype(t);
    add_fwd(a.as<T>(), b.as<T>(), y.as<T>(), n);
  });
}

void residual_backward(const Buf& dy, const Buf& da, const Buf& db, std::int64_t n) {
  dispatch(dy.dtype, [&](auto t) {
    using T = decltype(t);
    add_into(dy.as<T>(), da.as<T>(), n);
    add_into(dy.as<T>(), db.as<T>(), n);
  });
}

}  // namespace lab::ref
