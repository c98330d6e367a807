// Guarded JSON boundary: malformed text, bad fields and any internal failure become an error value.
#include "facade/facade.hpp"
#include "facade/json_parse.hpp"
#include <cmath>
#include <exception>
#include "model/devices.hpp"
#include "model/interconnects.hpp"
#include "util/errors.hpp"
#include "model/models.hpp"
#include "facade/scenario_json.hpp"

namespace lab::facade {
using nlohmann::json;

json error_json(const std::string& field, const std::string& message) {
  return {{"error", {{"field", field}, {"message", message}}}};
}

namespace {
// An error quotes what it was given; a byte that is not UTF-8 becomes U+FFFD rather than a throw.
std::string safe_dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

template <typename Call>
std::string guarded(const std::string& request_text, Call&& call) {
  try {
    return call(parse_json_text(request_text));
  } catch (const InputError& e) {
    return safe_dump(error_json(e.field, e.message));
  } catch (const std::exception& e) {
    return safe_dump(error_json("", std::string("internal error: ") + e.what()));
  } catch (...) {
    return error_json("", "internal error").dump();
  }
}
}  // namespace

std::string run_guarded(const std::string& request_text, Handler handler) {
  return guarded(request_text, [&](const json& r) { return handler(r).dump(); });
}
std::string run_guarded(const std::string& request_text, TextHandler handler) {
  return guarded(request_text, [&](const json& r) { return handler(r); });
}

std::string evaluate(const std::string& scenario_json) { return run_guarded(scenario_json, evaluate_text); }

std::string version() { return kEngineVersion; }

std::string catalog() {
  json models = json::array(), devices = json::array();
  for (const auto& m : model_catalog())
    models.push_back({{"id", m.id}, {"name", m.name}, {"parameters", count_parameters(m).total},
                      {"layers", m.layers}, {"hidden", m.hidden}, {"heads", m.heads}, {"family", m.family},
                      {"provenance", m.provenance}, {"spec", model_to_json(m)}});
  for (const auto& d : device_catalog())
    devices.push_back({{"id", d.id}, {"name", d.name}, {"capacity_bytes", d.capacity_bytes},
                       {"peak_fp32_flops_per_s", d.peak_fp32_flops_per_s},
                       {"peak_fp16_flops_per_s", d.peak_fp16_flops_per_s},
                       {"peak_bf16_flops_per_s", d.peak_bf16_flops_per_s},
                       {"hbm_bytes_per_s", d.hbm_bytes_per_s}, {"host_link_bytes_per_s", d.host_link_bytes_per_s},
                       {"tdp_watts", d.tdp_watts}, {"provenance", d.provenance}});
  // Written as text and parsed: nlohmann's initializer lists cost lab_core (the first load) ~1 KB gzipped here.
  JsonWriter w;
  w.begin_array();
  for (const auto& c : interconnect_catalog()) {  // "ideal": bytes_per_s null (unlimited)
    w.begin_object().field("id", c.id).field("name", static_cast<const char*>(c.name));
    w.field("bytes_per_s", c.free ? std::nan("") : c.bytes_per_s);
    w.field("latency_s", c.latency_s).field("provenance", c.provenance).end_object();
  }
  const json interconnects = json::parse(w.end_array().str());
  return json{{"engine_version", kEngineVersion}, {"models", models}, {"devices", devices},
              {"interconnects", interconnects},
              {"precisions", {"fp32", "mixed", "fp16", "bf16"}}, {"optimizers", {"sgd", "momentum", "adam"}},
              {"checkpointing", {"none", "selective", "full", "every_k_layers"}},
              {"activation_models", {"korthikanti", "chapter", "inventory"}}, {"conventions", {"ours", "chapter", "megatron"}}}
      .dump();
}

}  // namespace lab::facade
