// exp_approx and the GELU pieces (core/refengine/fastmath.hpp): NaN goes in, NaN comes out, with no
// undefined behaviour on the way (scripts/sanitize.sh runs this under UBSan), and the scalar exp
// agrees bit for bit with its vector twin (simd.hpp), which the float32 loops use.
#include <doctest/doctest.h>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include "refengine/fastmath.hpp"
#include "refengine/simd.hpp"

using namespace lab::ref;

TEST_CASE("exp_approx and GELU of NaN are NaN, without converting NaN to an integer (UBSan regression)") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::isnan(exp_approx(nan)));
  CHECK(std::isnan(exp_approx(-nan)));
  CHECK(std::isnan(gelu_value(nan)));
  CHECK(std::isnan(gelu_grad(nan)));
}

TEST_CASE("exp_approx matches its vector twin bit for bit, clamped ends included") {
  for (float x : {-1000.0f, -87.3f, -50.5f, -1.0f, -1e-3f, 0.0f, 1e-3f, 0.5f, 1.0f, 10.25f, 88.0f, 1000.0f}) {
    CAPTURE(x);
    const v4f v = exp_approx_v4(splat(x));
    float lanes[4];
    std::memcpy(lanes, &v, sizeof lanes);
    const float s = exp_approx(x);
    CHECK(std::memcmp(&s, &lanes[0], 4) == 0);
    CHECK(std::isfinite(s));
  }
  CHECK(exp_approx(0.0f) == 1.0f);
}
