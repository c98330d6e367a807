// The multi-device hooks (facade_parallel.hpp): parsing "parallel", writing it back, the heaviest
// device's ledger and evaluate's "parallel" block (keys: core/facade/README.md). Linked only into
// modules that call enable_parallel().
#include "facade/facade_parallel.hpp"
#include <string>
#include "facade/json_fields.hpp"
#include "util/checked.hpp"
#include "parallel/parallel_pytorch.hpp"
#include "parallel/per_device_memory.hpp"
#include "parallel/step_time.hpp"

namespace lab::facade {
using nlohmann::json;
using namespace lab::fields;

namespace {

std::string interconnect_ids() {
  std::string s;
  for (const auto& c : interconnect_catalog()) s += std::string(s.empty() ? "" : ", ") + c.id;
  return s;
}

InterconnectSpec parse_interconnect(const json& v) {
  const std::string path = "parallel.interconnect";
  if (v.is_string()) {
    const auto* c = find_interconnect(v.get<std::string>());
    if (!c) throw InputError(path, "unknown interconnect id '" + v.get<std::string>() + "'; known: " + interconnect_ids());
    return *c;
  }
  if (!v.is_object()) throw InputError(path, "must be an interconnect id (" + interconnect_ids() + ") or {\"bytes_per_s\": B, \"latency_s\": a}");
  reject_unknown(v, path, {"name", "bytes_per_s", "latency_s"});
  InterconnectSpec c;
  const std::string name = v.contains("name") ? to_string_value(v["name"], path + ".name") : "Custom interconnect";
  if (name.size() >= sizeof c.name) throw InputError(path + ".name", "must be at most 63 bytes");
  name.copy(c.name, name.size());
  if (!v.contains("bytes_per_s")) throw InputError(path + ".bytes_per_s", "a custom interconnect needs 'bytes_per_s' (per direction, per GPU)");
  c.bytes_per_s = to_number(v["bytes_per_s"], path + ".bytes_per_s", 0, 1e15, false);
  c.latency_s = v.contains("latency_s") ? to_number(v["latency_s"], path + ".latency_s", 0, 1) : 0;
  c.provenance = "user-described custom interconnect";
  return c;
}

void check_divides(std::int64_t t, std::int64_t n, const char* what) {
  if (n % t != 0)
    throw InputError("parallel.tensor_parallel", "tensor_parallel (" + std::to_string(t) + ") must divide the model's " + what + " (" + std::to_string(n) + ")");
}

void parse(const json& v, Scenario& s, bool num_devices_given) {
  if (!v.is_object()) throw InputError("parallel", "must be an object such as {\"data_parallel\": 8, \"zero_stage\": 3}");
  const PresentFields f(v, "parallel", {"data_parallel", "zero_stage", "tensor_parallel", "sequence_parallel",
                                        "pipeline_parallel", "micro_batches", "interconnect", "overlap",
                                        "bucket_bytes", "gradient_buckets", "sharded_optimizer"});
  ParallelKnobs k;
  k.interconnect = *find_interconnect("nvlink4");
  if (f.find("data_parallel")) k.data_parallel = to_int(*f.find("data_parallel"), "parallel.data_parallel", 1, 65536);
  if (f.find("zero_stage")) k.zero_stage = static_cast<int>(to_int(*f.find("zero_stage"), "parallel.zero_stage", 0, 3));
  if (f.find("tensor_parallel")) k.tensor_parallel = to_int(*f.find("tensor_parallel"), "parallel.tensor_parallel", 1, 1024);
  if (f.find("sequence_parallel")) k.sequence_parallel = to_bool(*f.find("sequence_parallel"), "parallel.sequence_parallel");
  if (f.find("pipeline_parallel")) k.pipeline_parallel = to_int(*f.find("pipeline_parallel"), "parallel.pipeline_parallel", 1, s.model.layers);
  if (f.find("micro_batches")) k.micro_batches = to_int(*f.find("micro_batches"), "parallel.micro_batches", 1, 65536);
  if (f.find("interconnect")) k.interconnect = parse_interconnect(*f.find("interconnect"));
  if (f.find("overlap")) k.overlap = to_bool(*f.find("overlap"), "parallel.overlap");
  if (f.find("bucket_bytes")) k.bucket_bytes = to_int(*f.find("bucket_bytes"), "parallel.bucket_bytes", 1, 1LL << 40);
  if (f.find("gradient_buckets"))
    k.gradient_buckets = static_cast<GradientBuckets>(to_choice(*f.find("gradient_buckets"), "parallel.gradient_buckets", {"copy", "view", "none"}));
  if (f.find("sharded_optimizer")) {
    k.sharded_optimizer = static_cast<ShardedOptimizer>(to_choice(*f.find("sharded_optimizer"), "parallel.sharded_optimizer", {"zero_redundancy", "flat"}));
    if (s.framework.framework != Framework::pytorch || k.zero_stage != 1)
      throw InputError("parallel.sharded_optimizer", "chooses how framework \"pytorch\" shards the optimizer state at zero_stage 1; leave it out otherwise");
  }
  const std::int64_t t = k.tensor_parallel;
  check_divides(t, s.model.heads, "heads");
  check_divides(t, kv_heads_of(s.model), "kv_heads");
  check_divides(t, s.model.mlp_hidden, "mlp_hidden");
  if (k.sequence_parallel && t == 1)
    throw InputError("parallel.sequence_parallel", "sequence parallelism splits the sequence over the tensor-parallel ranks: it needs tensor_parallel > 1");
  if (k.sequence_parallel && s.seq_len % t != 0)
    throw InputError("parallel.sequence_parallel", "seq_len (" + std::to_string(s.seq_len) + ") must be divisible by tensor_parallel (" + std::to_string(t) + ")");
  if (k.devices() > (1LL << 20))
    throw InputError("parallel.data_parallel", "data_parallel x tensor_parallel x pipeline_parallel = " + std::to_string(k.devices()) + " devices; at most 1,048,576");
  if (num_devices_given && s.num_devices != k.devices())
    throw InputError("num_devices", "num_devices (" + std::to_string(s.num_devices) + ") disagrees with parallel's devices (data_parallel x tensor_parallel x pipeline_parallel = " +
                                        std::to_string(k.devices()) + "); leave num_devices out or make them equal");
  if (s.chapter_replay) throw InputError("parallel", "chapter_replay reproduces the chapter's one-device walkthrough; leave out \"parallel\"");
  if (s.framework.framework == Framework::textbook && s.activation_model != ActivationModel::korthikanti)
    throw InputError("activation_model", "\"parallel\" splits Korthikanti's activations over devices: use activation_model \"korthikanti\"");
  s.num_devices = k.devices();
  s.parallel = k;
}

void write_interconnect_fields(JsonWriter& w, const InterconnectSpec& c) {
  w.field("name", std::string(c.name));
  if (c.free) w.key("bytes_per_s").null(); else w.field("bytes_per_s", c.bytes_per_s);
  w.field("latency_s", c.latency_s);
}

void write_scenario(JsonWriter& w, const ParallelKnobs& k) {
  w.begin_object().field("data_parallel", k.data_parallel).field("zero_stage", k.zero_stage)
      .field("tensor_parallel", k.tensor_parallel).field("sequence_parallel", k.sequence_parallel)
      .field("pipeline_parallel", k.pipeline_parallel).field("micro_batches", k.micro_batches);
  w.key("interconnect");
  if (std::string(k.interconnect.id) == "custom") {
    w.begin_object();
    write_interconnect_fields(w, k.interconnect);
    w.end_object();
  } else {
    w.value(k.interconnect.id);
  }
  w.field("overlap", k.overlap).field("bucket_bytes", k.bucket_bytes).field("gradient_buckets", to_string(k.gradient_buckets));
  if (k.sharded_optimizer != ShardedOptimizer::zero_redundancy) w.field("sharded_optimizer", to_string(k.sharded_optimizer));
  w.end_object();
}

void write_collectives(JsonWriter& w, const ParallelStep& r) {
  double by_kind[4] = {0, 0, 0, 0};
  for (const auto& c : r.collectives) by_kind[static_cast<int>(c.kind)] += c.bytes;
  w.key("communication_bytes_per_step").begin_object()
      .field("all_reduce", by_kind[0]).field("reduce_scatter", by_kind[1]).field("all_gather", by_kind[2])
      .field("point_to_point", by_kind[3]).field("total", by_kind[0] + by_kind[1] + by_kind[2] + by_kind[3]).end_object();
  w.key("collectives").begin_array();
  for (const auto& c : r.collectives)
    w.begin_object().field("kind", to_string(c.kind)).field("purpose", c.purpose).field("calls", c.calls)
        .field("bytes", c.bytes).field("seconds", c.seconds).field("exposed_seconds", c.exposed_seconds).end_object();
  w.end_array();
}

void write_memory_by_stage(JsonWriter& w, const Scenario& s) {
  w.key("memory_by_stage").begin_array();
  // Framework "pytorch" models stages 0 and 1 only (parallel_pytorch.hpp): the list stops there.
  const int last = s.framework.framework == Framework::pytorch ? 1 : 3;
  for (int stage = 0; stage <= last; ++stage) {
    Scenario other = s;
    other.parallel->zero_stage = stage;
    const MemoryLedger m = per_device_ledger(other);
    w.begin_object().field("zero_stage", stage).field("static_bytes", m.static_bytes).field("peak_bytes", m.peak_bytes)
        .field("fits", m.fits).end_object();
  }
  w.end_array();
}

// Math Peek's symbols and the formulas bound to them (core/facade/README.md lists the keys).
void write_formulas(JsonWriter& w, const Scenario& s, const MemoryLedger& m, const ParallelStep& r) {
  const ParallelKnobs& k = *s.parallel;
  const auto& b = m.per_param;
  w.key("formulas").begin_object();
  w.key("symbols").begin_object()
      .field("N", k.data_parallel).field("t", k.tensor_parallel).field("p", k.pipeline_parallel).field("m", k.micro_batches)
      .field("b", s.batch_size).field("s", s.seq_len).field("h", s.model.hidden).field("psi", m.parameters)
      .field("W", b.weights).field("G", b.gradients).field("K", b.master + b.per_optimizer_vector * b.optimizer_vectors);
  if (k.interconnect.free) w.key("B").null(); else w.field("B", k.interconnect.bytes_per_s);
  w.field("alpha", k.interconnect.latency_s).field("r", r.communication_ratio).end_object();
  static const char* const kStates[] = {"(W + G + K) * psi", "(W + G) * psi + K * psi / N", "W * psi + (G + K) * psi / N",
                                        "(W + G + K) * psi / N"};
  w.key("model_states").begin_object().field("expression", kStates[k.zero_stage]).field("bytes", m.static_bytes).end_object();
  w.key("all_reduce").begin_object().field("expression", "2 (N - 1) / N * S / B + 2 (N - 1) * alpha, per bucket")
      .field("seconds", r.data_parallel_sync_s).end_object();
  w.key("bubble").begin_object().field("expression", "(p - 1) / (m + p - 1)").field("value", r.bubble_fraction).end_object();
  w.key("speedup").begin_object().field("expression", "N / (1 + (N - 1) * r)").field("value", r.speedup).end_object();
  w.key("crossover").begin_object()
      .field("expression", "data parallel: all-reduce seconds / backward seconds per token; fully sharded: 3 psi seconds / compute seconds per token")
      .field("data_parallel", r.crossover_data_parallel_tokens).field("fully_sharded", r.crossover_fully_sharded_tokens)
      .field("data_parallel_seconds", r.data_parallel_sync_s).field("fully_sharded_seconds", r.fully_sharded_sync_s)
      .field("backward_s_per_token", r.backward_s_per_token).field("compute_s_per_token", r.compute_s_per_token).end_object();
  w.end_object();
}

// Framework "pytorch": every data-parallel rank's share and peak (parallel_pytorch.hpp); "memory"
// describes the heaviest.
void write_pytorch_ranks(JsonWriter& w, const Scenario& s) {
  const PytorchParallel p = pytorch_parallel_ranks(s);
  w.key("pytorch").begin_object().field("heaviest_rank", p.heaviest_rank).field("gradient_bucket_bytes", p.gradient_bucket_bytes);
  if (s.parallel->zero_stage == 1) w.field("sharded_optimizer", to_string(s.parallel->sharded_optimizer));
  w.field("ranks_listed", static_cast<std::int64_t>(p.ranks.size())).key("ranks").begin_array();
  for (const auto& r : p.ranks)
    w.begin_object().field("rank", r.rank).field("owned_parameters", r.owned_parameters).field("owned_tensors", r.owned_tensors)
        .field("optimizer_state_bytes", r.optimizer_state_bytes).field("optimizer_temporary_bytes", r.optimizer_temporary_bytes)
        .field("allocator_peak_bytes", r.peak_bytes).field("device_peak_bytes", add(r.peak_bytes, s.reserve_bytes))
        .field("peak_phase", r.peak_phase).end_object();
  w.end_array().end_object();
}

void write_block(JsonWriter& w, const Scenario& s, const MemoryLedger& m, const FlopsEstimate& f, const PipelineResult& one) {
  const ParallelKnobs& k = *s.parallel;
  const int stage = heaviest_device(s).stage;
  const StageLayout l = stage_layout(s, stage);
  const ParallelStep r = parallel_step(s, f, one, l);
  w.key("parallel").begin_object()
      .field("devices", k.devices()).field("data_parallel", k.data_parallel).field("tensor_parallel", k.tensor_parallel)
      .field("pipeline_parallel", k.pipeline_parallel).field("micro_batches", k.micro_batches).field("zero_stage", k.zero_stage)
      .field("sequence_parallel", k.sequence_parallel).field("overlap", k.overlap)
      .field("gradient_buckets", to_string(k.gradient_buckets)).field("heaviest_stage", stage)
      .field("global_batch", r.global_batch).field("tokens_per_device", r.tokens_per_device);
  w.key("interconnect").begin_object().field("id", k.interconnect.id);  // static text
  write_interconnect_fields(w, k.interconnect);
  w.field("provenance", k.interconnect.provenance).end_object();
  w.field("parameters_per_device", l.parameters);
  write_memory_by_stage(w, s);
  write_collectives(w, r);
  w.field("compute_s", r.compute_s).field("communication_s", r.communication_s)
      .field("exposed_communication_s", r.exposed_communication_s).field("hidden_communication_s", r.hidden_communication_s)
      .field("bubble_s", r.bubble_s).field("bubble_fraction", r.bubble_fraction).field("step_s", r.step_s)
      .field("single_device_step_s", r.single_device_step_s).field("speedup", r.speedup)
      .field("scaling_efficiency", r.scaling_efficiency).field("communication_ratio", r.communication_ratio);
  w.key("crossover_tokens_per_device").begin_object()
      .field("data_parallel", r.crossover_data_parallel_tokens).field("fully_sharded", r.crossover_fully_sharded_tokens).end_object();
  w.field("compute_s_per_token", r.compute_s_per_token);
  w.key("timeline").begin_array();
  for (const auto& t : r.timeline)
    w.begin_object().field("lane", t.lane).field("kind", t.kind).field("start_s", t.start_s).field("end_s", t.end_s)
        .field("exposed", t.exposed).end_object();
  w.end_array();
  write_formulas(w, s, m, r);
  if (s.framework.framework == Framework::pytorch) write_pytorch_ranks(w, s);
  w.end_object();
}

const ParallelHooks kHooks = {parse, write_scenario, per_device_ledger, write_block};

}  // namespace

void enable_parallel() { set_parallel_hooks(&kHooks); }

}  // namespace lab::facade
