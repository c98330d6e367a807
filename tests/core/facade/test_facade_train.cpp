// The train facade natively: a small run reports prediction == measurement, the incremental
// session runs the same steps in pieces, and every bad request names its field.
#include <doctest/doctest.h>
#include <string>
#include "facade/facade.hpp"
#include "facade/facade_train.hpp"

using nlohmann::json;
using namespace lab::facade;

namespace {
const char* kSmall =
    R"({"vocab": 16, "context": 8, "d_model": 16, "heads": 2, "layers": 2, "mlp_hidden": 32, "batch_size": 2, "seq_len": 8, "steps": 3})";
json run(const std::string& text) { return json::parse(train(text)); }
json with(const std::string& extra) {
  json j = json::parse(kSmall);
  j.update(json::parse(extra));
  return j;
}
}  // namespace

TEST_CASE("train reports losses, timing, FLOPs and a measured memory profile equal to the prediction") {
  const json r = run(kSmall);
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["losses"].size() == 3);
  CHECK(r["steps_done"] == 3);
  CHECK(r["memory"]["match"] == true);
  CHECK(r["memory"]["measured"]["peak_bytes"] == r["memory"]["predicted"]["peak_bytes"]);
  CHECK(r["memory"]["measured"]["max_by_category"] == r["memory"]["predicted"]["max_by_category"]);
  CHECK(r["memory"]["timeline"]["phases"].front() == "init");
  CHECK(r["memory"]["timeline"]["measured_peak_bytes"] == r["memory"]["timeline"]["predicted_peak_bytes"]);
  CHECK(r["flops"]["measured_executed_per_step"] == r["flops"]["executed_per_step"]);
  CHECK(r["time"]["median_seconds_per_step"].get<double>() > 0);
  CHECK(r["storage"]["master_weights"].is_null());
  CHECK(r["request"]["optimizer"] == "adam");
  CHECK(r["task"]["uniform_loss_nats"].get<double>() > r["task"]["loss_floor_nats"].get<double>());
}

TEST_CASE("train with steps 0 gives the prediction without running") {
  const json r = run(with(R"({"steps": 0, "precision": "mixed", "checkpointing": {"every_k_layers": 2}})").dump());
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["losses"].empty());
  CHECK_FALSE(r["memory"].contains("measured"));
  CHECK(r["memory"]["predicted"]["persistent"]["master_weights"].get<std::int64_t>() > 0);
  CHECK(r["storage"]["weights"] == "fp16");
  CHECK(r["request"]["loss_scale"]["mode"] == "dynamic");
}

TEST_CASE("a training session runs the same steps in pieces and stops at the requested count") {
  TrainSession s(with(R"({"steps": 5})").dump());
  const json status = json::parse(s.status());
  CHECK(status["ok"] == true);
  CHECK(status["timeline"]["phases"].front() == "init");  // the prediction can be drawn before running
  CHECK(status["predicted"]["peak_bytes"].get<std::int64_t>() > 0);
  const json a = json::parse(s.step(2));
  CHECK(a["steps_done"] == 2);
  CHECK(a["losses"].size() == 2);
  CHECK(a["done"] == false);
  const json b = json::parse(s.step(100));
  CHECK(b["steps_done"] == 5);
  CHECK(b["done"] == true);
  CHECK(json::parse(s.step(1))["losses"].empty());
  const json report = json::parse(s.report());
  const json whole = run(with(R"({"steps": 5})").dump());
  CHECK(report["losses"] == whole["losses"]);  // deterministic: same seed, same losses
  CHECK(report["memory"]["match"] == true);
}

TEST_CASE("a refused session answers every call with the same error") {
  TrainSession s(R"({"heads": 3})");
  for (const json& r : {json::parse(s.status()), json::parse(s.step(1)), json::parse(s.report())}) {
    REQUIRE(r.contains("error"));
    CHECK(r["error"]["field"] == "heads");
  }
  TrainSession m("{not json");
  CHECK(json::parse(m.report())["error"]["field"] == "");
}

TEST_CASE("bad train requests name the field") {
  const std::pair<std::string, std::string> cases[] = {
      {R"([1])", ""},
      {R"({"bogus": 1})", "bogus"},
      {R"({"vocab": 1})", "vocab"},
      {R"({"d_model": 10, "heads": 4})", "heads"},
      {R"({"seq_len": 65, "context": 64})", "seq_len"},
      {R"({"precision": "fp8"})", "precision"},
      {R"({"optimizer": "lion"})", "optimizer"},
      {R"({"learning_rate": 0})", "learning_rate"},
      {R"({"checkpointing": {"every_k_layers": 9}, "layers": 4})", "checkpointing.every_k_layers"},
      {R"({"checkpointing": "sometimes"})", "checkpointing"},
      {R"({"loss_scale": {"mode": "static", "value": -1}})", "loss_scale.value"},
      {R"({"loss_scale": {"value": 8}})", "loss_scale.mode"},
      {R"({"steps": 1000000})", "steps"},
      {R"({"task": "chess"})", "task"},
      {R"({"batch_size": 256, "seq_len": 2048, "context": 2048})", "batch_size"},
      {R"({"d_model": 2048, "heads": 16, "layers": 12, "steps": 0})", "d_model"},
      {R"({"steps": 100000})", "steps"},
  };
  for (const auto& c : cases) {
    const std::string request = c.first, field = c.second;  // clang 14: no structured bindings in CAPTURE
    CAPTURE(request);
    const json r = run(request);
    REQUIRE(r.contains("error"));
    CHECK(r["error"]["field"] == field);
    CHECK(r["error"]["message"].get<std::string>().size() > 10);
  }
}

TEST_CASE("measure_peak reports this CPU's matmul peak and the MFU against it") {
  const json r = run(with(R"({"steps": 2, "measure_peak": true})").dump());
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["peak"]["flops_per_s"].get<double>() > 1e8);
  CHECK(r["throughput"]["mfu"].get<double>() > 0.0);
  CHECK(r["throughput"]["hfu"].get<double>() == doctest::Approx(r["throughput"]["mfu"].get<double>()));  // no recompute
}
