// The facade never throws: malformed JSON, bad fields and overflowing configurations all come back
// as {"error": {"field", "message"}}; good requests return the documented result fields.
#include <doctest/doctest.h>
#include "facade/facade.hpp"

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
  std::vector<std::string> ids;
  for (const auto& m : c["models"]) ids.push_back(m["id"]);
  CHECK(ids == std::vector<std::string>{"gpt2-small", "gpt2-medium", "gpt2-large", "gpt2-xl", "llama-2-7b", "llama-2-13b",
                                        "llama-3-8b", "mistral-7b", "qwen2-7b", "tinyllama-1.1b", "measure-tiny",
                                        "course-s", "course-m", "course-l"});
  // Each entry's spec is the full custom-model object: evaluated, it gives the entry's exact count.
  for (const auto& m : c["models"]) {
    const json r = eval(json{{"model", m["spec"]}}.dump());
    CHECK(r["model"]["parameters"] == m["parameters"]);
    CHECK(r["model"]["family"] == "custom");
  }
  CHECK(c["devices"].size() >= 7);
  for (const auto& d : c["devices"]) CHECK(d["provenance"].get<std::string>().size() > 20);
  CHECK(facade::version() == std::string(facade::kEngineVersion));
}

TEST_CASE("framework pytorch reports the step timeline, its peak phase, the allocator and device peaks, and sum minus peak") {
  const json r = eval(R"({"framework":"pytorch","model":"gpt2-small","batch_size":8,"reserve_bytes":1000})");
  REQUIRE_FALSE(r.contains("error"));
  const json& m = r["memory"];
  const json& p = m["step_phases"];
  CHECK(m["framework"] == "pytorch");
  CHECK(p["device_peak_bytes"] == m["peak_bytes"]);
  CHECK(p["allocator_peak_bytes"].get<std::int64_t>() + 1000 == m["peak_bytes"].get<std::int64_t>());
  CHECK(p["sum_bytes"] == m["total_bytes"]);
  CHECK(p["sum_minus_peak_bytes"].get<std::int64_t>() == m["total_bytes"].get<std::int64_t>() - m["peak_bytes"].get<std::int64_t>());
  std::int64_t most = 0;
  std::string where;
  for (const auto& t : p["timeline"])
    if (t["bytes"].get<std::int64_t>() > most) most = t["bytes"], where = t["phase"];
  CHECK(most == p["allocator_peak_bytes"].get<std::int64_t>());
  CHECK(where == p["peak_phase"]);
  CHECK(m["timeline"].size() == p["timeline"].size());  // the same phases, with the reserve added
  std::int64_t sum = 0;
  for (const auto& [k, v] : m["components"].items()) sum += v.get<std::int64_t>();
  CHECK(sum == m["total_bytes"].get<std::int64_t>());
  CHECK(m["activations_items"]["per_layer"].size() > 10);
  CHECK(r["scenario"]["framework"] == "pytorch");
}

TEST_CASE("textbook results carry no framework fields, only the new flops.matmul_parameters") {
  const json r = eval(R"({"model":"gpt2-xl","precision":"mixed","batch_size":4})");
  for (const char* k : {"framework", "step_phases", "activations_items"}) CHECK_FALSE(r["memory"].contains(k));
  CHECK_FALSE(r["memory"]["components"].contains("autocast_weight_cache"));
  CHECK_FALSE(r["scenario"].contains("framework"));
  CHECK(r["flops"]["matmul_parameters"] == 1'557'611'200LL - 1024 * 1600);  // tied head: N without positions
}

TEST_CASE("solve refuses the eager activation model without framework pytorch, naming the field") {
  CHECK(json::parse(facade::solve(R"({"activation_model":"pytorch_eager"})"))["error"]["field"] == "activation_model");
}

TEST_CASE("solve with framework pytorch: the largest micro-batch is the last that evaluate says fits") {
  const json r = json::parse(facade::solve(R"({"framework":"pytorch","model":"tinyllama-1.1b","device":"rtx4090-24gb","precision":"autocast_bf16","seq_len":512})"));
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["framework"] == "pytorch");
  const std::int64_t b = r["largest_batch"]["largest_batch"];
  REQUIRE(b >= 1);
  const auto at = [](std::int64_t batch) {
    return eval(R"({"framework":"pytorch","model":"tinyllama-1.1b","device":"rtx4090-24gb","precision":"autocast_bf16","seq_len":512,"batch_size":)" +
                std::to_string(batch) + "}");
  };
  CHECK(at(b)["memory"]["fits"] == true);
  CHECK(at(b)["memory"]["peak_bytes"] == r["largest_batch"]["peak_bytes"]);
  CHECK(at(b + 1)["memory"]["fits"] == false);
  CHECK(at(b + 1)["memory"]["peak_bytes"] == r["largest_batch"]["next_peak_bytes"]);
}

TEST_CASE("solve with framework pytorch: the cheapest path ends on a configuration evaluate says fits") {
  // TinyLlama in FP32 with Adam needs 16 B x 1.1e9 = 17.6 GB before activations: over a T4's 16 GB.
  const json r = json::parse(facade::solve(R"({"framework":"pytorch","model":"tinyllama-1.1b","device":"t4-16gb","batch_size":8,"seq_len":1024})"));
  REQUIRE_FALSE(r.contains("error"));
  const json& p = r["cheapest_path"];
  CHECK(p["start"]["fits"] == false);
  REQUIRE(p["reaches_fit"] == true);
  const json last = p["moves"].back();
  CHECK(last["fits"] == true);
  json scenario = {{"framework", "pytorch"}, {"model", "tinyllama-1.1b"}, {"device", "t4-16gb"}, {"seq_len", 1024}};
  const json& c = last["configuration"];
  scenario["precision"] = c["precision"];
  scenario["optimizer"] = c["optimizer"];
  scenario["batch_size"] = c["batch_size"];
  const json e = eval(scenario.dump());
  CHECK(e["memory"]["fits"] == true);
  CHECK(e["memory"]["peak_bytes"] == last["peak_bytes"]);
  // Llama-2 7B cannot train on 24 GB under PyTorch counting at all: the path says so.
  const json none = json::parse(facade::solve(R"({"framework":"pytorch","model":"llama-2-7b","device":"rtx4090-24gb"})"));
  CHECK(none["cheapest_path"]["reaches_fit"] == false);
  CHECK(none["largest_batch"]["largest_batch"] == 0);
}

TEST_CASE("every combination of framework fields answers with a result or an error naming a field, never an internal error") {
  const char* precisions[] = {"fp32", "mixed", "fp16", "bf16", "autocast_bf16", "autocast_fp16"};
  const char* models[] = {"\"gpt2-small\"", R"({"layers":2,"hidden":64,"heads":4,"vocab":300,"context":64,"mlp":"swiglu","norm":"rmsnorm","biases":false,"tied_head":false,"learned_positions":false})",
                          R"({"layers":1,"hidden":8,"heads":8,"vocab":2,"context":1,"norm":"rmsnorm"})"};
  int answered = 0;
  for (const char* model : models)
    for (const char* precision : precisions)
      for (const char* framework : {"textbook", "pytorch"})
        for (const char* step : {"first", "steady"})
          for (const char* mode : {"train", "forward_with_grad", "inference"})
            for (const char* impl : {"per_parameter", "foreach", "fused"})
              for (const char* extra : {"", R"(,"flash_attention":true)", R"(,"dropout":true,"pytorch_build":"cpu-1.13")", R"(,"optimizer":"sgd","zero_grad":"zero")"}) {
                const std::string text = std::string(R"({"model":)") + model + R"(,"precision":")" + precision +
                                         R"(","framework":")" + framework + R"(","step":")" + step + R"(","mode":")" + mode +
                                         R"(","optimizer_impl":")" + impl + "\"" + extra + R"(,"seq_len":1})";
                const json r = eval(text);
                if (r.contains("error")) {
                  CAPTURE(text);
                  CHECK(r["error"]["field"].get<std::string>() != "");
                } else {
                  ++answered;
                  CHECK(r["memory"]["peak_bytes"].get<std::int64_t>() > 0);
                }
              }
  CHECK(answered > 100);
}

TEST_CASE("the textbook layout can sum eager activations: the ledger's sum with activation_model pytorch_eager") {
  const json m = eval(R"({"model":"gpt2-small","activation_model":"pytorch_eager","batch_size":2})")["memory"];
  REQUIRE(m.contains("activations_items"));
  CHECK_FALSE(m.contains("step_phases"));
  CHECK(m["components"]["activations"] == m["activations_items"]["saved_bytes"]);
  // The head's FP32 output (kept by the loop) is the logits component; its two gradients are the transient.
  CHECK(m["components"]["logits"] == 4LL * 2 * 1024 * 50257);
  CHECK(m["peak_bytes"].get<std::int64_t>() == m["total_bytes"].get<std::int64_t>() + 2 * 4LL * 2 * 1024 * 50257);
}

// Regression: under PyTorch defaults the message said "Activations and transients (X) exceed the Y left
// after static memory", subtracting gradients that are not live at the step's peak.
TEST_CASE("out of memory under PyTorch defaults, the binding message names the step's peak, not static memory + the rest") {
  const json r = eval(R"({"model":"gpt2-xl","precision":"autocast_fp16","optimizer":"adam","batch_size":32,
    "device":"v100-sxm2-32gb","framework":"pytorch","activation_model":"pytorch_eager","step":"steady",
    "zero_grad":"set_to_none","optimizer_impl":"foreach"})");
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["memory"]["binding"]["kind"] == "activations");
  const std::string msg = r["memory"]["binding"]["message"];
  CHECK(msg.find("The peak during a step") == 0);
  CHECK(msg.find("left after static memory") == std::string::npos);
}
