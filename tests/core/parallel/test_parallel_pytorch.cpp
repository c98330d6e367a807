// Framework "pytorch" on two data-parallel ranks (core/parallel/parallel_pytorch.cpp) against the
// two-rank measurements in tests/fixtures/pytorch/ranks (scripts/measure-pytorch-dist.py: gloo on CPU):
// each rank's peak within the 5% (all are within 0.1% today) and in the same phase; DDP's
// buckets, ZeroRedundancyOptimizer's greedy partition and the flat shards' optimizer state exact.
#include <doctest/doctest.h>
#include <cmath>
#include "../memory/pytorch_fixtures.hpp"
#include "facade/scenario_json.hpp"
#include "parallel/parallel_pytorch.hpp"

using namespace lab;
using nlohmann::json;

namespace {

std::vector<std::pair<std::string, json>> dist_fixtures(const std::string& sub = "ranks/") {
  std::vector<std::pair<std::string, json>> out;
  const std::string dir = test_fixtures::fixture_dir() + sub;
  const json manifest = test_fixtures::read_json(dir + "manifest.json");
  if (!manifest.is_array()) return out;
  for (const auto& name : manifest) out.emplace_back(name.get<std::string>(), test_fixtures::read_json(dir + name.get<std::string>()));
  return out;
}

ParallelKnobs inputs_of(const json& parallel) {
  ParallelKnobs k;
  k.data_parallel = parallel["data_parallel"].get<std::int64_t>();
  k.zero_stage = parallel["zero_stage"].get<int>();
  const std::string b = parallel["gradient_buckets"];
  k.gradient_buckets = b == "view" ? GradientBuckets::view : (b == "none" ? GradientBuckets::none : GradientBuckets::copy);
  k.sharded_optimizer = parallel.value("sharded_optimizer", "zero_redundancy") == "flat" ? ShardedOptimizer::flat
                                                                                         : ShardedOptimizer::zero_redundancy;
  return k;
}

// The fixture's scenario for one step, and the parallel knobs beside it.
PytorchParallel predict(const json& fx, const char* step) {
  json j = fx["scenario"];
  const ParallelKnobs k = inputs_of(j["parallel"]);
  j.erase("parallel");
  j["step"] = step;
  const Scenario s = parse_scenario(j);
  return pytorch_parallel(s, eager_activations(s), k);
}

}  // namespace

TEST_CASE("each rank's measured peak is predicted within 5%, first and steady steps, in the same phase") {
  const auto fixtures = dist_fixtures();
  REQUIRE(fixtures.size() >= 16);
  double worst = 0;
  for (const auto& fixture : fixtures) {
    const std::string& name = fixture.first;
    const json& fx = fixture.second;
    for (const char* step : {"first", "steady"}) {
      const PytorchParallel p = predict(fx, step);
      REQUIRE(p.ranks.size() == fx["ranks"].size());
      for (const auto& rank : fx["ranks"]) {
        const auto r = rank["rank"].get<std::size_t>();
        const json& measured = rank[std::string(step) + "_step"];
        const auto peak = measured["peak_bytes"].get<std::int64_t>();
        const double error = static_cast<double>(p.ranks[r].peak_bytes - peak) / static_cast<double>(peak);
        worst = std::max(worst, std::fabs(error));
        CAPTURE(name);
        CAPTURE(step);
        CAPTURE(r);
        CAPTURE(p.ranks[r].peak_bytes);
        CAPTURE(peak);
        CAPTURE(p.ranks[r].peak_phase);
        CHECK(std::fabs(error) <= 0.05);  // the tolerance
        const std::string ours = p.ranks[r].peak_phase.find("backward") != std::string::npos ? "backward"
                                 : p.ranks[r].peak_phase.rfind("forward", 0) == 0 ? "forward" : p.ranks[r].peak_phase;
        CHECK(ours == measured["peak_phase"].get<std::string>());
      }
      // The heaviest rank's step is the listed rank's own.
      CHECK(p.phases.allocator_peak_bytes == p.ranks[static_cast<std::size_t>(p.heaviest_rank)].peak_bytes);
      for (const auto& r : p.ranks) CHECK(r.peak_bytes <= p.phases.allocator_peak_bytes);
    }
  }
  MESSAGE("largest error of any rank's peak: " << worst * 100 << "%");
}

TEST_CASE("DDP's buckets, each rank's share of the parameters and its optimizer state are exact") {
  for (const auto& fixture : dist_fixtures()) {
    const std::string& name = fixture.first;
    const json& fx = fixture.second;
    const PytorchParallel p = predict(fx, "steady");
    for (const auto& rank : fx["ranks"]) {
      const auto r = rank["rank"].get<std::size_t>();
      CAPTURE(name);
      CAPTURE(r);
      CHECK(p.gradient_bucket_bytes == rank["bucket_bytes"].get<std::int64_t>());
      CHECK(p.ranks[r].owned_parameters == rank["owned_elements"].get<std::int64_t>());
      CHECK(p.ranks[r].owned_tensors == rank["owned_tensors"].get<std::int64_t>());
      CHECK(p.ranks[r].optimizer_state_bytes == rank["optimizer_state_bytes"].get<std::int64_t>());
    }
  }
}

namespace {
// A one-block Llama-style model, d = 128, f = 336, V = 2,048, untied: tensors by size are the embedding
// and the head (262,144 each), gate/up/down (43,008), q/k/v/o (16,384) and three norms (128).
Scenario small_llama(json extra) {
  json j = {{"model", {{"layers", 1}, {"hidden", 128}, {"heads", 4}, {"vocab", 2048}, {"context", 128}, {"mlp_hidden", 336},
                       {"mlp", "swiglu"}, {"norm", "rmsnorm"}, {"biases", false}, {"tied_head", false}, {"learned_positions", false}}},
            {"framework", "pytorch"}, {"pytorch_build", "cuda"}, {"reserve_bytes", 0}, {"precision", "fp32"},
            {"optimizer", "adam"}, {"optimizer_impl", "per_parameter"}, {"batch_size", 2}, {"seq_len", 16}};
  j.update(extra);
  return parse_scenario(j);
}
PytorchParallel zero1(const Scenario& s, std::int64_t n, ShardedOptimizer kind) {
  ParallelKnobs k;
  k.data_parallel = n;
  k.zero_stage = 1;
  k.sharded_optimizer = kind;
  return pytorch_parallel(s, eager_activations(s), k);
}
}  // namespace

TEST_CASE("ZeroRedundancyOptimizer's partition is greedy by size, not 1/N: worked by hand") {
  // Largest first, each to the rank with fewer elements (ties to rank 0): 262,144 -> 0; 262,144 -> 1;
  // 43,008 -> 0 (305,152); 43,008 -> 1 (305,152); 43,008 -> 0 (348,160); 16,384 -> 1 (321,536),
  // -> 1 (337,920), -> 1 (354,304); 16,384 -> 0 (364,544); 128 x 3 -> 1 (354,688).
  const Scenario s = small_llama(json::object());
  const PytorchParallel p = zero1(s, 2, ShardedOptimizer::zero_redundancy);
  REQUIRE(p.ranks.size() == 2);
  CHECK(p.ranks[0].owned_parameters == 364'544);
  CHECK(p.ranks[1].owned_parameters == 354'688);
  CHECK(p.ranks[0].owned_tensors == 4);
  CHECK(p.ranks[1].owned_tensors == 8);
  // Adam (2.x on CUDA: no step tensor in GPU memory): 8 bytes per owned element.
  CHECK(p.ranks[0].optimizer_state_bytes == 8 * 364'544);
  // Per-parameter Adam: 2 * this + previous, over the rank's tensors largest first: rank 0 updates
  // 262,144, 43,008 twice, then 16,384: 2 * 262,144 = 524,288 elements (4 bytes).
  CHECK(p.ranks[0].optimizer_temporary_bytes == 4 * 524'288);
  // Rank 1: 262,144, 43,008, 16,384 x 3, 128 x 3: 2 * 262,144 as well.
  CHECK(p.ranks[1].optimizer_temporary_bytes == 4 * 524'288);
  CHECK(p.heaviest_rank == 0);
  // The flat shards split the 719,232 elements evenly: 359,616 each.
  const PytorchParallel f = zero1(s, 2, ShardedOptimizer::flat);
  CHECK(f.ranks[0].owned_parameters == 359'616);
  CHECK(f.ranks[1].owned_parameters == 359'616);
  CHECK(f.ranks[0].optimizer_state_bytes == 8 * 359'616);
}

TEST_CASE("more ranks than tensors: ZeroRedundancyOptimizer leaves ranks empty, the flat shards do not") {
  const Scenario s = small_llama(json::object());
  // 12 tensors over 16 ranks: four ranks own nothing; the heaviest owns the embedding (262,144).
  const PytorchParallel z = zero1(s, 16, ShardedOptimizer::zero_redundancy);
  std::int64_t empty = 0, most = 0;
  for (const auto& r : z.ranks) {
    empty += r.owned_parameters == 0;
    most = std::max(most, r.owned_parameters);
  }
  CHECK(empty == 4);
  CHECK(most == 262'144);
  CHECK(z.ranks[static_cast<std::size_t>(z.heaviest_rank)].owned_parameters == 262'144);
  // Flat: ceil(719,232 / 16) = 44,952 elements on every rank.
  const PytorchParallel f = zero1(s, 16, ShardedOptimizer::flat);
  for (const auto& r : f.ranks) CHECK(r.owned_parameters == 44'952);
  CHECK(f.phases.allocator_peak_bytes < z.phases.allocator_peak_bytes);
  // Beyond 64 ranks only the heaviest is listed.
  CHECK(zero1(s, 1000, ShardedOptimizer::flat).ranks.size() == 1);
}

TEST_CASE("DDP's bucket copy adds every gradient to every phase; the view keeps them live from the start") {
  const Scenario s = small_llama({{"optimizer", "sgd"}});
  const std::int64_t G = 4 * 719'232;
  ParallelKnobs k;
  k.data_parallel = 2;
  const PytorchParallel copy = pytorch_parallel(s, eager_activations(s), k);
  k.gradient_buckets = GradientBuckets::none;
  const PytorchParallel none = pytorch_parallel(s, eager_activations(s), k);
  k.gradient_buckets = GradientBuckets::view;
  const PytorchParallel view = pytorch_parallel(s, eager_activations(s), k);
  CHECK(copy.gradient_bucket_bytes == G);
  CHECK(none.gradient_bucket_bytes == 0);
  CHECK(copy.phases.timeline.front().total() == none.phases.timeline.front().total() + G);
  CHECK(view.phases.timeline.front().gradients == G);
  CHECK(copy.phases.allocator_peak_bytes == none.phases.allocator_peak_bytes + G);
  // At the optimizer step every gradient exists anyway: the view costs nothing more there.
  CHECK(view.phases.timeline.back().total() == none.phases.timeline.back().total());
  // One replica is one device: no buckets, whatever gradient_buckets says.
  k.data_parallel = 1;
  k.gradient_buckets = GradientBuckets::copy;
  const PytorchParallel alone = pytorch_parallel(s, eager_activations(s), k);
  CHECK(alone.gradient_bucket_bytes == 0);
  CHECK(alone.phases.allocator_peak_bytes == step_phases(s, eager_activations(s)).allocator_peak_bytes);
  // Without DDP the all-reduce of each .grad is a phase of its own, in place.
  bool sync = false;
  for (const auto& t : none.phases.timeline) sync = sync || t.phase == "grad_sync";
  CHECK(sync);
}

TEST_CASE("on a Hopper GPU (torch 2.11, two ranks on one GPU): each rank's step within 5%, from the engine's own start") {
  // tests/fixtures/pytorch/ranks/cuda: the CPU runs and GPU-sized ones (16-23); the GPT-2 and
  // from-scratch runs measured on an H100, the Llama-style ones on an H200 (re-measured after the
  // script's Hugging Face-style model stopped registering a mask and cos/sin tables per block).
  // torch.cuda.max_memory_allocated also counts cuBLAS's workspaces and the model's buffers; the
  // engine models both (core/memory/README.md), so every prediction is the engine's own.
  const auto fixtures = dist_fixtures("ranks/cuda/");
  REQUIRE(fixtures.size() >= 24);
  // Known gap: the script runs 16 first, so its first step is the rank processes' first backward:
  // autograd's thread creates its cuBLAS handle and 32 MiB workspace during that step, while the
  // engine (as every later run measured) holds it from the start.
  const std::string process_first = "16-llama-L4-d512-s256-b4-fp32-adam-copy-unsharded.json";
  const std::int64_t handle = 32LL * 1024 * 1024;
  double worst = 0;
  std::string worst_at;
  int rank_steps = 0;
  for (const auto& fixture : fixtures) {
    const std::string& name = fixture.first;
    json fx = fixture.second;
    fx["scenario"]["pytorch_build"] = "cuda";
    fx["scenario"]["device"] = "h100-sxm-80gb";  // Hopper's workspaces; the H200 (not in the catalogue) holds the same
    const bool gpu_sized = fx["config"]["batch_size"].get<int>() * fx["config"]["seq_len"].get<int>() >= 1024;
    for (const std::string step : {"first", "steady"}) {
      const PytorchParallel p = predict(fx, step.c_str());
      const std::int64_t missing = name == process_first && step == "first" ? handle : 0;
      for (const auto& rank : fx["ranks"]) {
        const auto r = rank["rank"].get<std::size_t>();
        const json& measured = rank[step + "_step"];
        CAPTURE(name);
        CAPTURE(step);
        CAPTURE(r);
        if (step == "first") {
          // The rank's first start: parameters, buckets, buffers, ids and the workspaces, to the
          // allocator's 512-byte rounding of each tensor (every rank starts alike). The GPU-sized
          // runs hold 64 KiB more (176 KiB with DDP), not identified (core/memory/README.md).
          const std::int64_t ours = p.phases.timeline.front().total() - missing;
          const std::int64_t start = measured["start_bytes"].get<std::int64_t>();
          CAPTURE(ours);
          CAPTURE(start);
          CHECK(ours <= start);
          CHECK(start - ours <= (gpu_sized ? 180 * 1024 : 4096));
        }
        const std::int64_t predicted = p.ranks[r].peak_bytes - missing;
        const auto peak = measured["peak_bytes"].get<std::int64_t>();
        CAPTURE(predicted);
        CAPTURE(peak);
        const double error = static_cast<double>(predicted - peak) / static_cast<double>(peak);
        if (std::fabs(error) > worst) worst = std::fabs(error), worst_at = name + " " + step;
        CHECK(std::fabs(error) <= 0.05);  // the tolerance
        ++rank_steps;
      }
    }
  }
  CHECK(rank_steps == 4 * static_cast<int>(fixtures.size()));  // two ranks, two steps: none skipped
  MESSAGE("largest error on Hopper: " << worst * 100 << "% (" << worst_at << "), " << rank_steps << " rank-steps");
}

// Through evaluate (the native suite enables the parallel hooks, as lab_scale does).
#include "facade/facade.hpp"

namespace {
json eval(const json& request) { return json::parse(facade::evaluate(request.dump())); }
std::string error_field(const json& r) { return r.contains("error") ? r["error"]["field"].get<std::string>() : "(no error)"; }
}  // namespace

TEST_CASE("evaluate: a measured two-rank run's memory is its heaviest rank, each rank listed, terms adding up") {
  for (const auto& fixture : dist_fixtures()) {
    const std::string& name = fixture.first;
    const json& fx = fixture.second;
    const json r = eval(fx["scenario"]);
    CAPTURE(name);
    REQUIRE_FALSE(r.contains("error"));
    const json& m = r["memory"];
    CHECK(m["per_device"] == true);
    std::int64_t heaviest = 0;
    for (const auto& rank : fx["ranks"]) heaviest = std::max(heaviest, rank["steady_step"]["peak_bytes"].get<std::int64_t>());
    // reserve_bytes 0 in the fixtures' scenarios: the device peak is the allocator's.
    CHECK(std::fabs(static_cast<double>(m["peak_bytes"].get<std::int64_t>() - heaviest)) <= 0.05 * static_cast<double>(heaviest));
    std::int64_t sum = 0;
    for (const auto& c : m["components"].items()) sum += c.value().get<std::int64_t>();
    CHECK(sum == m["total_bytes"].get<std::int64_t>());
    for (const auto& t : m["step_phases"]["timeline"]) {
      std::int64_t parts = 0;
      for (const auto& c : t.items())
        if (c.key() != "phase" && c.key() != "bytes") parts += c.value().get<std::int64_t>();
      CHECK(parts == t["bytes"].get<std::int64_t>());
    }
    const json& p = r["parallel"]["pytorch"];
    REQUIRE(p["ranks"].size() == 2);
    CHECK(p["gradient_bucket_bytes"] == fx["ranks"][0]["bucket_bytes"]);
    CHECK(p["ranks"][p["heaviest_rank"].get<std::size_t>()]["allocator_peak_bytes"] == m["step_phases"]["allocator_peak_bytes"]);
    CHECK(r["parallel"]["memory_by_stage"].size() == 2);  // stages 0 and 1: what framework "pytorch" models
  }
}

TEST_CASE("evaluate: framework pytorch refuses what it does not model, naming the field") {
  const json base = {{"model", "gpt2-small"}, {"framework", "pytorch"}, {"precision", "autocast_bf16"}, {"batch_size", 2}, {"seq_len", 128}};
  auto with = [&](json parallel) { json j = base; j["parallel"] = parallel; return eval(j); };
  CHECK(error_field(with({{"data_parallel", 4}, {"zero_stage", 2}})) == "parallel.zero_stage");
  CHECK(error_field(with({{"data_parallel", 2}, {"tensor_parallel", 2}})) == "parallel.tensor_parallel");
  CHECK(error_field(with({{"data_parallel", 2}, {"pipeline_parallel", 2}})) == "parallel.pipeline_parallel");
  CHECK(error_field(with({{"data_parallel", 2}, {"micro_batches", 4}})) == "parallel.micro_batches");
  CHECK(error_field(with({{"data_parallel", 2}, {"sharded_optimizer", "flat"}})) == "parallel.sharded_optimizer");  // stage 0
  CHECK(error_field(with({{"data_parallel", 2}, {"zero_stage", 1}, {"sharded_optimizer", "half"}})) == "parallel.sharded_optimizer");
  json textbook = base;
  textbook.erase("framework");
  textbook["precision"] = "mixed";
  textbook["parallel"] = {{"data_parallel", 2}, {"zero_stage", 1}, {"sharded_optimizer", "flat"}};
  CHECK(error_field(eval(textbook)) == "parallel.sharded_optimizer");
  // What it models: the flat shards' state is the smaller; the scenario written back parses back.
  const json zro = with({{"data_parallel", 8}, {"zero_stage", 1}});
  const json flat = with({{"data_parallel", 8}, {"zero_stage", 1}, {"sharded_optimizer", "flat"}});
  REQUIRE_FALSE(zro.contains("error"));
  REQUIRE_FALSE(flat.contains("error"));
  CHECK(flat["memory"]["components"]["optimizer_state"] < zro["memory"]["components"]["optimizer_state"]);
  CHECK(flat["parallel"]["pytorch"]["sharded_optimizer"] == "flat");
  CHECK(eval(flat["scenario"])["memory"]["peak_bytes"] == flat["memory"]["peak_bytes"]);
}
