// The training-step timing model: the Chapter replay profile exactly, the gauge order for every input
// (busy >= pipeline efficiency >= MFU, MFU <= HFU), prefetch and workers never slowing a step, the
// kernel-efficiency curve, optimizer update bytes, the schedule, and the D·A·M bottleneck.
#include <doctest/doctest.h>
#include <cmath>
#include <vector>
#include "facade/facade_pipeline.hpp"
#include "memory/memory.hpp"
#include "pipeline/pipeline.hpp"
#include "facade/scenario_json.hpp"

using namespace lab;
using nlohmann::json;

namespace {

PipelineResult run(const Scenario& s, bool schedule = false) {
  return compute_pipeline(s, estimate_flops(s), {true, schedule});
}

const json kReplayBefore = {{"chapter_replay", true}, {"precision", "mixed"}, {"optimizer", "adam"},
                            {"batch_size", 32}, {"checkpointing", {{"every_k_layers", 4}}}};
json replay_after() {
  json j = kReplayBefore;
  j["data_workers"] = 8;
  j["pinned_memory"] = true;
  j["prefetch"] = true;
  j["prefetch_depth"] = 2;
  return j;
}

Scenario xl(Precision p, std::int64_t batch) {
  Scenario s;
  s.model = *find_model("gpt2-xl");
  s.device = *find_device("h100-sxm-80gb");
  s.precision = p;
  s.batch_size = batch;
  return s;
}

void check_gauges(const PipelineResult& r) {
  const double tol = 1e-12;
  REQUIRE(std::isfinite(r.step_seconds));
  REQUIRE(r.step_seconds > 0);
  CHECK(r.busy_fraction <= 1 + tol);
  CHECK(r.busy_fraction + tol >= r.pipeline_efficiency);
  CHECK(r.pipeline_efficiency + tol >= r.mfu);
  CHECK(r.mfu <= r.hfu + tol);
  CHECK(r.mfu > 0);
  CHECK(r.mfu <= r.mfu_ceiling + tol);
  double shares = 0;
  for (const auto& p : r.phases) {
    CHECK(p.exposed_seconds >= 0);
    CHECK(p.exposed_seconds <= p.work_seconds * (1 + tol) + 1e-300);
    shares += p.share;
  }
  CHECK(shares == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(r.chapter_data_share + r.chapter_transfer_share + r.chapter_compute_share == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(r.tokens_per_second * r.step_seconds == doctest::Approx(static_cast<double>(r.tokens_per_step)));
}

}  // namespace

TEST_CASE("Chapter replay lands exactly on the chapter's profile before the data-pipeline fixes: 40/25/35, busy 45%") {
  const PipelineResult r = run(parse_scenario(kReplayBefore));
  CHECK(r.constants.calibrated);
  CHECK(std::fabs(r.chapter_data_share - 0.40) < 1e-9);
  CHECK(std::fabs(r.chapter_transfer_share - 0.25) < 1e-9);
  CHECK(std::fabs(r.chapter_compute_share - 0.35) < 1e-9);
  CHECK(std::fabs(r.busy_fraction - 0.45) < 1e-9);
  CHECK(r.bottleneck.axis == DamAxis::data);
  CHECK_FALSE(r.prefetch_effective);
  check_gauges(r);
}

TEST_CASE("Chapter replay after 8 workers, pinned memory and prefetch factor 2 lands on 5/20/75 with busy 85%") {
  const PipelineResult before = run(parse_scenario(kReplayBefore));
  const PipelineResult r = run(parse_scenario(replay_after()));
  CHECK(std::fabs(r.chapter_data_share - 0.05) < 1e-9);
  CHECK(std::fabs(r.chapter_transfer_share - 0.20) < 1e-9);
  CHECK(std::fabs(r.chapter_compute_share - 0.75) < 1e-9);
  CHECK(std::fabs(r.busy_fraction - 0.85) < 1e-9);
  CHECK(r.prefetch_effective);
  CHECK(r.bottleneck.axis == DamAxis::algorithm);  // chapter: "compute-bound ... (as desired)"
  // Only the data pipeline changed: the GPU kernels take the same seconds, the wall shrinks 35/75.
  CHECK(r.step_seconds == doctest::Approx(before.step_seconds * 0.35 / 0.75).epsilon(1e-12));
  // The calibration's premise: the loaders' hidden share is shorter than the consumer's path.
  const double loading = phase(r, PhaseId::data_loading).work_seconds;
  const double beta = r.constants.main_process_fraction;
  double consumer = beta * loading;
  for (PhaseId p : {PhaseId::transfer, PhaseId::memory_bound, PhaseId::compute_bound, PhaseId::optimizer})
    consumer += phase(r, p).work_seconds;
  CHECK((1 - beta) * loading < consumer);
  CHECK(r.step_seconds == doctest::Approx(consumer).epsilon(1e-12));
  check_gauges(r);
  // With 33% recompute, MFU <= compute share / 1.33 (LAB_SPEC §7).
  CHECK(r.mfu <= 0.75 / 1.33);
  CHECK(r.mfu < r.pipeline_efficiency);
}

TEST_CASE("Chapter replay constants are derived in closed form: pageable DMA and main-process share are 35/75") {
  const PipelineConstants& c = chapter_replay_constants();
  CHECK(c.pageable_dma_efficiency == doctest::Approx(0.35 / 0.75).epsilon(1e-12));
  CHECK(c.main_process_fraction == doctest::Approx(0.35 / 0.75).epsilon(1e-12));
  CHECK(c.worker_tokens_per_s > 0);
  CHECK(c.staging_bytes_per_s > 0);
  CHECK(c.transfer_latency_seconds > 0);
  CHECK(c.hbm_efficiency == physics_constants(Scenario{}).hbm_efficiency);  // GPU work stays physical
  for (const auto& d : describe(c)) CHECK(std::string(d.source).size() > 20);
  for (const auto& d : describe(physics_constants(Scenario{}))) CHECK(std::string(d.source).size() > 20);
}

TEST_CASE("kernel efficiency is interpolated from the chapter and never falls as batch grows") {
  CHECK(kernel_efficiency(16) == doctest::Approx(0.60));
  CHECK(kernel_efficiency(32) == doctest::Approx(0.70));
  CHECK(kernel_efficiency(256) == doctest::Approx(0.90));
  CHECK(kernel_efficiency(1) == doctest::Approx(1.0 / 3.0));
  CHECK(kernel_efficiency(65536) == doctest::Approx(0.90));
  for (std::int64_t b = 1; b < 70000; b += 1 + b / 7) CHECK(kernel_efficiency(b) <= kernel_efficiency(b + 1));
}

TEST_CASE("optimizer update bytes per parameter: FP32 Adam reads W, G, m, v and writes W, m, v (28 B)") {
  Scenario s = xl(Precision::fp32, 1);
  CHECK(optimizer_update_bytes_per_param(s) == 28);
  s.precision = Precision::mixed;
  CHECK(optimizer_update_bytes_per_param(s) == 28);  // G16 + master + m + v read; master + m + v + W16 written
  s.optimizer = Optimizer::sgd;
  CHECK(optimizer_update_bytes_per_param(s) == 12);
  s.precision = Precision::fp32;
  CHECK(optimizer_update_bytes_per_param(s) == 12);
  s.optimizer = Optimizer::momentum;
  CHECK(optimizer_update_bytes_per_param(s) == 20);
  s.precision = Precision::fp16;
  s.optimizer = Optimizer::sgd;
  CHECK(optimizer_update_bytes_per_param(s) == 6);
}

TEST_CASE("without prefetch the phases add up; 16-bit activations halve the activation traffic but not the masks") {
  const Scenario s = xl(Precision::mixed, 8);
  const PipelineResult r = run(s);
  double sum = 0;
  for (const auto& p : r.phases) sum += p.work_seconds;
  CHECK(r.step_seconds == doctest::Approx(sum).epsilon(1e-14));
  CHECK(r.transfer_bytes == 16.0 * 8 * 1024);
  const double fp32 = memory_bound_bytes_per_step(xl(Precision::fp32, 8), physics_constants(s));
  const double mixed = memory_bound_bytes_per_step(s, physics_constants(s));
  CHECK(mixed < fp32);
  CHECK(mixed > fp32 / 2);
}

TEST_CASE("Gemma 2's post-norms add a read and a write of h per norm to the memory-bound traffic") {
  Scenario s = xl(Precision::mixed, 8);
  const auto c = physics_constants(s);
  const double two = memory_bound_bytes_per_step(s, c);
  s.model.norms_per_layer = 4;
  // Two more norms, each reading and writing h 16-bit elements per token: 2·2·h·e per layer, forward
  // and backward (1 + backward factor), for b·s tokens.
  const double per_token = 48.0 * 2 * 2 * 1600 * 2 * (1 + c.backward_traffic_factor);
  CHECK(memory_bound_bytes_per_step(s, c) - two == doctest::Approx(per_token * 8 * 1024).epsilon(1e-12));
}

TEST_CASE("the gauges keep their order for every input: busy >= pipeline efficiency >= MFU, MFU <= HFU (sweep)") {
  std::vector<TransformerSpec> models;
  for (const auto& m : model_catalog()) models.push_back(m);
  TransformerSpec llama = models.back();
  llama.id = "custom"; llama.layers = 4; llama.hidden = 512; llama.heads = 8; llama.vocab = 32000;
  llama.mlp_hidden = 1376; llama.mlp = MlpKind::swiglu; llama.norm = NormKind::rmsnorm; llama.context = 4096;
  llama.learned_positions = false; llama.tied_head = false; set_biases(llama, false);
  llama.head_dim = 64; llama.kv_heads = 8;
  TransformerSpec tiny = llama;
  tiny.layers = 1; tiny.hidden = 8; tiny.heads = 2; tiny.vocab = 3; tiny.mlp_hidden = 1; tiny.context = 8;
  tiny.head_dim = 4; tiny.kv_heads = 1;
  models.push_back(llama);
  models.push_back(tiny);
  std::vector<DeviceSpec> devices;
  for (const auto& d : device_catalog()) devices.push_back(d);
  DeviceSpec odd = devices.front();
  odd.id = "custom"; odd.peak_fp32_flops_per_s = 1e9; odd.peak_fp16_flops_per_s = 1e18;
  odd.peak_bf16_flops_per_s = 0; odd.hbm_bytes_per_s = 1e6; odd.host_link_bytes_per_s = 1e3;
  devices.push_back(odd);
  const Checkpointing checkpoints[] = {{CheckpointKind::none, 0}, {CheckpointKind::selective, 0},
                                       {CheckpointKind::full, 0}, {CheckpointKind::every_k, 2}};
  const std::int64_t batches[] = {1, 3, 32, 256, 4096};
  long evaluated = 0;
  unsigned pick = 0;
  for (const auto& m : models)
    for (const auto& d : devices)
      for (Precision p : {Precision::fp32, Precision::mixed, Precision::fp16, Precision::bf16})
        for (Optimizer o : {Optimizer::sgd, Optimizer::momentum, Optimizer::adam})
          for (const auto& ck : checkpoints)
            for (std::int64_t b : batches) {
              Scenario s;
              s.model = m; s.device = d; s.precision = p; s.optimizer = o; s.checkpointing = ck; s.batch_size = b;
              s.seq_len = std::min<std::int64_t>(m.context, 1024);
              ++pick;
              s.flash_attention = pick % 3 == 0;
              s.chapter_replay = m.name == model_catalog().back().name && d.id == "v100-sxm2-32gb" && pick % 2 == 0;
              if (s.chapter_replay) s.activation_model = ActivationModel::chapter;
              s.pipeline.worker_tokens_per_s = (pick % 5 == 0) ? 1e3 : 5e5;
              s.pipeline.pinned_memory = pick % 4 < 2;
              s.pipeline.prefetch_depth = 1 + pick % 3;
              const std::int64_t workers[] = {0, 1, 3, 8, 64};
              double previous_step = 0, previous_loading = 0;
              for (std::size_t wi = 0; wi < 5; ++wi) {
                s.pipeline.workers = workers[wi];
                s.pipeline.prefetch = false;
                const PipelineResult off = run(s);
                s.pipeline.prefetch = true;
                const PipelineResult on = run(s);
                check_gauges(off);
                check_gauges(on);
                // Prefetch never makes a step slower.
                CHECK(on.step_seconds <= off.step_seconds * (1 + 1e-12));
                // More workers never make data loading (or the step) slower.
                const double loading = phase(on, PhaseId::data_loading).work_seconds;
                if (wi > 0) {
                  CHECK(loading <= previous_loading * (1 + 1e-12));
                  CHECK(on.step_seconds <= previous_step * (1 + 1e-12));
                }
                previous_loading = loading;
                previous_step = on.step_seconds;
                evaluated += 2;
              }
            }
  CHECK(evaluated > 40000);
}

TEST_CASE("MFU does not fall as batch grows (the solver relies on it)") {
  for (Precision p : {Precision::fp32, Precision::mixed})
    for (bool prefetch : {false, true}) {
      Scenario s = xl(p, 1);
      s.pipeline.prefetch = prefetch;
      s.pipeline.workers = prefetch ? 4 : 0;
      double last = 0;
      for (std::int64_t b = 1; b <= 4096; b *= 2) {
        s.batch_size = b;
        const double mfu = run(s).mfu;
        CHECK(mfu >= last * (1 - 1e-12));
        last = mfu;
      }
    }
}

TEST_CASE("prefetch with no worker has no effect (PyTorch needs num_workers > 0 for prefetch_factor)") {
  Scenario s = xl(Precision::mixed, 16);
  const double off = run(s).step_seconds;
  s.pipeline.prefetch = true;
  const PipelineResult r = run(s);
  CHECK_FALSE(r.prefetch_effective);
  CHECK(r.step_seconds == off);
}

TEST_CASE("the schedule shows K steps, overlap only with prefetch, and a steady-state period equal to the step") {
  Scenario s = parse_scenario(replay_after());
  s.pipeline.schedule_steps = 5;
  const PipelineResult r = run(s, true);
  REQUIRE(r.schedule.size() == 5 * 7);
  std::vector<double> gpu_start;
  for (const auto& g : r.schedule) {
    CHECK(g.end_seconds >= g.start_seconds);
    if (std::string(g.resource) == "gpu_memory") gpu_start.push_back(g.start_seconds);
  }
  REQUIRE(gpu_start.size() == 5);
  CHECK(gpu_start[4] - gpu_start[3] == doctest::Approx(r.step_seconds).epsilon(1e-12));

  // One worker, one batch buffered: the loader builds batch j+1 while the GPU runs step j.
  Scenario v = xl(Precision::mixed, 32);
  v.device = *find_device("v100-sxm2-32gb");
  v.pipeline.workers = 1;
  v.pipeline.prefetch = true;
  v.pipeline.prefetch_depth = 1;
  v.pipeline.schedule_steps = 5;
  const PipelineResult one = run(v, true);
  bool overlap = false;
  for (const auto& a : one.schedule)
    for (const auto& b : one.schedule)
      if (std::string(a.resource) == "cpu_data" && std::string(b.resource).rfind("gpu", 0) == 0 &&
          a.start_seconds < b.end_seconds && b.start_seconds < a.end_seconds)
        overlap = true;
  CHECK(overlap);
  std::vector<double> starts;
  for (const auto& g : one.schedule)
    if (std::string(g.resource) == "gpu_compute") starts.push_back(g.start_seconds);
  CHECK(starts[4] - starts[3] == doctest::Approx(one.step_seconds).epsilon(1e-12));

  Scenario serial = parse_scenario(kReplayBefore);
  const PipelineResult q = run(serial, true);
  REQUIRE(q.schedule.size() == 3 * 6);
  for (std::size_t i = 1; i < q.schedule.size(); ++i)  // serial: each segment starts where the last ended
    CHECK(q.schedule[i].start_seconds == doctest::Approx(q.schedule[i - 1].end_seconds));
  CHECK(q.schedule.back().end_seconds == doctest::Approx(3 * q.step_seconds));
}

TEST_CASE("the data-bound advice follows the limiter: workers for loading, pinning for the copies") {
  json j = replay_after();
  j["pinned_memory"] = false;  // 8 workers prefetching, pageable memory: the copies dominate
  const PipelineResult copies = run(parse_scenario(j));
  REQUIRE(copies.bottleneck.axis == DamAxis::data);
  REQUIRE(std::string(copies.bottleneck.limiter) == "transfer");
  const std::string t = bottleneck_sentence(copies);
  CAPTURE(t);
  CHECK(t.find("(host-to-device copies dominate); pin host memory") != std::string::npos);
  CHECK(t.find("workers") == std::string::npos);
  const PipelineResult loading = run(parse_scenario(kReplayBefore));
  REQUIRE(std::string(loading.bottleneck.limiter) == "data_loading");
  CHECK(bottleneck_sentence(loading).find("(data loading dominates); add loader workers, prefetching and pinned memory.") != std::string::npos);
}

TEST_CASE("with memory already pinned, the copies' advice does not ask to pin it (walk 12)") {
  json j = replay_after();  // pinned, 8 workers prefetching; on an A100 without checkpointing the copies dominate
  j["device"] = "a100-sxm4-80gb";
  j["checkpointing"] = "none";
  const PipelineResult r = run(parse_scenario(j));
  REQUIRE(r.pinned_memory);
  REQUIRE(std::string(r.bottleneck.limiter) == "transfer");
  const std::string t = bottleneck_sentence(r);
  CAPTURE(t);
  CHECK(t.find("(host-to-device copies dominate); host memory is already pinned, so what is left of each copy is its fixed cost per batch and the link\u2019s bandwidth.") != std::string::npos);
  CHECK(t.find("pin host memory") == std::string::npos);
}

TEST_CASE("D·A·M bottleneck: data-starved, compute-bound, bandwidth-bound, and not fitting at all") {
  Scenario small;
  small.model = *find_model("gpt2-small");
  small.device = *find_device("h100-sxm-80gb");
  small.precision = Precision::mixed;
  small.batch_size = 64;
  small.flash_attention = true;
  const PipelineResult starved = run(small);
  CHECK(starved.bottleneck.axis == DamAxis::data);
  CHECK(std::string(starved.bottleneck.limiter) == "data_loading");
  CHECK(bottleneck_sentence(starved).find("Data-bound") == 0);

  Scenario big = xl(Precision::mixed, 32);
  big.flash_attention = true;
  CHECK(run(big).bottleneck.axis == DamAxis::algorithm);
  big.device = *find_device("v100-sxm2-32gb");
  big.flash_attention = false;
  CHECK(run(big).bottleneck.axis == DamAxis::algorithm);

  Scenario scores = small;  // tiny hidden, many heads, long sequence: softmax traffic dominates
  scores.flash_attention = false;
  scores.model.id = "custom"; scores.model.layers = 4; scores.model.hidden = 64; scores.model.heads = 64;
  scores.model.vocab = 1000; scores.model.context = 4096; scores.model.mlp_hidden = 256;
  scores.seq_len = 4096;
  scores.pipeline.workers = 8;
  scores.pipeline.prefetch = true;
  scores.pipeline.pinned_memory = true;
  const PipelineResult bandwidth = run(scores);
  CHECK(bandwidth.bottleneck.axis == DamAxis::machine);
  CHECK(std::string(bandwidth.bottleneck.limiter) == "memory_bound");
  scores.flash_attention = true;  // FlashAttention removes the score traffic
  CHECK(run(scores).phases[2].work_seconds < bandwidth.phases[2].work_seconds);

  const Scenario huge = xl(Precision::fp32, 64);
  const PipelineResult oom = compute_pipeline(huge, estimate_flops(huge), {compute_ledger(huge).fits, false});
  CHECK(oom.bottleneck.axis == DamAxis::machine);
  CHECK(std::string(oom.bottleneck.limiter) == "memory_capacity");
}

TEST_CASE("time per epoch is epoch_tokens over tokens per second (default: the chapter's 35,856,000 tokens)") {
  const Scenario s = parse_scenario(json::object());
  CHECK(s.pipeline.epoch_tokens == 35'856'000);
  const PipelineResult r = run(s);
  CHECK(r.epoch_seconds == doctest::Approx(35'856'000 / r.tokens_per_second));
}

TEST_CASE("the facade's number formatter keeps 15 significant digits in valid JSON") {
  const double values[] = {0.4, 0.05, 0.85, 1.0, 12.0, 32768.0, 0.1234567890123456, 1e-300, 4.9e-324, 1.7e308,
                           123456789012345678.0, 3.5e-5, 1e-5, 9.99999999999999999e-6, 0.000123, 1e15, 999999999999999.9,
                           -2.5, 6.02214076e23, 1.0 / 3.0, 2.0 / 3.0};
  for (double x : values) {
    char buf[40];
    const std::size_t n = facade::format_number(buf, x);
    const json parsed = json::parse(std::string(buf, n));
    REQUIRE(parsed.is_number());
    CHECK(parsed.get<double>() == doctest::Approx(x).epsilon(1e-14));
  }
  double x = 1.2345e-12;
  for (int i = 0; i < 2000; ++i, x *= 1.0371) {
    char buf[40];
    const double y = json::parse(std::string(buf, facade::format_number(buf, x))).get<double>();
    CHECK(std::fabs(y - x) <= 1e-14 * x);
  }
  char buf[40];
  CHECK(std::string(buf, facade::format_number(buf, 0.4)) == "0.4");
  CHECK(std::string(buf, facade::format_number(buf, 0.05)) == "0.05");
  CHECK(std::string(buf, facade::format_number(buf, 32768)) == "32768");
  CHECK(std::string(buf, facade::format_number(buf, 3.5e-5)) == "0.000035");
  CHECK(std::string(buf, facade::format_number(buf, 3.5e-7)) == "3.5e-7");
  CHECK(std::string(buf, facade::format_number(buf, std::nan(""))) == "null");
}

TEST_CASE("the bottleneck sentence gives percentages with one decimal, as the lab shows them") {
  const PipelineResult before = run(parse_scenario(kReplayBefore));
  const std::string data = bottleneck_sentence(before);
  CAPTURE(data);
  CHECK(data.find("Data-bound: loading and copying input take 65.0% of each step") == 0);
  Scenario big = xl(Precision::mixed, 32);
  big.flash_attention = true;
  const PipelineResult r = run(big);
  const std::string algo = bottleneck_sentence(r);
  CAPTURE(algo);
  const long long tenths = std::llround(r.mfu * 1000);
  CHECK(algo.find("MFU is " + std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "%.") != std::string::npos);
}
