// Counter-based randomness (splitmix64), so any batch can be regenerated from (seed, step, row).
#include "refengine/task.hpp"
#include <algorithm>
#include <cmath>
#include <vector>

namespace lab::ref {

namespace {
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
std::uint64_t mix(std::uint64_t a, std::uint64_t b) { return splitmix64(a ^ splitmix64(b)); }
double unit(std::uint64_t r) { return static_cast<double>(r >> 11) * (1.0 / 9007199254740992.0); }  // [0,1)

constexpr int kBranches = 4;
constexpr double kBranchProb[kBranches] = {0.5, 0.25, 0.15, 0.10};

// Successor j of token v (may repeat another successor: then their probabilities add up).
std::int32_t successor(const RefConfig& c, std::int64_t v, int j) {
  return static_cast<std::int32_t>(mix(c.seed * 0x100000001b3ULL + 17, static_cast<std::uint64_t>(v) * 8 + j) %
                                   static_cast<std::uint64_t>(c.vocab));
}
std::int32_t markov_next(const RefConfig& c, std::int64_t v, double u) {
  double acc = 0.0;
  for (int j = 0; j < kBranches; ++j) {
    acc += kBranchProb[j];
    if (u < acc) return successor(c, v, j);
  }
  return successor(c, v, kBranches - 1);
}
}  // namespace

const char* to_string(TaskKind t) { return t == TaskKind::copy ? "copy" : "markov"; }

void generate_batch(const RefConfig& c, std::int64_t step, std::int32_t* tokens, std::int32_t* targets) {
  const std::int64_t T = c.seq;
  std::vector<std::int32_t> seq(static_cast<std::size_t>(T + 1));
  for (std::int64_t b = 0; b < c.batch; ++b) {
    std::uint64_t s = mix(mix(c.seed, static_cast<std::uint64_t>(step)), static_cast<std::uint64_t>(b) + 0x5eedULL);
    auto rnd = [&]() { return s = splitmix64(s); };
    if (c.task == TaskKind::markov) {
      seq[0] = static_cast<std::int32_t>(rnd() % static_cast<std::uint64_t>(c.vocab));
      for (std::int64_t t = 1; t <= T; ++t) seq[static_cast<std::size_t>(t)] = markov_next(c, seq[static_cast<std::size_t>(t - 1)], unit(rnd()));
    } else {
      const std::int64_t half = (T + 2) / 2;  // first `half` tokens random, then repeated
      for (std::int64_t t = 0; t <= T; ++t)
        seq[static_cast<std::size_t>(t)] = t < half ? static_cast<std::int32_t>(rnd() % static_cast<std::uint64_t>(c.vocab))
                                                    : seq[static_cast<std::size_t>(t - half)];
    }
    for (std::int64_t t = 0; t < T; ++t) {
      tokens[b * T + t] = seq[static_cast<std::size_t>(t)];
      targets[b * T + t] = seq[static_cast<std::size_t>(t + 1)];
    }
  }
}

double task_loss_floor(const RefConfig& c) {
  const std::int64_t V = c.vocab, T = c.seq;
  if (c.task == TaskKind::copy) {
    const std::int64_t half = (T + 2) / 2;
    // targets t+1 < half are uniform; the rest are copies a perfect model predicts exactly.
    const std::int64_t random_targets = std::min<std::int64_t>(half - 1, T);
    return static_cast<double>(random_targets) * std::log(static_cast<double>(V)) / static_cast<double>(T);
  }
  // Conditional entropy of each token's successor distribution, averaged over the position
  // distribution (uniform at t = 0, then propagated through the chain).
  std::vector<double> h(static_cast<std::size_t>(V)), p(static_cast<std::size_t>(V), 1.0 / static_cast<double>(V)), q;
  for (std::int64_t v = 0; v < V; ++v) {
    double ent = 0.0;
    for (int j = 0; j < kBranches; ++j) {
      double pj = 0.0;
      bool first = true;
      for (int i = 0; i < kBranches; ++i) {
        if (successor(c, v, i) != successor(c, v, j)) continue;
        if (i < j) first = false;
        pj += kBranchProb[i];
      }
      if (first) ent -= pj * std::log(pj);
    }
    h[static_cast<std::size_t>(v)] = ent;
  }
  std::vector<std::int32_t> next(static_cast<std::size_t>(V * kBranches));
  for (std::int64_t v = 0; v < V; ++v)
    for (int j = 0; j < kBranches; ++j) next[static_cast<std::size_t>(v * kBranches + j)] = successor(c, v, j);
  double sum = 0.0;
  for (std::int64_t t = 0; t < T; ++t) {
    for (std::int64_t v = 0; v < V; ++v) sum += p[static_cast<std::size_t>(v)] * h[static_cast<std::size_t>(v)];
    q.assign(static_cast<std::size_t>(V), 0.0);
    for (std::int64_t v = 0; v < V; ++v)
      for (int j = 0; j < kBranches; ++j)
        q[static_cast<std::size_t>(next[static_cast<std::size_t>(v * kBranches + j)])] += p[static_cast<std::size_t>(v)] * kBranchProb[j];
    p.swap(q);
  }
  return sum / static_cast<double>(T);
}

ParamInitializer::ParamInitializer(const RefConfig& cfg, std::size_t param_index, const ParamSpec& p)
    : state_(mix(cfg.seed ^ 0xabcdef12345ULL, param_index)), init_(p.init) {
  std_ = 0.02f;
  if (init_ == ParamInit::normal_residual) std_ = 0.02f / std::sqrt(2.0f * static_cast<float>(cfg.layers));
}

float ParamInitializer::next() {
  if (init_ == ParamInit::zeros) return 0.0f;
  if (init_ == ParamInit::ones) return 1.0f;
  if (have_spare_) {
    have_spare_ = false;
    return spare_;
  }
  // Box-Muller on two uniforms in (0, 1].
  state_ = splitmix64(state_);
  const double u1 = 1.0 - unit(state_);
  state_ = splitmix64(state_);
  const double u2 = unit(state_);
  const double r = std::sqrt(-2.0 * std::log(u1));
  spare_ = static_cast<float>(std_ * r * std::sin(6.283185307179586 * u2));
  have_spare_ = true;
  return static_cast<float>(std_ * r * std::cos(6.283185307179586 * u2));
}

}  // namespace lab::ref
