// More than one device, as an opt-in hook: lab_core (the first load, near its size budget) never links
// core/parallel/. A module that calls enable_parallel() (lab_scale, lab_ledger, the native tests,
// fuzzer and benchmarks) parses the scenario's "parallel" object and writes evaluate's "parallel"
// block; without it a scenario with "parallel" is an error value naming the field. parallel_hook.cpp
// holds the slot (linked everywhere); facade_parallel.cpp the code behind it (linked only where called).
#pragma once
#include <nlohmann/json.hpp>
#include "facade/json_writer.hpp"
#include "memory/memory.hpp"
#include "model/flops.hpp"
#include "model/scenario.hpp"
#include "pipeline/pipeline.hpp"

namespace lab::facade {

struct ParallelHooks {
  // Fills s.parallel from the "parallel" object (errors name "parallel.<field>"); sets s.num_devices
  // to the device count (num_devices_given: the request named num_devices, which must then agree).
  void (*parse)(const nlohmann::json& v, Scenario& s, bool num_devices_given);
  // The resolved object, parseable back to the same knobs (inside evaluate's "scenario").
  void (*write_scenario)(JsonWriter& w, const ParallelKnobs& k);
  // The heaviest device's memory ledger (evaluate's "memory" with "parallel" present).
  MemoryLedger (*ledger)(const Scenario& s);
  // evaluate's top-level "parallel" block (key and object); m is ledger(s).
  void (*write_block)(JsonWriter& w, const Scenario& s, const MemoryLedger& m, const FlopsEstimate& f,
                      const PipelineResult& one_device);
};

// Registers the hooks (idempotent). Call once at start-up of a module that offers multi-device scenarios.
void enable_parallel();
// nullptr until enable_parallel() ran.
const ParallelHooks* parallel_hooks();
void set_parallel_hooks(const ParallelHooks* hooks);

}  // namespace lab::facade
