// Linear layer = matmul + bias. Forward: one gemm with the bias fused into the store. Backward:
// dW = xᵀ·dy and dx = dy·Wᵀ are gemms over transposed views; db is a float32 column sum.
#include <type_traits>
#include "refengine/ops.hpp"
#include "refengine/simd.hpp"

namespace lab::ref {

namespace {
template <class TD, class TB>
void column_sum(const TD* dy, TB* db, std::int64_t N, std::int64_t OC) {
  if constexpr (std::is_same_v<TD, float> && std::is_same_v<TB, float>) {
    const std::int64_t OC4 = OC / 4 * 4;
    std::int64_t j0 = 0;
    for (; j0 + 16 <= OC; j0 += 16) {  // a 64-byte line of each row at a time, rows in order
      v4f a0 = splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
      for (std::int64_t i = 0; i < N; ++i) {
        const float* row = dy + i * OC + j0;
        a0 += loadu(row);
        a1 += loadu(row + 4);
        a2 += loadu(row + 8);
        a3 += loadu(row + 12);
      }
      storeu(db + j0, a0);
      storeu(db + j0 + 4, a1);
      storeu(db + j0 + 8, a2);
      storeu(db + j0 + 12, a3);
    }
    for (std::int64_t j = j0; j < OC4; j += 4) {  // four columns at a time, rows in order
      v4f acc = splat(0.0f);
      for (std::int64_t i = 0; i < N; ++i) acc += loadu(dy + i * OC + j);
      storeu(db + j, acc);
    }
    for (std::int64_t j = OC4; j < OC; ++j) {
      float acc = 0.0f;
      for (std::int64_t i = 0; i < N; ++i) acc += dy[i * OC + j];
      db[j] = acc;
    }
    return;
  }
  constexpr std::int64_t kChunk = 64;
  float acc[kChunk];
  for (std::int64_t j0 = 0; j0 < OC; j0 += kChunk) {
    const std::int64_t jn = OC - j0 < kChunk ? OC - j0 : kChunk;
    for (std::int64_t j = 0; j < jn; ++j) acc[j] = 0.0f;
    for (std::int64_t i = 0; i < N; ++i) {
      const TD* row = dy + i * OC + j0;
      for (std::int64_t j = 0; j < jn; ++j) acc[j] += load(row + j);
    }
    for (std::int64_t j = 0; j < jn; ++j) store(db + j0 + j, acc[j]);
  }
}
}  // namespace

void linear_forward(KernelCtx& ctx, const Buf& x, const Buf& w, const Buf& b, const Buf& y, std::int64_t N,
                    std::int64_t IC, std::int64_t OC) {
  gemm(ctx, mat(x, N, IC), mat(w, IC, OC), out(y, N, OC), 1.0f, b);
}

void linear_backward(KernelCtx& ctx, const Buf& dy, const Buf& x, const Buf& w, const Buf& dx, const Buf& dw,
                     const Buf& db, std::int64_t N, std::int64_t IC, std::int64_t OC) {
  gemm(ctx, mat(x, N, IC).transposed(), mat(dy, N, OC), out(dw, IC, OC));
  if (db.data)
    dispatch(dy.dtype, [&](auto d) {
      dispatch(db.dtype, [&](auto g) { column_sum(dy.as<decltype(d)>(), db.as<decltype(g)>(), N, OC); });
    });
  if (dx.data) gemm(ctx, mat(dy, N, OC), mat(w, IC, OC).transposed(), out(dx, N, IC));
}

}  // namespace lab::ref
