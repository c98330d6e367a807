// Solver, part 1: the sweep's memory model, the floor and its derivation, the largest batch, the
// configurations that fit only without an FP32 master ("updates stall"), and solve() itself.
// Part 2 (solver_search.cpp): the cheapest path of moves and the best-MFU configuration.
#include "solver/solver.hpp"
#include "util/byte_text.hpp"
#include <algorithm>
#include <cmath>
#include "util/checked.hpp"
#include "model/flops.hpp"
#include "memory/memory.hpp"
#include "solver/solver_internal.hpp"

namespace lab {

bool numerically_valid(Precision p) {  // autocast keeps FP32 weights, as mixed keeps an FP32 master
  return p == Precision::fp32 || p == Precision::mixed || p == Precision::autocast_bf16 || p == Precision::autocast_fp16;
}

double convergence_factor(Optimizer o) { return o == Optimizer::adam ? 1.0 : 3.0; }

TrainingConfig config_of(const Scenario& s) { return {s.precision, s.optimizer, s.checkpointing, s.batch_size}; }

Scenario with_config(const Scenario& base, const TrainingConfig& c) {
  Scenario s = base;
  s.precision = c.precision;
  s.optimizer = c.optimizer;
  s.checkpointing = c.checkpointing;
  s.batch_size = c.batch_size;
  return s;
}

std::string describe(const Checkpointing& c) {
  if (c.kind == CheckpointKind::every_k) return "every " + std::to_string(c.every_k_layers) + " layers";
  return to_string(c.kind);
}

std::string describe(const TrainingConfig& c) {
  return std::string(to_string(c.precision)) + " + " + to_string(c.optimizer) + " + " + describe(c.checkpointing) +
         " checkpointing, batch " + std::to_string(c.batch_size);
}

namespace {
// A configuration in a student's words, as the lab's controls name it: "mixed precision, SGD and full
// activation checkpointing at batch 1".
std::string config_words(const TrainingConfig& c) {
  const char* precision = c.precision == Precision::fp32 ? "FP32" : c.precision == Precision::mixed ? "mixed precision"
                          : c.precision == Precision::fp16 ? "pure FP16" : "pure BF16";
  const char* optimizer = c.optimizer == Optimizer::sgd ? "SGD" : c.optimizer == Optimizer::momentum ? "SGD with momentum" : "Adam";
  const std::string ckpt = c.checkpointing.kind == CheckpointKind::every_k
                               ? "activation checkpointing every " + std::to_string(c.checkpointing.every_k_layers) + " layers"
                           : c.checkpointing.kind == CheckpointKind::none ? "no activation checkpointing"
                                                                          : std::string(to_string(c.checkpointing.kind)) + " activation checkpointing";
  return std::string(precision) + ", " + optimizer + " and " + ckpt + " at batch " + std::to_string(c.batch_size);
}

// A device whose name says "8 GB" for 8 GiB (8.59 GB): say so where its bytes are given in GB.
std::string gib_name_note(const DeviceSpec& d, std::int64_t capacity) {
  const double gib = static_cast<double>(capacity) / static_cast<double>(1LL << 30);
  const long long whole = std::llround(gib);
  if (std::fabs(gib - static_cast<double>(whole)) >= 0.01) return "";
  const std::string named = std::to_string(whole) + " GB";
  return d.name.find(named) == std::string::npos ? "" : "; its “" + named + "” counts GiB, 2^30 bytes";
}
}  // namespace

namespace solver_detail {

bool same_checkpointing(const Checkpointing& a, const Checkpointing& b) {
  return a.kind == b.kind && (a.kind != CheckpointKind::every_k || a.every_k_layers == b.every_k_layers);
}

std::int64_t exact_peak(const Scenario& base, const TrainingConfig& c) {
  try {
    return compute_ledger(with_config(base, c)).peak_bytes;
  } catch (const InputError&) {
    return kTooLarge;  // a count overflowed 64 bits: certainly larger than any device
  }
}

std::int64_t largest_batch_exact(const Scenario& base, TrainingConfig c, std::int64_t estimate, std::int64_t capacity) {
  auto fits = [&](std::int64_t b) {
    c.batch_size = b;
    return exact_peak(base, c) <= capacity;
  };
  std::int64_t b = std::clamp<std::int64_t>(estimate, 0, kMaxBatch);
  while (b >= 1 && !fits(b)) --b;  // the estimate is exact for Korthikanti; ±1 for the chapter's rounding
  while (b < kMaxBatch && fits(b + 1)) ++b;
  return b;
}

PipelineResult timing(const Scenario& base, const TrainingConfig& c) {
  const Scenario s = with_config(base, c);
  return compute_pipeline(s, estimate_flops(s));
}

namespace {
// Checkpointing options: none, selective, full, and every k layers for k = 2..L (L ≤ 256); deeper
// models get the divisors of L and the neighbourhood of √L (where k·A + (L/k)·A is smallest).
std::vector<Checkpointing> checkpoint_options(const Scenario& s) {
  const std::int64_t L = s.model.layers;
  std::vector<Checkpointing> out = {{CheckpointKind::none, 0}, {CheckpointKind::selective, 0}, {CheckpointKind::full, 0}};
  const auto root = static_cast<std::int64_t>(std::sqrt(static_cast<double>(L)));
  for (std::int64_t k = 2; k <= L; ++k)
    if (L <= 256 || L % k == 0 || (k >= root - 2 && k <= root + 3)) out.push_back({CheckpointKind::every_k, k});
  const bool present = std::any_of(out.begin(), out.end(), [&](const Checkpointing& c) { return same_checkpointing(c, s.checkpointing); });
  if (!present) out.push_back(s.checkpointing);  // e.g. every 1 layer, or an unlisted k
  return out;
}
int precision_index(Precision p) { return static_cast<int>(p); }
int optimizer_index(Optimizer o) { return static_cast<int>(o); }
}  // namespace

Sweep::Sweep(const Scenario& s) : base(s) {
  if (base.convention == Convention::chapter) base.convention = Convention::ours;
  capacity = base.device.capacity_bytes;
  checkpoints = checkpoint_options(base);
  const std::int64_t N = memory_parameter_count(base);
  for (Precision p : {Precision::fp32, Precision::mixed, Precision::fp16, Precision::bf16})
    for (Optimizer o : kOptimizers) {
      std::int64_t bytes = kTooLarge;
      try { bytes = mul(N, bytes_per_param(p, o, base.convention).total()); } catch (const InputError&) {}
      static_bytes[precision_index(p)][optimizer_index(o)] = bytes;
    }
  reserve = base.chapter_replay ? 0 : base.reserve_bytes;
  // Dynamic bytes = ledger peak − static − reserve, measured at batch 1 and 2 with a representative
  // precision of each activation element size (SGD: the optimizer does not enter the dynamic part).
  const Precision representative[2] = {Precision::fp32, Precision::mixed};
  for (int e = 0; e < 2; ++e) {
    dynamic[e].resize(checkpoints.size());
    for (std::size_t i = 0; i < checkpoints.size(); ++i) {
      Scenario x = with_config(base, {representative[e], Optimizer::sgd, checkpoints[i], 1});
      try {
        const MemoryLedger one = compute_ledger(x);
        x.batch_size = 2;
        const MemoryLedger two = compute_ledger(x);
        const std::int64_t fixed = one.static_bytes + one.reserve;
        Dynamic d;
        d.at_batch_1 = one.peak_bytes - fixed;
        d.per_sample = static_cast<double>(two.peak_bytes - one.peak_bytes);
        d.intercept = static_cast<double>(d.at_batch_1) - d.per_sample;
        dynamic[e][i] = d;
      } catch (const InputError&) {
        dynamic[e][i] = Dynamic{};  // too large to count: never fits
      }
    }
  }
}

std::int64_t Sweep::static_of(Precision p, Optimizer o) const { return static_bytes[precision_index(p)][optimizer_index(o)]; }

const Dynamic& Sweep::dynamic_of(Precision p, std::size_t i) const {
  return dynamic[activation_element_bytes(p) == 4 ? 0 : 1][i];
}

std::int64_t Sweep::peak_at_batch_1(Precision p, Optimizer o, std::size_t i) const {
  const std::int64_t st = static_of(p, o), dy = dynamic_of(p, i).at_batch_1;
  if (st == kTooLarge || dy == kTooLarge) return kTooLarge;
  std::int64_t r = 0;
  if (__builtin_add_overflow(st, dy, &r) || __builtin_add_overflow(r, reserve, &r)) return kTooLarge;
  return r;
}

double Sweep::peak_estimate(Precision p, Optimizer o, std::size_t i, std::int64_t batch) const {
  const Dynamic& d = dynamic_of(p, i);
  if (static_of(p, o) == kTooLarge || d.at_batch_1 == kTooLarge) return 1e300;
  return static_cast<double>(static_of(p, o)) + static_cast<double>(reserve) + d.intercept +
         d.per_sample * static_cast<double>(batch);
}

std::int64_t Sweep::largest_batch_estimate(Precision p, Optimizer o, std::size_t i) const {
  const std::int64_t one = peak_at_batch_1(p, o, i);
  if (one > capacity) return 0;
  const Dynamic& d = dynamic_of(p, i);
  if (d.per_sample <= 0) return kMaxBatch;
  const double room = static_cast<double>(capacity) - static_cast<double>(static_of(p, o)) -
                      static_cast<double>(reserve) - d.intercept;
  const double b = std::floor(room / d.per_sample);
  return std::clamp<std::int64_t>(b >= static_cast<double>(kMaxBatch) ? kMaxBatch : static_cast<std::int64_t>(b), 1, kMaxBatch);
}

TrainingConfig Sweep::config(Precision p, Optimizer o, std::size_t i, std::int64_t batch) const {
  return {p, o, checkpoints[i], batch};
}

std::size_t Sweep::index_of(const Checkpointing& c) const {
  for (std::size_t i = 0; i < checkpoints.size(); ++i)
    if (same_checkpointing(checkpoints[i], c)) return i;
  return checkpoints.size();
}

}  // namespace solver_detail

namespace {
using namespace solver_detail;

void add_component(Floor& f, const char* name, std::int64_t per_param, std::int64_t bytes, std::int64_t params,
                   const std::string& what) {
  if (bytes == 0) return;
  std::string words = what + ": ";
  if (per_param >= 0) words += std::to_string(per_param) + " B/param x " + thousands_text(params) + " parameters = ";
  words += thousands_text(bytes) + " B";
  f.derivation.push_back({name, per_param, bytes, words});
}

Floor find_floor(const Sweep& sw) {
  Floor f;
  f.static_floor_bytes = kTooLarge;
  std::int64_t best = kTooLarge;
  for (Precision p : kValidPrecisions)
    for (Optimizer o : kOptimizers) {
      f.static_floor_bytes = std::min(f.static_floor_bytes, sw.static_of(p, o));
      for (std::size_t i = 0; i < sw.checkpoints.size(); ++i) {
        const std::int64_t peak = sw.peak_at_batch_1(p, o, i);
        if (peak < best) { best = peak; f.config = sw.config(p, o, i, 1); }
      }
    }
  for (Precision p : kValidPrecisions)
    for (Optimizer o : kOptimizers)
      if (sw.static_of(p, o) == f.static_floor_bytes) f.static_ties.push_back({p, o, {}, 1});
  if (best == kTooLarge) {
    f.peak_bytes = kTooLarge;
    f.text = "Every configuration of this model is too large to count in 64-bit bytes.";
    return f;
  }
  const Scenario s = with_config(sw.base, f.config);
  const MemoryLedger m = compute_ledger(s);
  f.peak_bytes = m.peak_bytes;
  f.static_bytes = m.static_bytes;
  const std::int64_t N = m.parameters;
  const bool mixed = f.config.precision == Precision::mixed;
  add_component(f, "weights", m.per_param.weights, m.weights, N, mixed ? "weights (16-bit compute copy)" : "weights (FP32)");
  add_component(f, "gradients", m.per_param.gradients, m.gradients, N, mixed ? "gradients (16-bit)" : "gradients (FP32)");
  add_component(f, "master_weights", m.per_param.master, m.master_weights, N, "FP32 master copy of the weights");
  for (const auto& v : m.optimizer_vectors)
    add_component(f, v.name == "momentum" ? "momentum" : (v.name == "adam_m" ? "adam_m" : "adam_v"),
                  m.per_param.per_optimizer_vector, v.bytes, N, "optimizer vector " + v.name + " (FP32)");
  add_component(f, "activations", -1, m.activations, N,
                "activations kept for backward at batch 1 with " + describe(f.config.checkpointing) +
                    " checkpointing (" + m.activation.formula + ")");
  add_component(f, "recompute_working_set", -1, m.activation.recompute_working_bytes, N,
                "the checkpoint segment rebuilt during backward");
  add_component(f, "logits", -1, m.logits, N, "FP32 logits, batch x sequence x vocabulary x 4 B");
  add_component(f, "logits_gradient", -1, m.logits_gradient, N, "their gradient, live at the start of backward");
  add_component(f, "reserve", -1, m.reserve, N, "CUDA context and allocator reserve (scenario reserve_bytes)");
  const BytesPerParam bpp = m.per_param;
  // Words a student reads. Ledgers record them; verify_ledger also accepts the first wording
  // (facade_ledger_earlier.cpp), so a ledger exported before they changed still verifies.
  f.text = "The least memory that can train " + s.model.name + " at all is " + gb_text(f.peak_bytes) + " (" +
           thousands_text(f.peak_bytes) + " B), with " + config_words(f.config) + ". Its weights, gradients and optimizer state take " +
           std::to_string(bpp.total()) + " B per parameter × " + thousands_text(N) + " parameters = " + thousands_text(f.static_bytes) +
           " B; activations, logits and the framework’s reserve take the rest. Every configuration that can train needs at least " +
           thousands_text(f.static_floor_bytes) + " B for weights, gradients and optimizer state.";
  return f;
}

LargestBatch find_largest(const Sweep& sw) {
  const TrainingConfig c = config_of(sw.base);
  const std::size_t i = sw.index_of(c.checkpointing);
  const std::int64_t estimate = sw.largest_batch_estimate(c.precision, c.optimizer, i);
  return largest_result(sw.base, sw.capacity, largest_batch_exact(sw.base, c, estimate, sw.capacity));
}

}  // namespace

namespace solver_detail {
LargestBatch largest_result(const Scenario& s, std::int64_t capacity, std::int64_t largest) {
  LargestBatch r;
  TrainingConfig c = config_of(s);
  r.numerically_valid = numerically_valid(c.precision);
  r.scenario_peak_bytes = exact_peak(s, c);
  r.scenario_batch_fits = r.scenario_peak_bytes <= capacity;
  r.largest_batch = largest;
  c.batch_size = std::max<std::int64_t>(1, r.largest_batch);
  r.config = c;
  r.peak_bytes = exact_peak(s, c);
  if (r.largest_batch >= 1 && r.largest_batch < kMaxBatch) {
    TrainingConfig next = c;
    next.batch_size = r.largest_batch + 1;
    r.next_peak_bytes = exact_peak(s, next);
  }
  return r;
}
}  // namespace solver_detail

namespace {

std::vector<StallingFit> find_stalls(const Sweep& sw) {
  std::vector<StallingFit> out;
  for (Precision p : kStallingPrecisions)
    for (Optimizer o : kOptimizers) {
      // Least recompute first: none, selective, then the smallest of the full-forward recompute schemes.
      std::size_t pick = sw.checkpoints.size();
      for (std::size_t i = 0; i < 2 && pick == sw.checkpoints.size(); ++i)
        if (sw.peak_at_batch_1(p, o, i) <= sw.capacity) pick = i;
      if (pick == sw.checkpoints.size()) {
        std::int64_t best = kTooLarge;
        for (std::size_t i = 2; i < sw.checkpoints.size(); ++i)
          if (sw.peak_at_batch_1(p, o, i) < best) { best = sw.peak_at_batch_1(p, o, i); pick = i; }
        if (best > sw.capacity) continue;
      }
      StallingFit f;
      f.peak_bytes_at_batch_1 = sw.peak_at_batch_1(p, o, pick);
      const TrainingConfig c = sw.config(p, o, pick, 1);
      f.largest_batch = largest_batch_exact(sw.base, c, sw.largest_batch_estimate(p, o, pick), sw.capacity);
      f.config = sw.config(p, o, pick, std::max<std::int64_t>(1, f.largest_batch));
      out.push_back(f);
    }
  return out;
}

}  // namespace

Scenario textbook_view(const Scenario& s) {
  Scenario t = s;
  t.framework = FrameworkKnobs{};
  t.activation_model = ActivationModel::korthikanti;
  if (is_autocast(t.precision)) t.precision = Precision::mixed;
  return t;
}

SolverResult solve(const Scenario& s, const SolverOptions& o) {
  // The scenario itself must be countable, exactly as evaluate requires (InputError "scenario").
  (void)compute_ledger(s);
  (void)estimate_flops(s);
  if (s.framework.framework == Framework::pytorch) {
    SolverResult r = solve(textbook_view(s), o);
    r.largest = pytorch_largest(s);
    r.path = pytorch_cheapest_path(s);
    return r;
  }
  const Sweep sw(s);
  SolverResult r;
  r.convention = sw.base.convention;
  r.capacity_bytes = sw.capacity;
  r.checkpointing_options = static_cast<std::int64_t>(sw.checkpoints.size());
  r.configurations_evaluated = 4 * 3 * r.checkpointing_options;
  r.floor = find_floor(sw);
  r.device_fits_floor = r.floor.peak_bytes <= sw.capacity;
  const std::string has = " The " + s.device.name + " has " + gb_text(sw.capacity) + " (" + thousands_text(sw.capacity) + " B" +
                          gib_name_note(s.device, sw.capacity) + ")";
  if (!r.device_fits_floor && r.floor.peak_bytes != kTooLarge)
    r.floor.text += has + ": nothing that can train fits, so training this model there needs sharding or offloading "
                          "across devices, which a later volume covers.";
  else if (r.device_fits_floor)
    r.floor.text += has + ", so it can train this model.";
  r.largest = find_largest(sw);
  r.path = find_cheapest_path(sw, r.floor);
  find_best(sw, o.max_batch_size, r);
  r.stalls_but_fits = find_stalls(sw);
  return r;
}

}  // namespace lab
