// The memory solver: the GPT-2 XL laptop floor and its derivation, the floor never above any
// configuration that fits (checked by brute force with compute_ledger), the largest batch, the
// cheapest path (ends in a fit or proves none exists; no shorter path fits), the configurations that
// fit only without an FP32 master, and the best-MFU configuration.
#include <doctest/doctest.h>
#include <vector>
#include "facade/facade.hpp"
#include "memory/memory.hpp"
#include "solver/solver.hpp"

using namespace lab;
using nlohmann::json;

namespace {

Scenario scenario(const char* model, const char* device, Precision p, Optimizer o, std::int64_t batch) {
  Scenario s;
  s.model = *find_model(model);
  s.device = *find_device(device);
  s.precision = p;
  s.optimizer = o;
  s.batch_size = batch;
  s.seq_len = 1024;
  return s;
}

std::int64_t peak(const Scenario& base, const TrainingConfig& c) { return compute_ledger(with_config(base, c)).peak_bytes; }

std::vector<Checkpointing> some_checkpoints(std::int64_t layers) {
  std::vector<Checkpointing> out = {{CheckpointKind::none, 0}, {CheckpointKind::selective, 0}, {CheckpointKind::full, 0}};
  for (std::int64_t k = 2; k <= layers; ++k) out.push_back({CheckpointKind::every_k, k});
  return out;
}

int differences(const TrainingConfig& a, const TrainingConfig& b) {
  const bool same_ck = a.checkpointing.kind == b.checkpointing.kind &&
                       (a.checkpointing.kind != CheckpointKind::every_k ||
                        a.checkpointing.every_k_layers == b.checkpointing.every_k_layers);
  return (a.precision != b.precision) + (a.optimizer != b.optimizer) + !same_ck;
}

int halvings(std::int64_t from, std::int64_t to) {
  int h = 0;
  while (from > to) { from = (from + 1) / 2; ++h; }
  return h;
}

}  // namespace

TEST_CASE("GPT-2 XL cannot be trained in 8 GB: the floor is 12,460,889,600 B static (8 B/param) plus activations") {
  const Scenario s = scenario("gpt2-xl", "rtx4060-laptop-8gb", Precision::fp32, Optimizer::adam, 1);
  const SolverResult r = solve(s);
  CHECK(r.floor.static_floor_bytes == 12'460'889'600);
  CHECK(r.floor.static_bytes == 12'460'889'600);
  CHECK(r.floor.config.precision == Precision::mixed);
  CHECK(r.floor.config.optimizer == Optimizer::sgd);
  CHECK(r.floor.config.checkpointing.kind == CheckpointKind::full);
  CHECK(r.floor.config.batch_size == 1);
  // 12,460,889,600 static + 157,286,400 layer inputs + 183,500,800 rebuilt layer + 2 x 205,852,672
  // logits and their gradient + 536,870,912 reserve.
  CHECK(r.floor.peak_bytes == 13'750'253'056);
  CHECK_FALSE(r.device_fits_floor);
  CHECK(r.floor.static_ties.size() == 2);  // FP32 SGD has the same 8 B/param
  std::int64_t sum = 0;
  for (const auto& c : r.floor.derivation) sum += c.bytes;
  CHECK(sum == r.floor.peak_bytes);
  REQUIRE(r.floor.derivation.size() >= 3);
  CHECK(std::string(r.floor.derivation[0].component) == "weights");
  CHECK(r.floor.derivation[0].bytes_per_param == 2);
  CHECK(std::string(r.floor.derivation[1].component) == "gradients");
  CHECK(r.floor.derivation[1].bytes_per_param == 2);
  CHECK(std::string(r.floor.derivation[2].component) == "master_weights");
  CHECK(r.floor.derivation[2].bytes_per_param == 4);
  CHECK(r.floor.derivation[2].words.find("1,557,611,200") != std::string::npos);
  CHECK(r.floor.text.find("12,460,889,600") != std::string::npos);
  // The floor in a student's words (ledgers record this text): the configuration as the lab's controls
  // name it, the static arithmetic, and what the laptop's "8 GB" name means in bytes.
  CHECK(r.floor.text ==
        "The least memory that can train GPT-2 XL (1.5B) at all is 13.75 GB (13,750,253,056 B), with mixed precision, SGD "
        "and full activation checkpointing at batch 1. Its weights, gradients and optimizer state take 8 B per parameter "
        "× 1,557,611,200 parameters = 12,460,889,600 B; activations, logits and the framework’s reserve take the rest. "
        "Every configuration that can train needs at least 12,460,889,600 B for weights, gradients and optimizer state. "
        "The NVIDIA GeForce RTX 4060 Laptop 8 GB has 8.59 GB (8,585,740,288 B; its “8 GB” counts GiB, 2^30 bytes): "
        "nothing that can train fits, so training this model there needs sharding or offloading across devices, which a "
        "later volume covers.");
  for (const char* jargon : {" + sgd", "B/param", "Volume 2", "numerically valid", " x "})
    CHECK_MESSAGE(r.floor.text.find(jargon) == std::string::npos, jargon);
  CHECK_FALSE(r.path.reaches_fit);
  CHECK(r.path.reason.find("13750253056") != std::string::npos);
  REQUIRE_FALSE(r.path.moves.empty());
  CHECK(r.path.moves.back().peak_bytes == r.floor.peak_bytes);  // the moves lead to the floor
  CHECK_FALSE(r.best_mfu.has_value());
  CHECK(r.largest.largest_batch == 0);
  // Pure 16-bit SGD fits (4 B/param), but its updates stall.
  REQUIRE(r.stalls_but_fits.size() >= 2);
  for (const auto& st : r.stalls_but_fits) {
    CHECK_FALSE(numerically_valid(st.config.precision));
    CHECK(st.peak_bytes_at_batch_1 <= s.device.capacity_bytes);
  }
  CHECK(r.configurations_evaluated == 4 * 3 * 50);
}

TEST_CASE("the floor is the least peak over every valid configuration and never above one that fits (brute force)") {
  const char* models[] = {"gpt2-small", "gpt2-medium", "gpt2-xl"};
  const char* devices[] = {"rtx4060-laptop-8gb", "v100-sxm2-32gb", "a100-sxm4-40gb"};
  for (const char* model : models)
    for (const char* device : devices)
      for (bool replay : {false, true}) {
        if (replay && std::string(model) != "gpt2-xl") continue;
        Scenario s = scenario(model, device, Precision::fp32, Optimizer::adam, 4);
        if (replay) { s.chapter_replay = true; s.activation_model = ActivationModel::chapter; s.reserve_bytes = 0; }
        const SolverResult r = solve(s);
        std::int64_t least = INT64_MAX;
        for (Precision p : {Precision::fp32, Precision::mixed})
          for (Optimizer o : {Optimizer::sgd, Optimizer::momentum, Optimizer::adam})
            for (const auto& ck : some_checkpoints(s.model.layers)) {
              least = std::min(least, peak(s, {p, o, ck, 1}));
              for (std::int64_t b : {1, 2, 7, 32}) {
                const std::int64_t pk = peak(s, {p, o, ck, b});
                if (pk <= s.device.capacity_bytes) CHECK(r.floor.peak_bytes <= pk);
              }
            }
        CHECK(r.floor.peak_bytes == least);
        CHECK(r.device_fits_floor == (least <= s.device.capacity_bytes));
      }
}

TEST_CASE("the largest batch fits and the next one does not") {
  for (const char* device : {"v100-sxm2-32gb", "a100-sxm4-80gb", "rtx4090-24gb"})
    for (Precision p : {Precision::fp32, Precision::mixed, Precision::bf16}) {
      Scenario s = scenario("gpt2-medium", device, p, Optimizer::adam, 8);
      s.checkpointing = {CheckpointKind::every_k, 6};
      const LargestBatch lb = solve(s).largest;
      REQUIRE(lb.largest_batch >= 1);
      TrainingConfig c = config_of(s);
      c.batch_size = lb.largest_batch;
      CHECK(peak(s, c) == lb.peak_bytes);
      CHECK(lb.peak_bytes <= s.device.capacity_bytes);
      c.batch_size += 1;
      CHECK(peak(s, c) == lb.next_peak_bytes);
      CHECK(lb.next_peak_bytes > s.device.capacity_bytes);
      CHECK(lb.scenario_batch_fits == (lb.largest_batch >= 8));
      CHECK(lb.numerically_valid == (p != Precision::bf16));
    }
}

TEST_CASE("the cheapest path ends in a configuration that fits, or proves by the floor that none does") {
  const char* devices[] = {"rtx4060-laptop-8gb", "v100-sxm2-32gb", "rtx4090-24gb", "h100-sxm-80gb"};
  int reached = 0, proved = 0;
  for (const char* model : {"gpt2-medium", "gpt2-xl"})
    for (const char* device : devices)
      for (Precision p : {Precision::fp32, Precision::mixed, Precision::fp16})
        for (Optimizer o : {Optimizer::adam, Optimizer::momentum})
          for (std::int64_t batch : {1, 64}) {
            Scenario s = scenario(model, device, p, o, batch);
            const SolverResult r = solve(s);
            const CheapestPath& path = r.path;
            if (path.start_fits) {
              CHECK(path.moves.empty());
              CHECK(path.reaches_fit);
              continue;
            }
            TrainingConfig cur = config_of(s);
            for (std::size_t i = 0; i < path.moves.size(); ++i) {
              const PathMove& m = path.moves[i];
              // Exactly one thing changes per move, or the batch halves.
              const int changed = differences(cur, m.config);
              if (std::string(m.kind) == "batch") {
                CHECK(changed == 0);
                CHECK(m.config.batch_size == (cur.batch_size + 1) / 2);
              } else {
                CHECK(changed == 1);
                CHECK(m.config.batch_size == cur.batch_size);
              }
              CHECK(m.peak_bytes == peak(s, m.config));
              if (i + 1 < path.moves.size()) CHECK_FALSE(m.fits);  // nothing shorter fits
              cur = m.config;
            }
            if (path.reaches_fit) {
              ++reached;
              REQUIRE_FALSE(path.moves.empty());
              CHECK(path.moves.back().fits);
              CHECK(peak(s, cur) <= s.device.capacity_bytes);
              CHECK(numerically_valid(cur.precision));
              // No valid configuration reachable in fewer moves fits (brute force).
              const int moves = static_cast<int>(path.moves.size());
              for (Precision q : {Precision::fp32, Precision::mixed})
                for (Optimizer u : {Optimizer::sgd, Optimizer::momentum, Optimizer::adam})
                  for (const auto& ck : some_checkpoints(s.model.layers)) {
                    TrainingConfig t{q, u, ck, s.batch_size};
                    const int base = differences(config_of(s), t);
                    for (int h = 0; base + h < moves; ++h) {
                      if (h > 0 && t.batch_size == 1) break;
                      if (h > 0) t.batch_size = (t.batch_size + 1) / 2;
                      CHECK(peak(s, t) > s.device.capacity_bytes);
                    }
                  }
              CHECK(halvings(s.batch_size, cur.batch_size) <= moves);
            } else {
              ++proved;
              CHECK_FALSE(r.device_fits_floor);
              CHECK(r.floor.peak_bytes > s.device.capacity_bytes);
            }
          }
  CHECK(reached > 10);
  CHECK(proved > 5);
}

TEST_CASE("the best-MFU configuration fits and no fitting valid configuration at the capped batch beats it") {
  Scenario s = scenario("gpt2-medium", "a100-sxm4-40gb", Precision::fp32, Optimizer::adam, 8);
  s.pipeline.workers = 4;
  s.pipeline.prefetch = true;
  SolverOptions o;
  o.max_batch_size = 64;
  const SolverResult r = solve(s, o);
  REQUIRE(r.best_mfu.has_value());
  REQUIRE(r.best_throughput.has_value());
  REQUIRE(r.best_mfu_same_optimizer.has_value());
  CHECK(r.best_mfu->peak_bytes <= s.device.capacity_bytes);
  CHECK(r.best_mfu->config.batch_size <= 64);
  CHECK(numerically_valid(r.best_mfu->config.precision));
  CHECK(r.best_mfu_same_optimizer->config.optimizer == Optimizer::adam);
  CHECK(r.best_mfu_same_optimizer->mfu <= r.best_mfu->mfu);
  for (Precision p : {Precision::fp32, Precision::mixed})
    for (Optimizer u : {Optimizer::sgd, Optimizer::momentum, Optimizer::adam})
      for (const auto& ck : some_checkpoints(s.model.layers))
        for (std::int64_t b : {1, 16, 64}) {
          const TrainingConfig c{p, u, ck, b};
          if (peak(s, c) > s.device.capacity_bytes) continue;
          const Scenario x = with_config(s, c);
          const PipelineResult t = compute_pipeline(x, estimate_flops(x));
          CHECK(t.mfu <= r.best_mfu->mfu * (1 + 1e-9));
          CHECK(t.tokens_per_second <= r.best_throughput->tokens_per_second * (1 + 1e-9));
        }
}

TEST_CASE("on an H100 with the chapter's model, mixed precision alone fits GPT-2 XL at batch 32 (LAB_SPEC §7)") {
  Scenario s = scenario("gpt2-xl", "h100-sxm-80gb", Precision::fp32, Optimizer::adam, 32);
  s.chapter_replay = true;
  s.activation_model = ActivationModel::chapter;
  s.reserve_bytes = 0;
  CHECK(peak(s, config_of(s)) == 89'000'000'000);
  TrainingConfig mixed = config_of(s);
  mixed.precision = Precision::mixed;
  CHECK(peak(s, mixed) == 56'500'000'000);
  CHECK(peak(s, mixed) <= s.device.capacity_bytes);
  const SolverResult r = solve(s);
  REQUIRE(r.path.reaches_fit);
  REQUIRE(r.path.moves.size() == 1);
  CHECK(std::string(r.path.moves[0].kind) == "precision");  // faster as well as smaller
  CHECK(r.path.moves[0].peak_bytes == 56'500'000'000);
  CHECK(r.path.relative_training_time < 1);
}

TEST_CASE("solve through the facade: documented fields, named errors, never throws") {
  const json r = json::parse(facade::solve(R"({"model":"gpt2-xl","device":"rtx4060-laptop-8gb"})"));
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["floor"]["static_bytes"] == 12'460'889'600LL);
  CHECK(r["device_fits_floor"] == false);
  CHECK(r["floor"]["derivation"].is_array());
  CHECK(r["cheapest_path"]["reaches_fit"] == false);
  CHECK(r["best_mfu"].is_null());
  CHECK(r["stalls_but_fits"].size() >= 2);
  CHECK(r["configurations_evaluated"] == 600);
  const json ok = json::parse(facade::solve(R"({"model":"gpt2-small","device":"h100-sxm-80gb","max_batch_size":32})"));
  CHECK(ok["best_mfu"]["configuration"]["batch_size"].get<int>() <= 32);
  CHECK(ok["cheapest_path"]["start"]["fits"] == true);
  const std::pair<const char*, const char*> bad[] = {
      {R"({"max_batch_size": 0})", "max_batch_size"}, {R"({"max_batch_size": "8"})", "max_batch_size"},
      {R"({"batch_size": -1})", "batch_size"},        {R"({"devise": "x"})", "devise"},
      {R"({"model": "gpt-9"})", "model"},              {"[1]", ""},
      {"{", ""},
  };
  for (const auto& [text, field] : bad) {
    json e;
    CHECK_NOTHROW(e = json::parse(facade::solve(text)));
    REQUIRE(e.contains("error"));
    CHECK(e["error"]["field"] == field);
  }
  const json huge = json::parse(facade::solve(
      R"({"model":{"layers":1000,"hidden":131072,"heads":1024,"vocab":10000000,"context":1048576},"seq_len":1048576,"batch_size":65536})"));
  CHECK(huge.contains("error"));
}
