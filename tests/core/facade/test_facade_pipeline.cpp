// evaluate's "pipeline" object: the chapter reference is priced at the chapter's own precision.
#include <doctest/doctest.h>
#include "facade/facade.hpp"

using nlohmann::json;

namespace {
json pipeline_of(const std::string& text) { return json::parse(lab::facade::evaluate(text))["pipeline"]; }
}  // namespace

TEST_CASE("the chapter's 1,200 tokens/s is priced at the V100's 16-bit peak whatever precision is selected") {
  // 10,279,555,200 FLOP/token × 1,200 tokens/s / 125e12 FLOP/s = 0.09868372992 (≈9.9%).
  const double expected = 10'279'555'200.0 * 1200 / 125e12;
  for (const char* prec : {"fp32", "mixed", "fp16"}) {
    const json p = pipeline_of(std::string(R"({"chapter_replay":true,"batch_size":32,"precision":")") + prec + "\"}");
    CAPTURE(prec);
    REQUIRE(p.contains("chapter_reference"));
    CHECK(p["chapter_reference"]["mfu_at_chapter_throughput"].get<double>() == doctest::Approx(expected).epsilon(1e-12));
    CHECK(p["chapter_reference"]["chapter_precision"] == "mixed");
    CHECK(p["chapter_reference"]["chapter_peak_flops_per_s"].get<double>() == doctest::Approx(125e12));
  }
}

TEST_CASE("the chapter reference appears only in chapter replay") {
  CHECK_FALSE(pipeline_of(R"({"batch_size":32})").contains("chapter_reference"));
}
