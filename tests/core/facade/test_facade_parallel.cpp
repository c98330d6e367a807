// evaluate with "parallel": the per-device memory, the "parallel" block with every documented key,
// errors as values naming the field, and the hook's absence (core/facade/facade_parallel.hpp).
#include <doctest/doctest.h>
#include <string>
#include "facade/facade.hpp"
#include "facade/facade_parallel.hpp"

using namespace lab;
using nlohmann::json;

namespace {
json eval_text(const std::string& text) { return json::parse(facade::evaluate(text)); }
json eval(const json& request) { return eval_text(request.dump()); }
json xl(const json& parallel) {
  return {{"model", "gpt2-xl"}, {"precision", "mixed"}, {"optimizer", "adam"}, {"parallel", parallel}};
}
std::string error_field(const json& r) { return r.contains("error") ? r["error"]["field"].get<std::string>() : "(no error)"; }
}  // namespace

TEST_CASE("evaluate with parallel writes every key of the parallel block") {
  const json r = eval(xl({{"data_parallel", 8}, {"zero_stage", 3}}));
  REQUIRE_FALSE(r.contains("error"));
  const json& p = r["parallel"];
  for (const char* k : {"devices", "data_parallel", "tensor_parallel", "pipeline_parallel", "micro_batches", "zero_stage",
                        "sequence_parallel", "overlap", "gradient_buckets", "global_batch", "tokens_per_device", "interconnect",
                        "parameters_per_device", "memory_by_stage", "communication_bytes_per_step", "collectives", "compute_s",
                        "communication_s", "exposed_communication_s", "hidden_communication_s", "bubble_s", "bubble_fraction",
                        "step_s", "single_device_step_s", "speedup", "scaling_efficiency", "communication_ratio",
                        "crossover_tokens_per_device", "compute_s_per_token", "timeline", "formulas"})
    CHECK_MESSAGE(p.contains(k), k);
  for (const char* k : {"id", "name", "bytes_per_s", "latency_s", "provenance"}) CHECK(p["interconnect"].contains(k));
  for (const char* k : {"all_reduce", "reduce_scatter", "all_gather", "point_to_point", "total"})
    CHECK(p["communication_bytes_per_step"].contains(k));
  CHECK(p["memory_by_stage"].size() == 4);
  CHECK(p["crossover_tokens_per_device"].contains("data_parallel"));
  CHECK(p["crossover_tokens_per_device"].contains("fully_sharded"));
  CHECK(p["devices"] == 8);
  CHECK(p["global_batch"] == 8);
  CHECK(r["flops"]["iron_law"]["num_devices"] == 8);
  CHECK(r["memory"]["per_device"] == true);
  CHECK(r["memory"]["static_bytes"] == 3'115'222'400LL);  // (2 + 2 + 12) x 1,557,611,200 / 8
  CHECK(p["memory_by_stage"][3]["static_bytes"] == 3'115'222'400LL);
  CHECK(p["memory_by_stage"][0]["static_bytes"] == 24'921'779'200LL);  // PHYSICS.md's GPT-2 XL mixed Adam static
  CHECK(r["memory"]["components"].contains("gathered_parameters"));
  CHECK(r["scenario"]["parallel"]["data_parallel"] == 8);
}

TEST_CASE("the resolved scenario evaluates back to the same result") {
  const json r = eval(xl({{"data_parallel", 4}, {"zero_stage", 1}, {"interconnect", {{"bytes_per_s", 1e10}, {"latency_s", 1e-5}}},
                          {"gradient_buckets", "view"}}));
  REQUIRE_FALSE(r.contains("error"));
  const json again = eval(r["scenario"]);
  CHECK(again["parallel"] == r["parallel"]);
  CHECK(again["memory"] == r["memory"]);
}

TEST_CASE("per-device memory components sum to the total, the block's stage entry matches memory") {
  for (int stage = 0; stage <= 3; ++stage) {
    json request = xl({{"data_parallel", 16}, {"zero_stage", stage}, {"tensor_parallel", 2}, {"pipeline_parallel", 4},
                       {"micro_batches", 8}, {"sequence_parallel", stage % 2 == 1}});
    request["model"] = "llama-2-7b";
    const json r = eval(request);
    REQUIRE_FALSE(r.contains("error"));
    std::int64_t sum = 0;
    for (const auto& [k, v] : r["memory"]["components"].items()) sum += v.get<std::int64_t>();
    CHECK(sum == r["memory"]["total_bytes"].get<std::int64_t>());
    const json& row = r["parallel"]["memory_by_stage"][stage];
    CHECK(row["peak_bytes"] == r["memory"]["peak_bytes"]);
    CHECK(row["static_bytes"] == r["memory"]["static_bytes"]);
    CHECK(row["fits"] == r["memory"]["fits"]);
  }
}

TEST_CASE("memory's other per-device fields describe the same device") {
  const json r = eval(xl({{"data_parallel", 8}, {"zero_stage", 2}}));
  const json& m = r["memory"];
  CHECK(m["static_by_convention"]["ours"] == m["static_bytes"]);
  CHECK(m["static_by_convention"]["megatron"].get<std::int64_t>() > m["static_bytes"].get<std::int64_t>());
  CHECK(m["parameters_counted"] == r["parallel"]["parameters_per_device"]);
  const json& f = r["parallel"]["formulas"];
  CHECK(f["model_states"]["bytes"] == m["static_bytes"]);
  CHECK(f["symbols"]["psi"] == m["parameters_counted"]);
  CHECK(f["speedup"]["value"] == r["parallel"]["speedup"]);
  CHECK(f["symbols"]["r"] == r["parallel"]["communication_ratio"]);
  const json& x = f["crossover"];
  CHECK(x["data_parallel"].get<double>() == doctest::Approx(x["data_parallel_seconds"].get<double>() / x["backward_s_per_token"].get<double>()));
  CHECK(x["fully_sharded"].get<double>() == doctest::Approx(x["fully_sharded_seconds"].get<double>() / x["compute_s_per_token"].get<double>()));
  CHECK(x["compute_s_per_token"] == r["parallel"]["compute_s_per_token"]);
}

TEST_CASE("DDP's copy of the gradients is a component; a bucket view is not") {
  const json copy = eval(xl({{"data_parallel", 4}}));
  const json view = eval(xl({{"data_parallel", 4}, {"gradient_buckets", "view"}}));
  CHECK(copy["memory"]["components"]["gradient_buckets"] == copy["memory"]["components"]["gradients"]);
  CHECK_FALSE(view["memory"]["components"].contains("gradient_buckets"));
}

TEST_CASE("bad parallel objects are errors naming the field") {
  CHECK(error_field(eval(xl(json::array()))) == "parallel");
  CHECK(error_field(eval(xl({{"data_parallel", 0}}))) == "parallel.data_parallel");
  CHECK(error_field(eval(xl({{"zero_stage", 4}}))) == "parallel.zero_stage");
  CHECK(error_field(eval(xl({{"tensor_parallel", 3}}))) == "parallel.tensor_parallel");  // 25 heads
  CHECK(error_field(eval(xl({{"sequence_parallel", true}}))) == "parallel.sequence_parallel");
  CHECK(error_field(eval(xl({{"pipeline_parallel", 49}}))) == "parallel.pipeline_parallel");
  CHECK(error_field(eval(xl({{"micro_batches", 0}}))) == "parallel.micro_batches");
  CHECK(error_field(eval(xl({{"interconnect", "carrier-pigeon"}}))) == "parallel.interconnect");
  CHECK(error_field(eval(xl({{"interconnect", {{"bytes_per_s", 0}}}}))) == "parallel.interconnect.bytes_per_s");
  CHECK(error_field(eval(xl({{"interconnect", {{"latency_s", 1e-6}}}}))) == "parallel.interconnect.bytes_per_s");
  CHECK(error_field(eval(xl({{"interconnect", {{"bytes_per_s", 1e9}, {"latency_s", -1}}}}))) == "parallel.interconnect.latency_s");
  CHECK(error_field(eval(xl({{"overlap", "yes"}}))) == "parallel.overlap");
  CHECK(error_field(eval(xl({{"bucket_bytes", 0}}))) == "parallel.bucket_bytes");
  CHECK(error_field(eval(xl({{"gradient_buckets", "flat"}}))) == "parallel.gradient_buckets");
  CHECK(error_field(eval(xl({{"data_parallel", 2}, {"extra", 1}}))) == "parallel.extra");
  json disagree = xl({{"data_parallel", 8}});
  disagree["num_devices"] = 4;
  const json r = eval(disagree);
  CHECK(error_field(r) == "num_devices");
  CHECK(r["error"]["message"].get<std::string>().find("8") != std::string::npos);
  CHECK(error_field(eval_text(R"({"chapter_replay":true,"parallel":{"data_parallel":2}})")) == "parallel");
}

TEST_CASE("without enable_parallel a scenario with parallel is an error value, not an abort") {
  facade::set_parallel_hooks(nullptr);
  const json r = eval(xl({{"data_parallel", 8}}));
  const json plain = eval_text(R"({"model":"gpt2-xl"})");
  facade::enable_parallel();
  CHECK(error_field(r) == "parallel");
  CHECK(r["error"]["message"].get<std::string>().find("multi-device") != std::string::npos);
  CHECK_FALSE(plain.contains("error"));
}

TEST_CASE("the catalogue lists the interconnects, the free one without a bandwidth") {
  const json c = json::parse(facade::catalog());
  REQUIRE(c["interconnects"].size() == 10);
  for (const auto& i : c["interconnects"]) {
    for (const char* k : {"id", "name", "bytes_per_s", "latency_s", "provenance"}) CHECK(i.contains(k));
    if (i["id"] == "ideal") CHECK(i["bytes_per_s"].is_null()); else CHECK(i["bytes_per_s"].get<double>() > 0);
  }
}

TEST_CASE("the facade never throws on valid and invalid parallel objects: a result or an error value") {
  const json values[] = {nullptr, true, -1, 0, 1, 2, 3, 4, 7, 8, 48, 64, 1000, 65536, 65537, 1e300, 2.5, "x", "copy", "ideal",
                         json::array(), json::object()};
  const char* keys[] = {"data_parallel", "zero_stage", "tensor_parallel", "sequence_parallel", "pipeline_parallel",
                        "micro_batches", "interconnect", "overlap", "bucket_bytes", "gradient_buckets"};
  int results = 0, errors = 0;
  for (const char* model : {"gpt2-xl", "llama-3-8b"})
    for (const char* key : keys)
      for (const auto& v : values) {
        json request = {{"model", model}, {"precision", "mixed"},
                        {"parallel", {{"data_parallel", 4}, {"tensor_parallel", 1}, {"pipeline_parallel", 2}, {"micro_batches", 4}}}};
        request["parallel"][key] = v;
        const std::string text = facade::evaluate(request.dump());
        const json r = json::parse(text);  // never throws, always JSON
        if (r.contains("error")) {
          ++errors;
          CHECK_MESSAGE(r["error"]["field"].get<std::string>().rfind("parallel", 0) == 0, text);
        } else {
          ++results;
          CHECK(r["parallel"]["speedup"].get<double>() <= r["parallel"]["devices"].get<double>() * (1 + 1e-12));
          CHECK(r["parallel"]["step_s"].get<double>() > 0);
        }
      }
  CHECK(results > 20);
  CHECK(errors > 100);
}

TEST_CASE("speedup stays at or below the device count whatever the strategy") {
  for (int stage = 0; stage <= 3; ++stage)
    for (std::int64_t t : {1, 2, 8})
      for (std::int64_t p : {1, 4})
        for (const char* link : {"nvlink4", "ethernet-10g", "ideal"}) {
          const json r = eval({{"model", "llama-2-7b"}, {"precision", "mixed"}, {"batch_size", 2},
                               {"parallel", {{"data_parallel", 16}, {"zero_stage", stage}, {"tensor_parallel", t}, {"pipeline_parallel", p},
                                             {"micro_batches", 8}, {"sequence_parallel", t > 1}, {"interconnect", link}}}});
          REQUIRE_FALSE(r.contains("error"));
          const json& q = r["parallel"];
          CHECK(q["speedup"].get<double>() <= q["devices"].get<double>() * (1 + 1e-12));
          CHECK(q["exposed_communication_s"].get<double>() <= q["communication_s"].get<double>() * (1 + 1e-12));
          CHECK(q["step_s"].get<double>() == doctest::Approx(q["compute_s"].get<double>() + q["bubble_s"].get<double>() +
                                                             q["exposed_communication_s"].get<double>()));
        }
}

TEST_CASE("an enormous model over many devices is a result or a named error, never a crash") {
  const json huge = {{"layers", 1000}, {"hidden", 131072}, {"heads", 1024}, {"vocab", 10'000'000}, {"context", 1'048'576}};
  for (int stage = 0; stage <= 3; ++stage) {
    const json r = eval({{"model", huge}, {"batch_size", 65536}, {"seq_len", 1'048'576},
                         {"parallel", {{"data_parallel", 65536}, {"zero_stage", stage}, {"tensor_parallel", 16}, {"pipeline_parallel", 1000},
                                       {"micro_batches", 65536}, {"bucket_bytes", 1}}}});
    if (r.contains("error")) CHECK_FALSE(r["error"]["field"].get<std::string>().empty());
    else CHECK(r["parallel"]["step_s"].get<double>() > 0);
  }
}
