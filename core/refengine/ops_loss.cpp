// Cross-entropy over the vocabulary, mean over rows. The backward recomputes the softmax from the
// logits (nothing else is saved) and folds in the loss scale and the 1/N of the mean.
#include <cmath>
#include "refengine/fastmath.hpp"
#include "refengine/ops.hpp"

namespace lab::ref {

namespace {
template <class T>
double ce_fwd(const T* logits, const std::int32_t* targets, std::int64_t N, std::int64_t V) {
  double total = 0.0;
  for (std::int64_t i = 0; i < N; ++i) {
    const T* row = logits + i * V;
    float mx = load(row);
    for (std::int64_t v = 1; v < V; ++v) mx = load(row + v) > mx ? load(row + v) : mx;
    float sum = 0.0f;
    for (std::int64_t v = 0; v < V; ++v) sum += exp_approx(load(row + v) - mx);
    total += static_cast<double>(std::log(sum) + mx - load(row + targets[i]));
  }
  return N > 0 ? total / static_cast<double>(N) : 0.0;
}

template <class T, class TD>
void ce_bwd(const T* logits, const std::int32_t* targets, TD* dlogits, std::int64_t N, std::int64_t V, float scale) {
  const float k = scale / static_cast<float>(N);
  for (std::int64_t i = 0; i < N; ++i) {
    const T* row = logits + i * V;
    TD* drow = dlogits + i * V;
    float mx = load(row);
    for (std::int64_t v = 1; v < V; ++v) mx = load(row + v) > mx ? load(row + v) : mx;
    float sum = 0.0f;
    for (std::int64_t v = 0; v < V; ++v) sum += exp_approx(load(row + v) - mx);
    const float inv = 1.0f / sum;
    for (std::int64_t v = 0; v < V; ++v) {
      const float p = exp_approx(load(row + v) - mx) * inv;
      store(drow + v, k * (p - (v == targets[i] ? 1.0f : 0.0f)));
    }
  }
}
}  // namespace

double cross_entropy_forward(const Buf& logits, const std::int32_t* targets, std::int64_t N, std::int64_t V) {
  return dispatch(logits.dtype, [&](auto t) { return ce_fwd(logits.as<decltype(t)>(), targets, N, V); });
}

void cross_entropy_backward(const Buf& logits, const std::int32_t* targets, const Buf& dlogits, std::int64_t N,
                            std::int64_t V, float scale) {
  dispatch(logits.dtype, [&](auto t) {
    dispatch(dlogits.dtype, [&](auto td) { ce_bwd(logits.as<decltype(t)>(), targets, dlogits.as<decltype(td)>(), N, V, scale); });
  });
}

}  // namespace lab::ref
