// solve's "fewest_devices" on the real engine (core/facade/facade_solve_parallel.cpp): the binary search
// gives what a scan of every N gives, a device's peak never grows with N at any stage, GPT-2 XL on the
// 8 GB laptop GPU at Act 2's laptop setting (mixed Adam, batch 1, full checkpointing), and the JSON.
#include <doctest/doctest.h>
#include "facade/facade.hpp"
#include "facade/facade_parallel.hpp"
#include "facade/facade_solve_parallel.hpp"
#include "facade/scenario_json.hpp"
#include "solver/solver_parallel.hpp"

using namespace lab;
using nlohmann::json;

namespace {

// Act 3's question: 8 GB laptop GPUs, mixed-precision Adam, batch 1 with full recompute, a free link.
const char* const kLaptop =
    R"({"model":"gpt2-xl","device":"rtx4060-laptop-8gb","precision":"mixed","optimizer":"adam","batch_size":1,"checkpointing":"full","parallel":{"data_parallel":1,"zero_stage":3,"interconnect":"ideal"}})";

Scenario parsed(const json& request) {
  facade::enable_parallel();
  return parse_scenario(request, {"max_batch_size"});
}

json solve(const json& request) { return json::parse(facade::solve_scale(request.dump())); }

}  // namespace

// From two devices on, that is: one device has no DDP bucket copy (nothing to all-reduce), so with
// "copy" buckets plain data parallelism's peak grows from N = 1 to 2; the search tries N = 1 on its own.
TEST_CASE("fewest devices: the binary search equals a scan of every N, and no device's peak grows with N from N = 2") {
  const json scenarios[] = {
      json::parse(kLaptop),
      json::parse(R"({"model":"gpt2-xl","device":"rtx4060-laptop-8gb","precision":"fp32","optimizer":"adam","batch_size":4,"parallel":{"interconnect":"pcie4"}})"),
      json::parse(R"({"model":"llama-2-13b","device":"a100-sxm4-40gb","precision":"mixed","optimizer":"adam","batch_size":2,"checkpointing":"selective","parallel":{"tensor_parallel":2,"pipeline_parallel":2,"micro_batches":4,"interconnect":"nvlink3"}})"),
      json::parse(R"({"model":"llama-2-7b","device":"rtx4090-24gb","precision":"mixed","optimizer":"momentum","batch_size":8,"parallel":{"gradient_buckets":"view","interconnect":"ethernet-100g"}})"),
      json::parse(R"({"model":"gpt2-small","device":"t4-16gb","precision":"mixed","optimizer":"adam","batch_size":4,"parallel":{}})"),
  };
  for (const json& request : scenarios) {
    CAPTURE(request.dump());
    const Scenario s = parsed(request);
    const std::int64_t per_replica = s.parallel->tensor_parallel * s.parallel->pipeline_parallel;
    const DeviceLoadFn load = facade::device_load_fn(s);
    const FewestDevices fast = fewest_devices(load, per_replica);
    const FewestDevices scan = fewest_devices_scan(load, per_replica);
    CHECK(fast.found == scan.found);
    CHECK(fast.devices == scan.devices);
    CHECK(fast.zero_stage == scan.zero_stage);
    for (int stage = 0; stage < 4; ++stage) {
      CHECK(fast.by_stage[stage].data_parallel == scan.by_stage[stage].data_parallel);
      CHECK(fast.by_stage[stage].peak_bytes_per_device == scan.by_stage[stage].peak_bytes_per_device);
      std::int64_t previous = load(stage, 2).peak_bytes;
      for (std::int64_t n = 3; n <= kMaxDataParallel; ++n) {
        const std::int64_t peak = load(stage, n).peak_bytes;
        if (peak > previous) FAIL_CHECK("stage " << stage << ": the peak grows from N = " << n - 1 << " to " << n);
        previous = peak;
      }
    }
    CHECK(fast.evaluations <= 4 * 13);
  }
}

TEST_CASE("plain data parallelism's bucket copy appears with the second device: the reason N = 1 is tried apart") {
  const Scenario s = parsed(json::parse(R"({"model":"gpt2-small","device":"t4-16gb","precision":"mixed","parallel":{"gradient_buckets":"copy"}})"));
  const DeviceLoadFn load = facade::device_load_fn(s);
  CHECK(load(0, 2).peak_bytes > load(0, 1).peak_bytes);
  CHECK(load(0, 1024).peak_bytes == load(0, 2).peak_bytes);
}

TEST_CASE("GPT-2 XL on 8 GB laptop GPUs (mixed Adam, batch 1, full checkpointing): 4 devices, fully sharded") {
  const json r = solve(json::parse(kLaptop));
  REQUIRE(r.contains("fewest_devices"));
  const json& f = r["fewest_devices"];
  CHECK(f["devices"] == 4);
  CHECK(f["data_parallel"] == 4);
  CHECK(f["zero_stage"] == 3);
  CHECK(f["max_devices"] == 1024);
  // Plain data parallelism and ZeRO-1 replicate too much to fit at any N; ZeRO-2 needs 6.
  CHECK(f["by_stage"][0]["devices"].is_null());
  CHECK(f["by_stage"][1]["devices"].is_null());
  CHECK(f["by_stage"][2]["devices"] == 6);
  CHECK(f["by_stage"][3]["devices"] == 4);
  // The answer is evaluate's: it fits at 4 and not at 3, with the peak solve reports.
  json at = json::parse(kLaptop);
  at["parallel"]["data_parallel"] = 4;
  const json four = json::parse(facade::evaluate(at.dump()));
  at["parallel"]["data_parallel"] = 3;
  const json three = json::parse(facade::evaluate(at.dump()));
  CHECK(four["memory"]["fits"] == true);
  CHECK(three["memory"]["fits"] == false);
  CHECK(four["memory"]["peak_bytes"] == f["peak_bytes_per_device"]);
  CHECK(four["parallel"]["step_s"] == f["step_s"]);
  // Plain data parallelism at 1,024 devices still holds every byte of model state: 16 B per parameter.
  CHECK(f["by_stage"][0]["peak_bytes_per_device"].get<std::int64_t>() > 16LL * 1'557'611'200);
  const std::string text = f["text"];
  CHECK(text.find("At the fewest, GPT-2 XL (1.5B) trains on 4 × NVIDIA GeForce RTX 4060 Laptop 8 GB") == 0);
  CHECK(text.find("ZeRO stage 3") != std::string::npos);
  CHECK(text.find("Plain data parallelism never fits") != std::string::npos);
}

TEST_CASE("fewest devices counts every device of a replica: N x tensor x pipeline parallel") {
  json request = json::parse(R"({"model":"llama-2-13b","device":"a100-sxm4-40gb","precision":"mixed","optimizer":"adam","batch_size":2,"checkpointing":"selective","parallel":{"tensor_parallel":2,"pipeline_parallel":2,"micro_batches":4,"interconnect":"nvlink3"}})");
  const json f = solve(request)["fewest_devices"];
  REQUIRE(f["devices"].is_number_integer());
  CHECK(f["devices"].get<std::int64_t>() == 4 * f["data_parallel"].get<std::int64_t>());
  for (const auto& s : f["by_stage"])
    if (!s["devices"].is_null()) CHECK(s["devices"].get<std::int64_t>() == 4 * s["data_parallel"].get<std::int64_t>());
}

TEST_CASE("one device that fits is the answer at stage 0 (ties go to the stage that communicates least)") {
  const json f = solve(json::parse(R"({"model":"gpt2-small","device":"h100-sxm-80gb","precision":"mixed","parallel":{"zero_stage":3}})"))["fewest_devices"];
  CHECK(f["devices"] == 1);
  CHECK(f["zero_stage"] == 0);
  for (const auto& s : f["by_stage"]) CHECK(s["devices"] == 1);
}

TEST_CASE("pure FP16 never reads as a fit, however many devices; the sentence says why") {
  json request = json::parse(kLaptop);
  request["precision"] = "fp16";
  const json f = solve(request)["fewest_devices"];
  CHECK(f["devices"].is_null());
  CHECK(f["zero_stage"].is_null());
  CHECK(f["step_s"].is_null());
  for (const auto& s : f["by_stage"]) CHECK(s["devices"].is_null());
  CHECK(f["text"].get<std::string>().find("FP32 master copy") != std::string::npos);
}

TEST_CASE("a model no count of devices fits says so, with what a fully sharded device would need") {
  const json f = solve(json::parse(R"({"model":"llama-2-13b","device":"rtx4060-laptop-8gb","precision":"fp32","batch_size":64,"seq_len":4096,"parallel":{}})"))["fewest_devices"];
  CHECK(f["devices"].is_null());
  CHECK(f["text"].get<std::string>().find("does not fit on up to 1024") != std::string::npos);
}

TEST_CASE("solve without \"parallel\" has no fewest_devices, and is lab_core's solve; bad \"parallel\" input names its field") {
  CHECK_FALSE(solve(json::parse(R"({"model":"gpt2-xl"})")).contains("fewest_devices"));
  const std::string one = R"({"model":"gpt2-xl","device":"rtx4060-laptop-8gb","precision":"mixed"})";
  CHECK(facade::solve_scale(one) == facade::solve(one));
  CHECK_FALSE(json::parse(facade::solve(kLaptop)).contains("fewest_devices"));  // lab_core's entry point
  const json bad = solve(json::parse(R"({"model":"gpt2-xl","parallel":{"tensor_parallel":7}})"));
  CHECK(bad["error"]["field"] == "parallel.tensor_parallel");
  const json link = solve(json::parse(R"({"model":"gpt2-xl","parallel":{"interconnect":{"bytes_per_s":0}}})"));
  CHECK(link["error"]["field"] == "parallel.interconnect.bytes_per_s");
}

// PyTorch's own counting models DDP and ZeRO stage 1 (ZeroRedundancyOptimizer) only: the search covers
// those two stages and does not fail on the stages that counting refuses.
TEST_CASE("framework pytorch: fewest devices over stages 0 and 1 only, never an error") {
  const json request = json::parse(
      R"({"model":"gpt2-medium","device":"t4-16gb","precision":"autocast_bf16","optimizer":"adam","batch_size":4,"seq_len":1024,"framework":"pytorch","activation_model":"pytorch_eager","parallel":{"zero_stage":1}})");
  const json out = solve(request);
  REQUIRE_FALSE(out.contains("error"));
  const json f = out["fewest_devices"];
  REQUIRE(f["by_stage"].size() == 2);
  CHECK(f["by_stage"][0]["zero_stage"] == 0);
  CHECK(f["by_stage"][1]["zero_stage"] == 1);
  if (!f["devices"].is_null()) CHECK(f["zero_stage"].get<int>() <= 1);
}
