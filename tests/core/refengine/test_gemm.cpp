// The blocked matmul against a naive double-precision product: every transpose/stride combination,
// ragged sizes around the 5x8 tile and the 130/256 blocks (MC, KC) and their multiples, 16-bit
// inputs and outputs, bias and alpha.
#include <doctest/doctest.h>
#include <cmath>
#include <stdexcept>
#include <vector>
#include "refengine/gemm.hpp"

using namespace lab::ref;

namespace {
float rnd(std::uint64_t& s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<float>(static_cast<double>(s >> 40) / 16777216.0 - 0.5);
}
struct Ws {
  std::vector<float> data;
  KernelCtx ctx;
  explicit Ws(std::int64_t n) : data(static_cast<std::size_t>(gemm_workspace_floats(n))) {
    ctx.workspace = data.data();
    ctx.workspace_floats = static_cast<std::int64_t>(data.size());
  }
};
double at(const MatView& v, std::int64_t i, std::int64_t j) {
  const std::int64_t off = i * v.rs + j * v.cs;
  if (v.dtype == DType::f16) return f16_bits_to_f32(static_cast<const std::uint16_t*>(v.data)[off]);
  return static_cast<const float*>(v.data)[off];
}

// Max |C - ref| / (1 + |ref|) for C = alpha·A·B + bias with A stored (m x k) or transposed.
double max_error(std::int64_t m, std::int64_t n, std::int64_t k, bool ta, bool tb, bool bias, DType in, DType outd) {
  std::uint64_t s = static_cast<std::uint64_t>(m * 131 + n * 17 + k);
  std::vector<float> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)), bi(static_cast<std::size_t>(n));
  for (auto& x : a) x = rnd(s);
  for (auto& x : b) x = rnd(s);
  for (auto& x : bi) x = rnd(s);
  std::vector<std::uint16_t> a16(a.size()), b16(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) a16[i] = f32_to_f16_bits(a[i]);
  for (std::size_t i = 0; i < b.size(); ++i) b16[i] = f32_to_f16_bits(b[i]);
  const void* ap = in == DType::f16 ? static_cast<const void*>(a16.data()) : a.data();
  const void* bp = in == DType::f16 ? static_cast<const void*>(b16.data()) : b.data();
  // ta: A is stored as (k x m) row-major and viewed transposed; likewise tb.
  MatView av = ta ? MatView{ap, in, k, m, m, 1}.transposed() : MatView{ap, in, m, k, k, 1};
  MatView bv = tb ? MatView{bp, in, n, k, k, 1}.transposed() : MatView{bp, in, k, n, n, 1};
  std::vector<float> c32(static_cast<std::size_t>(m * n), 7.0f);
  std::vector<std::uint16_t> c16(static_cast<std::size_t>(m * n), 0x7777);
  void* cp = outd == DType::f16 ? static_cast<void*>(c16.data()) : c32.data();
  Ws ws(n);
  const float alpha = 0.75f;
  gemm(ws.ctx, av, bv, OutView{cp, outd, m, n, n}, alpha, bias ? Buf{bi.data(), DType::f32, n} : Buf{});
  CHECK(ws.ctx.matmul_flops == 2 * m * n * k);
  double worst = 0.0;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double ref = 0.0;
      for (std::int64_t p = 0; p < k; ++p) ref += at(av, i, p) * at(bv, p, j);
      ref = alpha * ref + (bias ? bi[static_cast<std::size_t>(j)] : 0.0);
      const double got = outd == DType::f16 ? f16_bits_to_f32(c16[static_cast<std::size_t>(i * n + j)])
                                            : c32[static_cast<std::size_t>(i * n + j)];
      worst = std::max(worst, std::fabs(got - ref) / (1.0 + std::fabs(ref)));
    }
  return worst;
}
}  // namespace

TEST_CASE("gemm matches a naive product for every transpose and ragged shapes") {
  const std::int64_t shapes[][3] = {{1, 1, 1}, {3, 5, 7}, {4, 8, 16}, {5, 9, 3}, {64, 8, 256}, {65, 17, 257},
                                    {130, 40, 600}, {7, 100, 1}, {261, 24, 300}, {521, 9, 513}, {6, 16, 2}};
  for (const auto& sh : shapes)
    for (int t = 0; t < 4; ++t) {
      CAPTURE(sh[0]);
      CAPTURE(sh[1]);
      CAPTURE(sh[2]);
      CAPTURE(t);
      CHECK(max_error(sh[0], sh[1], sh[2], t & 1, t & 2, t == 3, DType::f32, DType::f32) < 1e-5);  // float32 accumulation over K
    }
}

TEST_CASE("gemm reads fp16 inputs exactly and rounds fp16 outputs once") {
  // Inputs are exact halves, accumulation is float32, so the only error is the final rounding.
  CHECK(max_error(33, 20, 300, false, true, true, DType::f16, DType::f32) < 2e-6);
  CHECK(max_error(33, 20, 300, true, false, false, DType::f16, DType::f16) < 1e-3);  // ≤ half an fp16 ulp
}

TEST_CASE("gemm with K = 0 writes the bias, and a wrong shape is a logic error") {
  std::vector<float> bias = {1, 2, 3}, c(6, 9.0f);
  Ws ws(3);
  gemm(ws.ctx, MatView{nullptr, DType::f32, 2, 0, 0, 1}, MatView{nullptr, DType::f32, 0, 3, 3, 1},
       OutView{c.data(), DType::f32, 2, 3, 3}, 1.0f, Buf{bias.data(), DType::f32, 3});
  CHECK(c == std::vector<float>{1, 2, 3, 1, 2, 3});
  CHECK_THROWS_AS(gemm(ws.ctx, MatView{c.data(), DType::f32, 2, 3, 3, 1}, MatView{c.data(), DType::f32, 2, 3, 3, 1},
                       OutView{c.data(), DType::f32, 2, 3, 3}),
                  std::logic_error);
}
