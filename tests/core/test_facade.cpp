// The facade never throws: malformed JSON, bad fields and overflowing configurations all come back
// as {"error": {"field", "message"}}; good requests return the documented result fields.
#include <doctest/doctest.h>
#include "facade.hpp"

using namespace lab;
using nlohmann::json;

namespace {
json eval(const std::string& text) { return json::parse(facade::evaluate(text)); }
}  // namespace

TEST_CASE("evaluate returns every documented result field") {
  const json r = eval(R"({"model":"gpt2-xl","precision":"mixed","optimizer":"adam","batch_size":4})");
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["model"]["parameters"] == 1'557'611'200);
  for (const char* c : {"weights", "master_weights", "gradients", "optimizer_state", "activations", "logits", "reserve"})
    CHECK(r["memory"]["components"][c].is_number_integer());
  for (const char* k : {"static_bytes", "total_bytes", "peak_bytes", "usable_device_bytes"})
    CHECK(r["memory"][k].is_number_integer());
  CHECK(r["memory"]["fits"].is_boolean());
  CHECK(r["flops"]["model_per_token"] == 10'279'555'200LL);
  CHECK(r["flops"]["hardware_per_token"].is_number_integer());
}

TEST_CASE("logits of one 1,024-token GPT-2 sequence in FP32 take 205,852,672 bytes") {
  const json r = eval(R"({"model":"gpt2-small","batch_size":1})");
  CHECK(r["memory"]["components"]["logits"] == 205'852'672);
}

TEST_CASE("the sum of components is the total, and the peak adds the backward transients") {
  const json m = eval(R"({"precision":"mixed","batch_size":2,"checkpointing":{"every_k_layers":4}})")["memory"];
  std::int64_t sum = 0;
  for (const auto& [k, v] : m["components"].items()) sum += v.get<std::int64_t>();
  CHECK(sum == m["total_bytes"].get<std::int64_t>());
  CHECK(m["peak_bytes"].get<std::int64_t>() ==
        sum + m["transients"]["logits_gradient"].get<std::int64_t>() +
            m["transients"]["recompute_working_set"].get<std::int64_t>());
}

TEST_CASE("malformed and hostile requests return structured errors and never throw") {
  const char* bad[] = {"", "{", "nul", "[]", "42", "\"gpt2\"", "{\"batch_size\": NaN}", "{\"batch_size\": Infinity}",
                       "{\"batch_size\": 1e400}", "{\"a\":1,}", "\xff\xfe", "{\"model\": {\"layers\": 1000, \"hidden\": 131072, "
                       "\"heads\": 1, \"vocab\": 10000000, \"context\": 1048576}, \"seq_len\": 1048576, \"batch_size\": 65536}"};
  for (const char* text : bad) {
    json r;
    CHECK_NOTHROW(r = eval(text));
    REQUIRE(r.contains("error"));
    CHECK(r["error"]["field"].is_string());
    CHECK(r["error"]["message"].get<std::string>().size() > 5);
  }
}

TEST_CASE("catalog lists every model and device with provenance, and version is the engine version") {
  const json c = json::parse(facade::catalog());
  CHECK(c["models"].size() == 4);
  CHECK(c["devices"].size() >= 6);
  for (const auto& d : c["devices"]) CHECK(d["provenance"].get<std::string>().size() > 20);
  CHECK(facade::version() == std::string(facade::kEngineVersion));
}
