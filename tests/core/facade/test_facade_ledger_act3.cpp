// verify_ledger's Act 3 record (core/facade/facade_ledger_act3.cpp): a record built through the engine
// verifies; a tampered devices_needed, step time or reflection score differs, naming the field; an
// unreadable record is invalid, naming the field; a ledger without one says Act 3 was not reached.
#include <doctest/doctest.h>
#include <algorithm>
#include <fstream>
#include <sstream>
#include "facade/facade.hpp"
#include "facade/facade_ledger.hpp"
#include "facade/facade_solve_parallel.hpp"

using namespace lab;
using nlohmann::json;

namespace {

std::string read_text(const std::string& rel) {
  const std::string here = __FILE__;  // <repo>/tests/core/facade/... (CMake passes absolute paths)
  std::ifstream f(here.substr(0, here.rfind("/tests/core/")) + "/" + rel, std::ios::binary);
  REQUIRE_MESSAGE(f.good(), "cannot open " << rel);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

json verify(const json& ledger) { return json::parse(facade::verify_ledger(ledger.dump())); }

// The prediction's scenario as act3-model.js toScenario3(PREDICT3) writes it, and an explored one.
const json kPredict = json::parse(
    R"({"model":"gpt2-xl","device":"rtx4060-laptop-8gb","optimizer":"adam","precision":"mixed","batch_size":1,"checkpointing":"full","schedule_steps":0,"parallel":{"data_parallel":1,"zero_stage":3,"tensor_parallel":1,"sequence_parallel":false,"pipeline_parallel":1,"micro_batches":1,"interconnect":"ideal","overlap":true}})");
const json kExplore = json::parse(
    R"({"model":"gpt2-xl","device":"rtx4060-laptop-8gb","optimizer":"adam","precision":"mixed","batch_size":2,"checkpointing":"full","schedule_steps":0,"parallel":{"data_parallel":8,"zero_stage":3,"tensor_parallel":1,"sequence_parallel":false,"pipeline_parallel":1,"micro_batches":1,"interconnect":"nvlink4","overlap":true}})");

// The record as the page builds it (act3-model.js act3Record), every engine value from the engine.
json act3_record() {
  const json solved = facade::solve_scale_json(kPredict);
  json steps = json::object();
  for (const char* id : {"nvlink4", "pcie4", "ethernet-10g"}) {
    json s = kExplore;
    s["parallel"]["interconnect"] = id;
    steps[id] = facade::evaluate_json(s)["parallel"]["step_s"];
  }
  return {{"act", 3}, {"settings", kExplore}, {"prediction", {{"devices", 8}}},
          {"devices_needed", solved["fewest_devices"]["by_stage"][3]["devices"]}, {"prediction_scenario", kPredict},
          {"step_s_by_interconnect", steps},
          {"reflect", json::array({{{"id", "act3_dp"}, {"choice", "copies"}, {"correct", true}},
                                   {{"id", "act3_ceiling"}, {"choice", "count"}, {"correct", false}}})}};
}

json ledger_with(const json& record) {
  json ledger = json::parse(read_text("tests/fixtures/ledger/valid-complete.json"));
  ledger["result_snapshot"]["act3"] = record;
  return ledger;
}

bool recomputed(const json& report, const std::string& field) {
  return std::any_of(report["fields"].begin(), report["fields"].end(), [&](const json& f) { return f["field"] == field; });
}

}  // namespace

TEST_CASE("an Act 3 record built through the engine verifies, each engine value re-computed") {
  const json r = verify(ledger_with(act3_record()));
  CAPTURE(r.dump());
  CHECK(r["status"] == "ok");
  for (const char* f : {"result_snapshot.act3.devices_needed", "result_snapshot.act3.step_s_by_interconnect.nvlink4",
                        "result_snapshot.act3.step_s_by_interconnect.pcie4", "result_snapshot.act3.step_s_by_interconnect.ethernet-10g",
                        "result_snapshot.act3.reflect[0].correct", "result_snapshot.act3.reflect[1].correct"})
    CHECK_MESSAGE(recomputed(r, f), f);
  CHECK(r["scenarios"]["act3"]["parallel"]["data_parallel"] == 8);
  CHECK(act3_record()["devices_needed"] == 4);  // the engine's answer to Act 3's question
}

TEST_CASE("the reflection keys are the engine's: replicas for plain data parallelism, the ratio r for the ceiling") {
  json record = act3_record();
  record["reflect"] = {{{"id", "act3_dp"}, {"choice", "split"}, {"correct", false}},
                       {{"id", "act3_ceiling"}, {"choice", "ratio"}, {"correct", true}}};
  CHECK(verify(ledger_with(record))["status"] == "ok");
}

TEST_CASE("a tampered Act 3 value differs, and the report names the field") {
  const auto differing = [](json record) { return verify(ledger_with(record))["differing_fields"]; };
  json more = act3_record();
  more["devices_needed"] = 3;
  CHECK(differing(more) == json::array({"result_snapshot.act3.devices_needed"}));
  json faster = act3_record();
  faster["step_s_by_interconnect"]["pcie4"] = faster["step_s_by_interconnect"]["pcie4"].get<double>() * 0.5;
  CHECK(differing(faster) == json::array({"result_snapshot.act3.step_s_by_interconnect.pcie4"}));
  json scored = act3_record();
  scored["reflect"][1]["correct"] = true;  // "count" is not what sets the ceiling
  CHECK(differing(scored) == json::array({"result_snapshot.act3.reflect[1].correct"}));
  json other = act3_record();
  other["prediction_scenario"]["device"] = "rtx4090-24gb";  // 24 GB cards: fewer needed than recorded
  CHECK(differing(other) == json::array({"result_snapshot.act3.devices_needed"}));
}

TEST_CASE("an Act 3 record that cannot be read is invalid, naming the field") {
  const auto error_field = [](json record) {
    const json r = verify(ledger_with(record));
    CHECK(r["status"] == "invalid");
    return r["error"]["field"];
  };
  json r1 = act3_record();
  r1["reflect"][0]["id"] = "act3_why";
  CHECK(error_field(r1) == "result_snapshot.act3.reflect[0].id");
  json r2 = act3_record();
  r2["step_s_by_interconnect"]["carrier-pigeon"] = 1.0;
  CHECK(error_field(r2) == "result_snapshot.act3.step_s_by_interconnect.carrier-pigeon");
  json r3 = act3_record();
  r3["settings"]["parallel"]["tensor_parallel"] = 7;
  CHECK(error_field(r3) == "result_snapshot.act3.settings");
  json r4 = act3_record();
  r4.erase("prediction_scenario");
  CHECK(error_field(r4) == "result_snapshot.act3.prediction_scenario");
  json r5 = act3_record();
  r5["act"] = 2;
  CHECK(error_field(r5) == "result_snapshot.act3.act");
  json r6 = act3_record();
  r6["reflect"] = "copies";
  CHECK(error_field(r6) == "result_snapshot.act3.reflect");
}

TEST_CASE("a ledger without an Act 3 record lists it as not re-computed") {
  const json r = verify(json::parse(read_text("tests/fixtures/ledger/valid-complete.json")));
  const json& skipped = r["not_recomputed"];
  CHECK(std::any_of(skipped.begin(), skipped.end(), [](const json& s) { return s["field"] == "result_snapshot.act3"; }));
  CHECK_FALSE(r["scenarios"].contains("act3"));
}
