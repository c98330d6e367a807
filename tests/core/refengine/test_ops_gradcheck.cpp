// Central-difference gradient checks, one per op: L = Σ out·R for a fixed random R, the analytic
// gradient from the op's backward against (L(x+h) − L(x−h)) / 2h for every input element.
#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <functional>
#include <vector>
#include "refengine/fastmath.hpp"
#include "refengine/ops.hpp"

using namespace lab::ref;

namespace {
using Vec = std::vector<float>;

Vec random_vec(std::size_t n, std::uint64_t seed, float scale = 1.0f) {
  Vec v(n);
  for (auto& x : v) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    x = scale * static_cast<float>(static_cast<double>(seed >> 40) / 16777216.0 * 2.0 - 1.0);
  }
  return v;
}
Buf buf(Vec& v) { return {v.data(), DType::f32, static_cast<std::int64_t>(v.size())}; }
double dot(const Vec& a, const Vec& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += static_cast<double>(a[i]) * b[i];
  return s;
}

struct Ctx {
  std::vector<float> ws;
  KernelCtx k;
  explicit Ctx(std::int64_t max_n) : ws(static_cast<std::size_t>(gemm_workspace_floats(max_n))) {
    k.workspace = ws.data();
    k.workspace_floats = static_cast<std::int64_t>(ws.size());
  }
};

// Checks d loss / d x[i] for all i: `loss` recomputes the scalar from the current x.
void check_grad(const char* what, Vec& x, const Vec& analytic, const std::function<double()>& loss,
                double h = 1e-2, double atol = 2e-3, double rtol = 2e-2) {
  REQUIRE(analytic.size() == x.size());
  int bad = 0;
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float keep = x[i];
    x[i] = keep + static_cast<float>(h);
    const double lp = loss();
    x[i] = keep - static_cast<float>(h);
    const double lm = loss();
    x[i] = keep;
    const double numeric = (lp - lm) / (2 * h);
    const double err = std::fabs(numeric - analytic[i]);
    worst = std::max(worst, err);
    if (err > atol + rtol * std::max(std::fabs(numeric), std::fabs(static_cast<double>(analytic[i])))) ++bad;
  }
  CAPTURE(what);
  CAPTURE(worst);
  CHECK(bad == 0);
}
}  // namespace

TEST_CASE("gradcheck: token + position embedding") {
  const std::int64_t B = 2, T = 3, C = 5, V = 7, ctx = 4;
  std::vector<std::int32_t> tok = {1, 6, 1, 0, 1, 3}, index(B * T), offsets(V + 1);
  Vec wte = random_vec(V * C, 1), wpe = random_vec(ctx * C, 2), out(B * T * C), R = random_vec(B * T * C, 3);
  auto loss = [&] {
    embedding_forward(tok.data(), buf(wte), buf(wpe), buf(out), B, T, C);
    return dot(out, R);
  };
  Vec dwte(V * C, 9.f), dwpe(ctx * C, 9.f);
  embedding_backward(tok.data(), buf(R), buf(dwte), buf(dwpe), B, T, C, V, ctx, index.data(), offsets.data());
  check_grad("wte", wte, dwte, loss);
  check_grad("wpe", wpe, dwpe, loss);
  CHECK(dwpe[static_cast<std::size_t>(3 * C)] == 0.0f);  // position 3 >= T gets a zero gradient
}

TEST_CASE("gradcheck: linear (matmul + bias)") {
  const std::int64_t N = 6, IC = 5, OC = 11;
  Ctx c(OC);
  Vec x = random_vec(N * IC, 4), w = random_vec(IC * OC, 5), b = random_vec(OC, 6), y(N * OC), R = random_vec(N * OC, 7);
  auto loss = [&] {
    linear_forward(c.k, buf(x), buf(w), buf(b), buf(y), N, IC, OC);
    return dot(y, R);
  };
  Vec dx(N * IC), dw(IC * OC), db(OC);
  linear_backward(c.k, buf(R), buf(x), buf(w), buf(dx), buf(dw), buf(db), N, IC, OC);
  check_grad("x", x, dx, loss);
  check_grad("w", w, dw, loss);
  check_grad("b", b, db, loss);
}

TEST_CASE("gradcheck: layernorm") {
  const std::int64_t N = 4, C = 9;
  Vec x = random_vec(N * C, 8, 2.0f), g = random_vec(C, 9), b = random_vec(C, 10), y(N * C), R = random_vec(N * C, 11);
  Vec mean(N), rstd(N);
  auto loss = [&] {
    layernorm_forward(buf(x), buf(g), buf(b), buf(y), mean.data(), rstd.data(), N, C);
    return dot(y, R);
  };
  loss();
  Vec dx(N * C, 0.0f), dg(C), dbeta(C);
  layernorm_backward(buf(R), buf(x), mean.data(), rstd.data(), buf(g), buf(dx), buf(dg), buf(dbeta), N, C);
  check_grad("x", x, dx, loss, 1e-3);
  check_grad("gamma", g, dg, loss);
  check_grad("beta", b, dbeta, loss);
}

TEST_CASE("layernorm backward accumulates into dx and forward works without saved statistics") {
  const std::int64_t N = 2, C = 4;
  Vec x = random_vec(N * C, 12), g = random_vec(C, 13), b = random_vec(C, 14), y1(N * C), y2(N * C), mean(N), rstd(N);
  layernorm_forward(buf(x), buf(g), buf(b), buf(y1), mean.data(), rstd.data(), N, C);
  layernorm_forward(buf(x), buf(g), buf(b), buf(y2), nullptr, nullptr, N, C);
  CHECK(y1 == y2);
  Vec R = random_vec(N * C, 15), dx0(N * C, 0.0f), dx1(N * C, 1.0f), dg(C), db(C);
  layernorm_backward(buf(R), buf(x), mean.data(), rstd.data(), buf(g), buf(dx0), buf(dg), buf(db), N, C);
  layernorm_backward(buf(R), buf(x), mean.data(), rstd.data(), buf(g), buf(dx1), buf(dg), buf(db), N, C);
  for (std::size_t i = 0; i < dx0.size(); ++i) CHECK(dx1[i] == doctest::Approx(dx0[i] + 1.0f));
}

TEST_CASE("gradcheck: GELU, and its values match the tanh formula") {
  const std::int64_t n = 40;
  Vec x = random_vec(n, 16, 4.0f), y(n), R = random_vec(n, 17);
  auto loss = [&] {
    gelu_forward(buf(x), buf(y), n);
    return dot(y, R);
  };
  Vec dx(n);
  gelu_backward(buf(R), buf(x), buf(dx), n);
  check_grad("x", x, dx, loss, 1e-3);
  for (float v : {-6.0f, -1.0f, -0.1f, 0.0f, 0.3f, 2.0f, 9.0f}) {
    const double ref = 0.5 * v * (1 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    CHECK(gelu_value(v) == doctest::Approx(ref).epsilon(1e-6));
  }
  CHECK(exp_approx(1.0f) == doctest::Approx(std::exp(1.0)).epsilon(3e-7));
  CHECK(exp_approx(-20.5f) == doctest::Approx(std::exp(-20.5)).epsilon(3e-7));
  CHECK(exp_approx(80.0f) == doctest::Approx(std::exp(80.0)).epsilon(3e-7));
  CHECK(std::isfinite(exp_approx(1000.0f)));
}

TEST_CASE("gradcheck: residual add") {
  const std::int64_t n = 12;
  Vec a = random_vec(n, 18), b = random_vec(n, 19), y(n), R = random_vec(n, 20);
  auto loss = [&] {
    residual_forward(buf(a), buf(b), buf(y), n);
    return dot(y, R);
  };
  Vec da(n, 0.0f), db(n, 0.0f);
  residual_backward(buf(R), buf(da), buf(db), n);
  check_grad("a", a, da, loss);
  check_grad("b", b, db, loss);
}

TEST_CASE("gradcheck: softmax, causal and full") {
  for (bool causal : {true, false}) {
    const std::int64_t rows = 5, cols = 5;
    Vec x = random_vec(rows * cols, 21, 3.0f), y(rows * cols), R = random_vec(rows * cols, 22);
    auto loss = [&] {
      softmax_forward(buf(x), buf(y), rows, cols, causal);
      return dot(y, R);
    };
    loss();
    Vec dx(rows * cols);
    softmax_backward(buf(R), buf(y), buf(dx), rows, cols, causal);
    check_grad(causal ? "causal" : "full", x, dx, loss, 1e-3);
    if (causal) CHECK(y[1] == 0.0f);  // row 0 sees only column 0
  }
}

TEST_CASE("float32 softmax on long rows (vector max, blocked exps) matches a double-precision softmax") {
  const std::int64_t rows = 70, cols = 70;  // valid lengths 1..70: every mix of block, vector and scalar tail
  Vec x = random_vec(rows * cols, 31, 8.0f), y(rows * cols);
  x[3 * cols + 2] = x[3 * cols + 1];  // a tie for the maximum
  for (bool causal : {true, false}) {
    softmax_forward(buf(x), buf(y), rows, cols, causal);
    for (std::int64_t r = 0; r < rows; ++r) {
      const std::int64_t valid = causal ? std::min(r + 1, cols) : cols;
      double mx = -1e300, sum = 0.0;
      for (std::int64_t j = 0; j < valid; ++j) mx = std::max(mx, static_cast<double>(x[r * cols + j]));
      for (std::int64_t j = 0; j < valid; ++j) sum += std::exp(static_cast<double>(x[r * cols + j]) - mx);
      for (std::int64_t j = 0; j < cols; ++j) {
        const double ref = j < valid ? std::exp(static_cast<double>(x[r * cols + j]) - mx) / sum : 0.0;
        CAPTURE(r);
        CAPTURE(j);
        CHECK(std::fabs(y[r * cols + j] - ref) <= 1e-7 + 2e-6 * ref);
      }
    }
  }
}

TEST_CASE("gradcheck: causal self-attention, probabilities saved or recomputed") {
  const AttnShape s{2, 5, 8, 2};
  const std::int64_t TT = s.T * s.T;
  Ctx c(3 * s.C);
  Vec qkv = random_vec(s.B * s.T * 3 * s.C, 23, 1.5f), y(s.B * s.T * s.C), R = random_vec(s.B * s.T * s.C, 24);
  Vec probs(s.B * s.H * TT), scratch(TT), dscratch(TT);
  auto loss = [&] {
    attention_forward(c.k, s, buf(qkv), buf(y), buf(probs), Buf{});
    return dot(y, R);
  };
  loss();
  Vec dqkv(qkv.size()), dqkv_recomputed(qkv.size());
  attention_backward(c.k, s, buf(R), buf(qkv), buf(probs), Buf{}, buf(dscratch), buf(dqkv));
  attention_backward(c.k, s, buf(R), buf(qkv), Buf{}, buf(scratch), buf(dscratch), buf(dqkv_recomputed));
  CHECK(dqkv == dqkv_recomputed);  // selective recomputation is bit-identical
  check_grad("qkv", qkv, dqkv, loss, 1e-3);
  loss();  // y for the unperturbed qkv
  Vec y2(y.size());
  attention_forward(c.k, s, buf(qkv), buf(y2), Buf{}, buf(scratch));
  CHECK(y == y2);
}

TEST_CASE("gradcheck: cross-entropy, with the loss scale folded into the gradient") {
  const std::int64_t N = 4, V = 6;
  std::vector<std::int32_t> targets = {0, 5, 2, 2};
  Vec logits = random_vec(N * V, 25, 3.0f);
  auto loss = [&] { return cross_entropy_forward(buf(logits), targets.data(), N, V); };
  Vec d(N * V), d8(N * V);
  cross_entropy_backward(buf(logits), targets.data(), buf(d), N, V, 1.0f);
  check_grad("logits", logits, d, loss, 1e-3, 1e-4, 1e-2);
  cross_entropy_backward(buf(logits), targets.data(), buf(d8), N, V, 8.0f);
  for (std::size_t i = 0; i < d.size(); ++i) CHECK(d8[i] == doctest::Approx(8.0f * d[i]));
  Vec uniform(N * V, 0.0f);
  CHECK(cross_entropy_forward(buf(uniform), targets.data(), N, V) == doctest::Approx(std::log(6.0)));
}

TEST_CASE("vectorised GELU and exp give the same bits as their scalar twins") {
  // 151 = two 64-element blocks, four single vectors and a 3-element scalar tail; the range reaches
  // both exp clamps (|2u| > 88 from |x| > ~11) and a NaN and infinities pass through as in the scalar.
  const int n = 151;
  Vec x = random_vec(n, 26, 40.0f), y(n), dy = random_vec(n, 27), dx(n);
  x[5] = std::nanf("");
  x[70] = std::numeric_limits<float>::infinity();
  x[71] = -std::numeric_limits<float>::infinity();
  gelu_forward(buf(x), buf(y), n);
  gelu_backward(buf(dy), buf(x), buf(dx), n);
  auto same = [](float a, float b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
  for (int i = 0; i < n; ++i) {
    CAPTURE(i);
    CAPTURE(x[i]);
    CHECK(same(y[i], gelu_value(x[i])));
    CHECK(same(dx[i], dy[i] * gelu_grad(x[i])));
  }
}
