// Optimizer steps against values computed by hand (in double) from the textbook update rules.
#include <doctest/doctest.h>
#include <cmath>
#include <limits>
#include <vector>
#include "refengine/optim.hpp"

using namespace lab;
using namespace lab::ref;

namespace {
Buf f32(std::vector<float>& v) { return {v.data(), DType::f32, static_cast<std::int64_t>(v.size())}; }
OptimizerHyper hyper(Optimizer k, float lr) {
  OptimizerHyper h;
  h.kind = k;
  h.lr = lr;
  return h;
}
}  // namespace

TEST_CASE("SGD: w - lr*g, with the loss scale divided out") {
  std::vector<float> w = {1.0f, -2.0f}, g = {0.5f * 128, -4.0f * 128};
  optimizer_update(hyper(Optimizer::sgd, 0.1f), 1, 1.0f / 128, false, f32(w), Buf{}, f32(g), Buf{}, Buf{});
  CHECK(w[0] == doctest::Approx(0.95).epsilon(1e-7));
  CHECK(w[1] == doctest::Approx(-1.6).epsilon(1e-7));
}

TEST_CASE("SGD with L2 weight decay adds wd*w to the gradient") {
  OptimizerHyper h = hyper(Optimizer::sgd, 0.1f);
  h.weight_decay = 0.5f;
  std::vector<float> w = {2.0f}, g = {1.0f};
  optimizer_update(h, 1, 1.0f, true, f32(w), Buf{}, f32(g), Buf{}, Buf{});
  CHECK(w[0] == doctest::Approx(2.0 - 0.1 * (1.0 + 0.5 * 2.0)).epsilon(1e-7));
}

TEST_CASE("Momentum: b = mu*b + g, w -= lr*b over two steps") {
  OptimizerHyper h = hyper(Optimizer::momentum, 0.1f);
  h.momentum = 0.9f;
  std::vector<float> w = {1.0f}, g = {0.5f}, b = {0.0f};
  optimizer_update(h, 1, 1.0f, false, f32(w), Buf{}, f32(g), f32(b), Buf{});
  CHECK(b[0] == doctest::Approx(0.5).epsilon(1e-7));
  CHECK(w[0] == doctest::Approx(0.95).epsilon(1e-7));
  g[0] = -1.0f;
  optimizer_update(h, 2, 1.0f, false, f32(w), Buf{}, f32(g), f32(b), Buf{});
  CHECK(b[0] == doctest::Approx(0.9 * 0.5 - 1.0).epsilon(1e-7));       // -0.55
  CHECK(w[0] == doctest::Approx(0.95 + 0.1 * 0.55).epsilon(1e-7));     // 1.005
}

TEST_CASE("Adam: bias-corrected moments over two steps") {
  const double lr = 0.01, b1 = 0.9, b2 = 0.999, eps = 1e-8;
  std::vector<float> w = {1.0f}, g = {0.2f}, m = {0.0f}, v = {0.0f};
  OptimizerHyper h = hyper(Optimizer::adam, static_cast<float>(lr));
  optimizer_update(h, 1, 1.0f, false, f32(w), Buf{}, f32(g), f32(m), f32(v));
  // Step 1: m = 0.02, v = 4e-5, m̂ = 0.2, v̂ = 0.04 → w = 1 − 0.01·0.2/(0.2 + 1e-8).
  double mm = (1 - b1) * 0.2, vv = (1 - b2) * 0.04;
  double ww = 1.0 - lr * (mm / (1 - b1)) / (std::sqrt(vv / (1 - b2)) + eps);
  CHECK(m[0] == doctest::Approx(mm).epsilon(1e-6));
  CHECK(v[0] == doctest::Approx(vv).epsilon(1e-6));
  CHECK(w[0] == doctest::Approx(ww).epsilon(1e-7));
  g[0] = -0.1f;
  optimizer_update(h, 2, 1.0f, false, f32(w), Buf{}, f32(g), f32(m), f32(v));
  mm = b1 * mm + (1 - b1) * -0.1;
  vv = b2 * vv + (1 - b2) * 0.01;
  ww = ww - lr * (mm / (1 - b1 * b1)) / (std::sqrt(vv / (1 - b2 * b2)) + eps);
  CHECK(m[0] == doctest::Approx(mm).epsilon(1e-6));
  CHECK(v[0] == doctest::Approx(vv).epsilon(1e-6));
  CHECK(w[0] == doctest::Approx(ww).epsilon(1e-6));
}

TEST_CASE("AdamW decays the weight itself, Adam with decay adds it to the gradient") {
  OptimizerHyper h = hyper(Optimizer::adam, 0.1f);
  h.weight_decay = 0.5f;
  h.decoupled = true;
  std::vector<float> w = {2.0f}, g = {1.0f}, m = {0.0f}, v = {0.0f};
  optimizer_update(h, 1, 1.0f, true, f32(w), Buf{}, f32(g), f32(m), f32(v));
  CHECK(w[0] == doctest::Approx(2.0 * (1 - 0.1 * 0.5) - 0.1 * 1.0 / (1.0 + 1e-8)).epsilon(1e-7));  // 1.8
  // Not decayed (decay = false): a plain Adam step of size lr.
  std::vector<float> w2 = {2.0f}, m2 = {0.0f}, v2 = {0.0f};
  optimizer_update(h, 1, 1.0f, false, f32(w2), Buf{}, f32(g), f32(m2), f32(v2));
  CHECK(w2[0] == doctest::Approx(1.9).epsilon(1e-7));
}

TEST_CASE("an FP32 master copy keeps an update that the FP16 weight alone loses") {
  // lr·g = 1e-4 < half an fp16 ulp at 1.0 (4.9e-4).
  std::vector<std::uint16_t> w16 = {f32_to_f16_bits(1.0f)}, g16 = {f32_to_f16_bits(1.0f)};
  Buf w{w16.data(), DType::f16, 1}, g{g16.data(), DType::f16, 1};
  UpdateCounts pure = optimizer_update(hyper(Optimizer::sgd, 1e-4f), 1, 1.0f, false, w, Buf{}, g, Buf{}, Buf{});
  CHECK(pure.weights_unchanged == 1);
  CHECK(w16[0] == f32_to_f16_bits(1.0f));
  std::vector<float> master = {1.0f};
  UpdateCounts counts{};
  for (int i = 0; i < 10; ++i)
    counts = optimizer_update(hyper(Optimizer::sgd, 1e-4f), 1, 1.0f, false, w, f32(master), g, Buf{}, Buf{});
  CHECK(counts.master_unchanged == 0);
  CHECK(master[0] == doctest::Approx(1.0 - 10 * 1e-4).epsilon(1e-6));
  CHECK(f16_bits_to_f32(w16[0]) == doctest::Approx(0.999).epsilon(1e-3));  // ten small steps accumulated, then rounded
  CHECK(w16[0] != f32_to_f16_bits(1.0f));
}

TEST_CASE("the overflow check finds Inf and NaN in 16-bit and 32-bit gradients") {
  std::vector<float> ok = {1.0f, -3.0f}, bad = {1.0f, std::nanf("")};
  CHECK(all_finite(f32(ok)));
  CHECK_FALSE(all_finite(f32(bad)));
  std::vector<std::uint16_t> h = {0x3c00, 0x7c00};
  CHECK_FALSE(all_finite(Buf{h.data(), DType::f16, 2}));
  // Every position of a 4-wide vector body and of the scalar tail, with each kind of non-finite,
  // next to the largest finite values (whose products with 0 must not overflow).
  const float kinds[] = {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), std::nanf("")};
  for (int n = 1; n <= 11; ++n) {
    std::vector<float> g(static_cast<std::size_t>(n), std::numeric_limits<float>::max());
    g[0] = -0.0f;
    CHECK(all_finite(f32(g)));
    for (int at = 0; at < n; ++at)
      for (float bad_value : kinds) {
        std::vector<float> x = g;
        x[static_cast<std::size_t>(at)] = bad_value;
        CAPTURE(n);
        CAPTURE(at);
        CHECK_FALSE(all_finite(f32(x)));
      }
  }
}

TEST_CASE("the vectorised FP32 Adam gives the same bits as the scalar loop") {
  const int n = 7;
  std::vector<float> w(n), g(n), m(n, 0.01f), v(n, 0.02f);
  for (int i = 0; i < n; ++i) {
    w[i] = 0.1f * static_cast<float>(i) - 0.3f;
    g[i] = 0.05f * static_cast<float>(i * i) - 0.7f;
  }
  std::vector<float> w1 = w, m1 = m, v1 = v;
  OptimizerHyper h = hyper(Optimizer::adam, 0.01f);
  h.weight_decay = 0.1f;
  h.decoupled = true;
  const UpdateCounts all = optimizer_update(h, 3, 0.5f, true, f32(w), Buf{}, f32(g), f32(m), f32(v));
  for (int i = 0; i < n; ++i) {  // one element at a time: only the scalar tail runs
    Buf wi{&w1[i], DType::f32, 1}, gi{&g[i], DType::f32, 1}, mi{&m1[i], DType::f32, 1}, vi{&v1[i], DType::f32, 1};
    optimizer_update(h, 3, 0.5f, true, wi, Buf{}, gi, mi, vi);
  }
  CHECK(w == w1);
  CHECK(m == m1);
  CHECK(v == v1);
  CHECK(all.weights_unchanged == 0);
}
