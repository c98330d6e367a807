// Engine text as earlier engine versions wrote it into ledgers, rebuilt from today's results, so a
// ledger recorded then still verifies after the words changed (the numbers in it must still match).
#include <cstdint>
#include <string>
#include "facade/facade_ledger.hpp"
#include "model/models.hpp"
#include "util/byte_text.hpp"

namespace lab::facade {
using nlohmann::json;

// The solver's first wording (engine 0.1.1, until 24 November 2026): "The least memory that can train
// GPT-2 XL (1.5B) at all is 13.75 GB (… B) with mixed + sgd + full checkpointing, batch 1: static
// 8 B/param x … = … B, plus activations, logits and reserve. No numerically valid configuration needs
// less static memory than … B. NVIDIA … has 8.59 GB (… B): no numerically valid configuration fits;
// sharding or offloading (Volume 2) is needed."
std::string floor_text_first_wording(const json& solved, const std::string& model_id) {
  const json& f = solved.at("floor");
  const json& cfg = f.at("configuration");
  const json& ck = cfg.at("checkpointing");
  const std::string ckpt = ck.is_object() ? "every " + std::to_string(ck.at("every_k_layers").get<std::int64_t>()) + " layers"
                                          : ck.get<std::string>();
  std::int64_t per_param = 0, params = 0;
  for (const auto& d : f.at("derivation")) {
    if (d.at("bytes_per_param").is_null()) continue;
    const std::int64_t b = d.at("bytes_per_param").get<std::int64_t>();
    per_param += b;
    if (d.at("component") == "weights" && b > 0) params = d.at("bytes").get<std::int64_t>() / b;
  }
  const TransformerSpec* model = find_model(model_id);
  const std::int64_t peak = f.at("peak_bytes").get<std::int64_t>();
  const std::int64_t capacity = solved.at("device").at("capacity_bytes").get<std::int64_t>();
  const std::string device = solved.at("device").at("name").get<std::string>();
  std::string t = "The least memory that can train " + (model ? model->name : model_id) + " at all is " + gb_text(peak) + " (" +
                  thousands_text(peak) + " B) with " + cfg.at("precision").get<std::string>() + " + " +
                  cfg.at("optimizer").get<std::string>() + " + " + ckpt + " checkpointing, batch " +
                  std::to_string(cfg.at("batch_size").get<std::int64_t>()) + ": static " + std::to_string(per_param) +
                  " B/param x " + thousands_text(params) + " = " + thousands_text(f.at("static_bytes").get<std::int64_t>()) +
                  " B, plus activations, logits and reserve. No numerically valid configuration needs less static memory than " +
                  thousands_text(f.at("static_floor_bytes").get<std::int64_t>()) + " B.";
  if (solved.at("device_fits_floor").get<bool>())
    return t + " " + device + " has " + gb_text(capacity) + ", so it can train this model.";
  return t + " " + device + " has " + gb_text(capacity) + " (" + thousands_text(capacity) +
         " B): no numerically valid configuration fits; sharding or offloading (Volume 2) is needed.";
}

}  // namespace lab::facade
