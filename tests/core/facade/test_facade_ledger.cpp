// verify_ledger on the shared fixtures (tests/fixtures/ledger/manifest.json says what each must give;
// `engine` where verify_ledger alone, without the page's schema check, answers otherwise),
// the schema's top-level fields against the C++ reader, hostile input (size, depth, every leaf of a
// valid ledger replaced by a wrong type), and the settings → scenario mapping.
#include <doctest/doctest.h>
#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>
#include "facade/facade.hpp"
#include "util/errors.hpp"
#include "facade/facade_ledger.hpp"

using namespace lab;
using nlohmann::json;

namespace {
std::string repo_path(const std::string& rel) {
  std::string here = __FILE__;  // <repo>/tests/core/facade/test_facade_ledger.cpp (CMake passes absolute paths)
  return here.substr(0, here.rfind("/tests/core/")) + "/" + rel;
}
std::string read_text(const std::string& rel) {
  std::ifstream f(repo_path(rel), std::ios::binary);
  REQUIRE_MESSAGE(f.good(), "cannot open " << rel);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
json verify(const std::string& text) { return json::parse(facade::verify_ledger(text)); }
const std::string kFixtures = "tests/fixtures/ledger/";
}  // namespace

TEST_CASE("every shared fixture verifies as its manifest entry says") {
  const json manifest = json::parse(read_text(kFixtures + "manifest.json"));
  REQUIRE(manifest.size() >= 15);
  for (const auto& entry : manifest) {
    const std::string file = entry["file"];
    CAPTURE(file);
    const json r = verify(read_text(kFixtures + file));
    const json expect = entry.value("engine", entry["expect"]);  // verify_ledger alone (no schema)
    CHECK(r["status"] == expect);
    CHECK(r["can_prove"].is_string());
    CHECK(r["cannot_prove"].is_string());
    if (expect == "invalid") {
      CHECK(r["error"]["field"] == entry["field"]);
      CHECK(r["error"]["message"].get<std::string>().size() > 10);
      continue;
    }
    json differing = entry.value("differing", json::array());
    CHECK(r["differing_fields"] == differing);
    CHECK(r["engine_version"]["differs"] == entry.value("engine_version_differs", false));
    CHECK(r["migrated_from"] == entry.value("migrated_from", json()));
    CHECK(r["checked"].get<int>() >= 15);
    for (const auto& f : r["fields"]) CHECK(f["differs"] == (std::find(differing.begin(), differing.end(), f["field"]) != differing.end()));
  }
}

TEST_CASE("a differing value says whether the engine version changed, and names the versions") {
  const json same = verify(read_text(kFixtures + "edited-final-mfu.json"));
  CHECK(same["cause"].get<std::string>().find("edited after export") != std::string::npos);
  const json other = verify(read_text(kFixtures + "other-engine-version-edited.json"));
  const std::string cause = other["cause"];
  CHECK(cause.find("0.0.9") != std::string::npos);
  CHECK(cause.find(facade::kEngineVersion) != std::string::npos);
  CHECK(other["engine_version"]["recorded"] == "0.0.9");
}

TEST_CASE("the laptop floor's text verifies in today's words and in the solver's first wording, and nothing else") {
  // valid-complete.json was exported before the floor's text was reworded: it records the first wording.
  json ledger = json::parse(read_text(kFixtures + "valid-complete.json"));
  const std::string first = ledger["laptop_floor_derivation"];
  REQUIRE(first.find("mixed + sgd + full checkpointing, batch 1: static 8 B/param x 1,557,611,200") != std::string::npos);
  CHECK(verify(ledger.dump())["status"] == "ok");
  const std::string now = json::parse(facade::solve(R"({"model":"gpt2-xl","device":"rtx4060-laptop-8gb"})"))["floor"]["text"];
  REQUIRE(now != first);
  for (const char* path : {"/laptop_floor_derivation", "/result_snapshot/laptop/floor_text"}) ledger[json::json_pointer(path)] = now;
  CHECK(verify(ledger.dump())["status"] == "ok");
  // Either wording with one number changed, or a third wording, differs.
  for (const std::string& edited : {std::string(now).replace(now.find("13.75 GB"), 8, "12.75 GB"),
                                    std::string(first).replace(first.find("13.75 GB"), 8, "12.75 GB"), now + " "}) {
    json e = ledger;
    e["laptop_floor_derivation"] = edited;
    const json r = verify(e.dump());
    CHECK(r["status"] == "differs");
    CHECK(r["differing_fields"] == json::array({"laptop_floor_derivation"}));
  }
}

TEST_CASE("the result says plainly what verification can and cannot prove") {
  const json r = verify(read_text(kFixtures + "valid-complete.json"));
  CHECK(r["can_prove"].get<std::string>().find("re-computed") != std::string::npos);
  CHECK(r["cannot_prove"].get<std::string>().find("predictions") != std::string::npos);
  // A multiple-choice answer has nothing to re-compute (the page re-scores it); the checkpointing
  // reflection keeps its Act 2 settings, so its engine values are re-computed, not skipped.
  bool fix_listed = false, ckpt_recomputed = false;
  for (const auto& n : r["not_recomputed"]) fix_listed = fix_listed || n["field"] == "lab_state.acts.act2.reflection_fix";
  for (const auto& f : r["fields"]) ckpt_recomputed = ckpt_recomputed || f["field"] == "lab_state.acts.act2.reflection_ckpt.engine_ratio";
  CHECK(fix_listed);
  CHECK(ckpt_recomputed);
}

TEST_CASE("a 20 MB file is refused by its size before it is parsed") {
  const std::string big = "{\"lab_id\":\"lab08-model-train\",\"pad\":\"" + std::string(20'000'000, 'x') + "\"}";
  const json r = verify(big);
  CHECK(r["status"] == "invalid");
  CHECK(r["error"]["message"].get<std::string>().find("20.0 MB") != std::string::npos);
}

TEST_CASE("nesting depth counts brackets outside strings only") {
  CHECK(facade::json_nesting_depth("{\"a\":[1,{\"b\":[]}]}", 32) == 4);
  CHECK(facade::json_nesting_depth("{\"a\":\"[[[[[[\\\"[[[\"}", 32) == 1);
  CHECK(facade::json_nesting_depth(std::string(100000, '['), 32) == 33);  // stops counting past the limit
}

TEST_CASE("each required top-level field of the schema is required by the C++ reader; the optional ones are checked when present") {
  const json schema = json::parse(read_text("web/src/state/schema/design-ledger.schema.json"));
  CHECK(schema["properties"]["ledger_schema_version"]["const"] == facade::kLedgerSchemaVersion);
  const json valid = json::parse(read_text(kFixtures + "valid-complete.json"));
  // Optional (issue 23): the design challenge's fastest step and its peaks, absent in older ledgers.
  const std::vector<std::string> optional{"final_tokens_per_second", "final_peak_tokens_per_second", "final_mfu_peak_flops_per_s"};
  CHECK(schema["required"].size() + optional.size() == schema["properties"].size());
  const json fastest = json::parse(read_text(kFixtures + "valid-fastest.json"));  // made under issue 23
  CHECK_FALSE(valid.contains("final_tokens_per_second"));  // a ledger made before them verifies without them
  for (const auto& name : optional) {
    CAPTURE(name);
    REQUIRE(fastest.contains(name));
    json without = fastest;
    without.erase(name);
    CHECK(verify(without.dump())["status"] == "ok");
    json edited = fastest;
    edited[name] = fastest[name].get<double>() * 2;
    const json r = verify(edited.dump());
    CHECK(r["status"] == "differs");
    CHECK(r["differing_fields"].dump().find(name) != std::string::npos);
  }
  for (const auto& field : schema["required"]) {
    const std::string name = field;
    if (name == "lab_id" || name == "ledger_schema_version") continue;  // the envelope: tested by fixtures
    CAPTURE(name);
    json without = valid;
    without.erase(name);
    const json r = verify(without.dump());
    CHECK(r["status"] == "invalid");
    CHECK(r["error"]["field"] == name);
  }
}

TEST_CASE("every leaf of a valid ledger replaced by a wrong type gives a named error or a difference, never a throw") {
  const json valid = json::parse(read_text(kFixtures + "valid-complete.json"));
  std::vector<json::json_pointer> leaves;
  std::function<void(const json&, const json::json_pointer&)> walk = [&](const json& v, const json::json_pointer& p) {
    if (v.is_object()) for (const auto& [k, x] : v.items()) walk(x, p / k);
    else if (v.is_array()) for (std::size_t i = 0; i < v.size(); ++i) walk(v[i], p / i);
    else leaves.push_back(p);
  };
  walk(valid, json::json_pointer());
  REQUIRE(leaves.size() > 150);
  int invalid = 0, differs = 0;
  for (const auto& p : leaves) {
    for (const json& junk : {json("x"), json(-1)}) {
      json bad = valid;
      bad[p] = junk;
      if (bad == valid) continue;
      std::string out;
      CHECK_NOTHROW(out = facade::verify_ledger(bad.dump()));
      const json r = json::parse(out);
      CAPTURE(p.to_string());
      CHECK((r["status"] == "invalid" || r["status"] == "differs" || r["status"] == "ok"));
      if (r["status"] == "invalid") { ++invalid; CHECK(r["error"]["field"].is_string()); }
      if (r["status"] == "differs") ++differs;
    }
  }
  CHECK(invalid > 100);
  CHECK(differs > 20);
}

TEST_CASE("recorded settings map to the scenarios the page evaluates") {
  json c1 = {{"optimizer", "sgd"}, {"precision", "mixed"}, {"batch_size", 8}, {"checkpointing", "every_k"}, {"every_k", 6},
             {"device", "custom"}, {"custom_capacity_gb", 12.5}, {"units", "gib"}, {"replay", false}, {"hidden_components", json::array()}};
  json s1 = facade::act1_scenario(c1, "c");
  CHECK(s1["device"] == json({{"base", "h100-sxm-80gb"}, {"capacity_bytes", 12'500'000'000LL}}));
  CHECK(s1["checkpointing"] == json({{"every_k_layers", 6}}));
  c1["replay"] = true;
  CHECK(facade::act1_scenario(c1, "c")["device"] == "v100-sxm2-32gb");
  c1["batch_size"] = 3;
  CHECK_THROWS_WITH_AS(facade::act1_scenario(c1, "c"), doctest::Contains("must be one of 1, 2, 4"), InputError);
  const json c2 = {{"precision", "fp32"}, {"checkpointing", "none"}, {"every_k", 4}, {"batch_size", 64}, {"device", "a100-sxm4-80gb"},
                   {"data_workers", 8}, {"prefetch", true}, {"prefetch_depth", 2}, {"pinned_memory", true}, {"replay", true}};
  const json s2 = facade::act2_scenario(c2, "c2");
  CHECK(s2["device"] == "a100-sxm4-80gb");  // Act 2's replay calibrates the timing; the device stays
  CHECK(s2["optimizer"] == "adam");
  CHECK(s2["chapter_replay"] == true);
}

TEST_CASE("the workbench's record is re-computed from its scenario: a missing record differs, the engine's record verifies, an edit is named") {
  json l = json::parse(read_text(kFixtures + "valid-complete.json"));
  const json scenario = {{"model", "gpt2-small"}, {"device", "rtx4090-24gb"}, {"precision", "autocast_bf16"}, {"optimizer", "adam"},
                         {"batch_size", 8}, {"seq_len", 1024}, {"framework", "pytorch"}};
  l["lab_state"]["workbench"] = {{"scenario", scenario}};
  l["result_snapshot"]["workbench"] = nullptr;
  json r = verify(l.dump());
  CHECK(r["status"] == "differs");
  CHECK(r["differing_fields"] == json::array({"result_snapshot.workbench"}));
  // The engine's own record, as the verifier re-computed it.
  json rec;
  for (const auto& f : r["fields"]) if (f["field"] == "result_snapshot.workbench") rec = f["recomputed"];
  REQUIRE(rec.is_object());
  CHECK(rec["peak_bytes"] == facade::evaluate_json(scenario)["memory"]["peak_bytes"]);
  CHECK(rec["peak_phase"] == facade::evaluate_json(scenario)["memory"]["step_phases"]["peak_phase"]);
  l["result_snapshot"]["workbench"] = rec;
  r = verify(l.dump());
  CHECK(r["status"] == "ok");
  CHECK(std::count_if(r["fields"].begin(), r["fields"].end(), [](const json& f) {
          return f["field"].get<std::string>().rfind("result_snapshot.workbench.", 0) == 0;
        }) == static_cast<long>(rec.size()));
  l["result_snapshot"]["workbench"]["mfu"] = rec["mfu"].get<double>() * 1.01;
  r = verify(l.dump());
  CHECK(r["differing_fields"] == json::array({"result_snapshot.workbench.mfu"}));
  // A scenario the engine refuses records null.
  l["lab_state"]["workbench"]["scenario"]["batch_size"] = 0;
  l["result_snapshot"]["workbench"] = nullptr;
  CHECK(verify(l.dump())["status"] == "ok");
}

TEST_CASE("the workbench's textbook twin drops PyTorch's knobs and counts autocast as mixed") {
  const json twin = facade::workbench_textbook_twin({{"model", "gpt2-small"}, {"precision", "autocast_fp16"}, {"framework", "pytorch"},
                                                     {"zero_grad", "zero"}, {"activation_model", "pytorch_eager"}, {"batch_size", 2}});
  CHECK(twin == json({{"model", "gpt2-small"}, {"precision", "mixed"}, {"framework", "textbook"}, {"batch_size", 2}}));
  CHECK(facade::workbench_textbook_twin(json("not an object")) == json("not an object"));
  CHECK_NOTHROW(facade::solve_json(twin));
}
