// The ledger's exact inventory mode predicts, byte for byte, what the reference engine measures:
// evaluate (activation_model "inventory") against train (one real step) for many tiny configurations.
#include <doctest/doctest.h>
#include <string>
#include "facade/facade.hpp"
#include "facade/facade_train.hpp"

using namespace lab;
using nlohmann::json;

namespace {
const json kModel = {{"layers", 3}, {"hidden", 32}, {"heads", 2}, {"vocab", 32}, {"context", 16},
                     {"mlp_hidden", 64}, {"tied_head", false}, {"name", "tiny"}};

json ledger_for(const std::string& precision, const std::string& optimizer, const json& ckpt, int batch, int seq) {
  return facade::evaluate_json({{"model", kModel}, {"device", "rtx4060-laptop-8gb"}, {"precision", precision},
                                {"optimizer", optimizer}, {"checkpointing", ckpt}, {"batch_size", batch},
                                {"seq_len", seq}, {"activation_model", "inventory"}});
}

json measured_for(const std::string& precision, const std::string& optimizer, const json& ckpt, int batch, int seq) {
  return facade::train_json({{"vocab", 32}, {"context", 16}, {"d_model", 32}, {"heads", 2}, {"layers", 3},
                             {"mlp_hidden", 64}, {"precision", precision}, {"optimizer", optimizer},
                             {"checkpointing", ckpt}, {"batch_size", batch}, {"seq_len", seq}, {"steps", 1}});
}
}  // namespace

TEST_CASE("inventory-mode ledger == reference engine measurement, per category and at the peak") {
  int checked = 0;
  for (const char* precision : {"fp32", "mixed", "fp16", "bf16"})
    for (const char* optimizer : {"sgd", "momentum", "adam"})
      for (const json& ckpt : {json("none"), json("selective"), json("full"), json{{"every_k_layers", 2}}})
        for (const auto& shape : {std::pair{1, 8}, std::pair{3, 16}}) {
          const int batch = shape.first, seq = shape.second;
          CAPTURE(precision);
          CAPTURE(optimizer);
          CAPTURE(ckpt.dump());
          CAPTURE(batch);
          const json ledger = ledger_for(precision, optimizer, ckpt, batch, seq);
          const json run = measured_for(precision, optimizer, ckpt, batch, seq);
          REQUIRE_FALSE(ledger.contains("error"));
          REQUIRE_FALSE(run.contains("error"));
          const json& c = ledger["memory"]["components"];
          const json& at = run["memory"]["measured"]["at_peak"];
          CHECK(ledger["model"]["parameters"] == run["model"]["parameters"]);
          CHECK(c["weights"] == at["weights"]);
          CHECK(c["master_weights"] == at["master_weights"]);
          CHECK(c["gradients"] == at["gradients"]);
          CHECK(c["optimizer_state"].get<std::int64_t>() ==
                at["optimizer:momentum"].get<std::int64_t>() + at["optimizer:adam_m"].get<std::int64_t>() +
                    at["optimizer:adam_v"].get<std::int64_t>());
          CHECK(c["activations"] == at["activations"]);
          CHECK(c["logits"] == at["logits"]);
          CHECK(ledger["memory"]["transients"]["engine_transient"].get<std::int64_t>() ==
                at["transient"].get<std::int64_t>() + at["inputs"].get<std::int64_t>());
          CHECK(ledger["memory"]["peak_bytes"] == run["memory"]["measured"]["peak_bytes"]);
          CHECK(ledger["memory"]["inventory"]["peak_phase"] == run["memory"]["measured"]["peak_phase"]);
          CHECK(ledger["memory"]["inventory"]["max_by_category"] == run["memory"]["measured"]["max_by_category"]);
          ++checked;
        }
  CHECK(checked == 96);
}

TEST_CASE("the inventory mode refuses models the reference engine cannot run, naming the field") {
  const auto err = [](json scenario) {
    return json::parse(facade::evaluate(scenario.dump()))["error"]["field"].get<std::string>();
  };
  CHECK(err({{"model", "gpt2-small"}, {"activation_model", "inventory"}}) == "activation_model");
  json tied = kModel;
  tied["tied_head"] = true;
  CHECK(err({{"model", tied}, {"activation_model", "inventory"}}) == "activation_model");
  json swiglu = kModel;
  swiglu["mlp"] = "swiglu";
  CHECK(err({{"model", swiglu}, {"activation_model", "inventory"}}) == "activation_model");
  CHECK(err({{"chapter_replay", true}, {"activation_model", "inventory"}}) == "chapter_replay");
  CHECK(err({{"model", kModel}, {"activation_model", "inventory"}, {"batch_size", 300}}) == "activation_model");
}
