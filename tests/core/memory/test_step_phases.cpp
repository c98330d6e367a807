// The step-phase model (core/memory/step_phases.cpp): each measured step's peak within 1% of the fixtures
// (tests/fixtures/pytorch), and the PyTorch behaviours behind the timeline, computed by hand.
#include <doctest/doctest.h>
#include <cmath>
#include "pytorch_fixtures.hpp"
#include "facade/scenario_json.hpp"
#include "memory/step_phases.hpp"
#include "util/errors.hpp"

using namespace lab;
using nlohmann::json;

namespace {
StepPhases phases_of(const Scenario& s) { return step_phases(s, eager_activations(s)); }
const PhaseBytes* phase(const StepPhases& p, const std::string& name) {
  for (const auto& t : p.timeline)
    if (t.phase == name) return &t;
  return nullptr;
}
}  // namespace

TEST_CASE("every measured step's peak is predicted within 1%, first and steady steps") {
  const auto fixtures = test_fixtures::pytorch_fixtures();
  REQUIRE(fixtures.size() >= 10);
  for (const auto& fixture : fixtures) {
    const std::string& name = fixture.first;  // (clang 14 cannot capture structured bindings)
    const json& fx = fixture.second;
    for (const char* step : {"first", "steady"}) {
      json j = fx["scenario"];
      j["step"] = step;
      const StepPhases p = phases_of(parse_scenario(j));
      const auto measured = fx[std::string(step) + "_step"]["peak_bytes"].get<std::int64_t>();
      const double error = static_cast<double>(p.allocator_peak_bytes - measured) / static_cast<double>(measured);
      CAPTURE(name);
      CAPTURE(step);
      CAPTURE(p.allocator_peak_bytes);
      CAPTURE(measured);
      CAPTURE(p.peak_phase);
      CAPTURE(fx[std::string(step) + "_step"]["peak_phase"].get<std::string>());
      CHECK(std::fabs(error) <= 0.01);  // the tolerance; all are within 0.02% today
      // The measured phase is "forward", "backward" or "optimizer_step"; ours names the moment.
      const std::string measured_phase = fx[std::string(step) + "_step"]["peak_phase"];
      const std::string ours = p.peak_phase.find("backward") != std::string::npos ? "backward"
                               : p.peak_phase == "forward_end" ? "forward" : p.peak_phase;
      CHECK(ours == measured_phase);
    }
  }
}

namespace {
// A Llama-style model of 3,426,473,600 parameters: 26 layers, d = 3200, f = 8640, V = 32,000, untied.
// N = 2*V*d + L*(4d^2 + 3df + 2d) + d = 204,800,000 + 26*(40,960,000 + 82,944,000 + 6,400) + 3,200.
const json kLlama34 = {{"layers", 26}, {"hidden", 3200}, {"heads", 32}, {"vocab", 32000}, {"context", 4096},
                       {"mlp_hidden", 8640}, {"mlp", "swiglu"}, {"norm", "rmsnorm"}, {"biases", false},
                       {"tied_head", false}, {"learned_positions", false}};
Scenario llama34(json extra) {
  json j = {{"model", kLlama34}, {"framework", "pytorch"}, {"flash_attention", true}, {"reserve_bytes", 0}};
  j.update(extra);
  return parse_scenario(j);
}
}  // namespace

TEST_CASE("on an H100 (PyTorch 2.11, CUDA) each measured step's start and peak are predicted, 24 of 26 within 1%") {
  // tests/fixtures/pytorch/cuda: 13 runs of the CPU grid measured with torch.cuda.max_memory_allocated.
  const auto fixtures = test_fixtures::pytorch_fixtures("cuda/");
  REQUIRE(fixtures.size() == 13);
  for (const auto& fixture : fixtures) {
    const std::string& name = fixture.first;
    const json& fx = fixture.second;
    for (const char* step : {"first", "steady"}) {
      json j = fx["scenario"];
      j["step"] = step;
      const Scenario s = parse_scenario(j);
      const StepPhases p = phases_of(s);
      const json& m = fx[std::string(step) + "_step"];
      const auto peak = m["peak_bytes"].get<std::int64_t>(), start = m["start_bytes"].get<std::int64_t>();
      const std::string step_name = step;
      CAPTURE(name);
      CAPTURE(step_name);
      CAPTURE(p.allocator_peak_bytes);
      CAPTURE(peak);
      // The first step's start: the 65 MiB of cuBLAS workspaces, the buffers, the parameters and the
      // token ids; the measured one is higher only by the allocator's 512-byte rounding of each tensor
      // (0 to 4,096 B here). (A steady step's start is measured before zero_grad frees the gradients.)
      const std::int64_t ours_start = p.timeline.front().total();
      if (step_name == "first") {
        CHECK(ours_start <= start);
        CHECK(start - ours_start <= 4096);
      }
      const double error = static_cast<double>(p.allocator_peak_bytes - peak) / static_cast<double>(peak);
      if (name.rfind("13-", 0) == 0) {
        // The known gap (core/memory/README.md): Hugging Face-style explicit attention under CUDA
        // autocast at s = 512 holds one more FP32 score-sized tensor (8 MiB) in backward than modelled
        // (+ 1,504 B of the allocator's 512-byte rounding, e.g. RoPE's 64-byte inv_freq takes 512).
        CHECK(peak - p.allocator_peak_bytes == 8 * 1024 * 1024 + 1504);
        CHECK(error < -0.06);
        CHECK(error > -0.07);
      } else {
        CHECK(std::fabs(error) <= 0.01);  // the tolerance; all 24 are within 0.025% today
      }
      // The measured phase is "forward", "backward" or "optimizer_step"; ours names the moment.
      const std::string ours = p.peak_phase.find("backward") != std::string::npos ? "backward"
                               : p.peak_phase == "forward_end" ? "forward" : p.peak_phase;
      CHECK(ours == m["peak_phase"].get<std::string>());
    }
  }
}

TEST_CASE("the cuBLAS workspaces follow the GPU generation and the step mode; CPU counts none") {
  const auto with = [](json extra) {
    json j = {{"model", kLlama34}, {"framework", "pytorch"}, {"reserve_bytes", 0}, {"seq_len", 512}};
    j.update(extra);
    return parse_scenario(j);
  };
  const std::int64_t MiB = 1024 * 1024;
  // Hopper: 32 MiB a handle (the forward's thread and autograd's), plus cuBLASLt's 1 MiB.
  CHECK(cuda_workspace_bytes(with({{"device", "h100-sxm-80gb"}})) == 65 * MiB);
  CHECK(cuda_workspace_bytes(with({{"device", "h100-sxm-80gb"}, {"mode", "inference"}})) == 33 * MiB);
  // Older GPUs: PyTorch's ":4096:2:16:8" default, 8 MiB + 128 KiB a handle.
  CHECK(cuda_workspace_bytes(with({{"device", "a100-sxm4-80gb"}})) == 2 * (8 * MiB + 128 * 1024) + MiB);
  CHECK(cuda_workspace_bytes(with({{"device", "h100-sxm-80gb"}, {"pytorch_build", "cpu-1.13"}, {"flash_attention", false}})) == 0);
  const StepPhases p = phases_of(with({{"device", "h100-sxm-80gb"}}));
  for (const auto& t : p.timeline) CHECK(t.cuda_workspace == 65 * MiB);
}

TEST_CASE("each code style's registered buffers are what its real code registers (CUDA), none counted on CPU") {
  const auto with = [](json model, json extra) {
    json j = {{"model", model}, {"framework", "pytorch"}, {"reserve_bytes", 0}, {"seq_len", 512}, {"device", "h100-sxm-80gb"}};
    j.update(extra);
    return parse_scenario(j);
  };
  // nanoGPT: its `bias` mask, FP32 ctx x ctx per block, registered only when it cannot use flash.
  const json gpt2 = {{"base", "gpt2-small"}};
  CHECK(model_buffer_bytes(with(gpt2, {{"flash_attention", false}})) == 12LL * 4 * 1024 * 1024);
  CHECK(model_buffer_bytes(with(gpt2, {{"flash_attention", true}})) == 0);
  // Hugging Face's Llama: one rotary embedding per model holding inv_freq (head dim / 2, FP32), with or
  // without flash. A 32-layer Llama at 4,096 context holds 256 B, not 32 masks of 64 MiB (2 GiB).
  const json llama = {{"layers", 32}, {"hidden", 4096}, {"heads", 32}, {"vocab", 32000}, {"context", 4096},
                      {"mlp_hidden", 11008}, {"mlp", "swiglu"}, {"norm", "rmsnorm"}, {"biases", false},
                      {"tied_head", false}, {"learned_positions", false}};
  for (bool flash : {false, true}) CHECK(model_buffer_bytes(with(llama, {{"flash_attention", flash}})) == 64 * 4);
  CHECK(model_buffer_bytes(with(llama, {{"precision", "bf16"}})) == 64 * 2);  // model.to(dtype) casts it
  // From scratch (the course's code): a bool mask and cos/sin tables (ctx x head dim / 2) per block.
  CHECK(model_buffer_bytes(with(llama, {{"flash_attention", false}, {"pytorch_implementation", "from_scratch"}})) ==
        32LL * (4096LL * 4096 + 2 * 4 * 4096 * 64));
  CHECK(model_buffer_bytes(with(llama, {{"pytorch_build", "cpu-1.13"}, {"flash_attention", false}})) == 0);
}

TEST_CASE("a 3.4B Llama-style model in FP32 with foreach AdamW peaks at the optimizer step, 20 bytes per parameter") {
  // Steady step: parameters 4 + gradients 4 + Adam's m, v 8 + foreach's sqrt(v) list 4 = 20 B/param
  // = 68,529,472,000 B, plus the logits the loop keeps (4*b*s*V) and the int64 ids and targets (16*b*s).
  for (std::int64_t seq : {512, 1024, 2048}) {
    CAPTURE(seq);
    const Scenario s = llama34({{"seq_len", seq}});
    const StepPhases p = phases_of(s);
    CHECK(p.peak_phase == "optimizer_step");
    // On CUDA (the default build) also the cuBLAS workspaces and the model's buffers, held all run.
    CHECK(p.allocator_peak_bytes ==
          20 * 3'426'473'600LL + 4 * seq * 32000 + 16 * seq + cuda_workspace_bytes(s) + model_buffer_bytes(s));
  }
  // So the peak barely moves with the sequence length, while the textbook sum grows with it.
  const auto peak = [](std::int64_t seq) { return phases_of(llama34({{"seq_len", seq}})).allocator_peak_bytes; };
  CHECK(static_cast<double>(peak(2048)) / static_cast<double>(peak(512)) < 1.01);
}

TEST_CASE("the first step has no optimizer state until optimizer.step() creates it") {
  const StepPhases first = phases_of(llama34({{"seq_len", 1024}, {"step", "first"}}));
  const StepPhases steady = phases_of(llama34({{"seq_len", 1024}}));
  const std::int64_t adam = 8 * 3'426'473'600LL;
  CHECK(phase(first, "forward_end")->optimizer_state == 0);
  CHECK(phase(first, "optimizer_step")->optimizer_state == adam);
  CHECK(phase(steady, "forward_end")->optimizer_state == adam);
  CHECK(phase(first, "loss_backward")->total() + adam == phase(steady, "loss_backward")->total());
}

TEST_CASE("zero_grad set_to_none frees the gradients before the forward; zero keeps them allocated") {
  const StepPhases none = phases_of(llama34({{"seq_len", 1024}}));
  const StepPhases zero = phases_of(llama34({{"seq_len", 1024}, {"zero_grad", "zero"}}));
  const std::int64_t grads = 4 * 3'426'473'600LL;
  CHECK(phase(none, "start")->gradients == 0);
  CHECK(phase(zero, "start")->gradients == grads);
  CHECK(phase(zero, "forward_end")->total() == phase(none, "forward_end")->total() + grads);
  CHECK(phase(zero, "optimizer_step")->total() == phase(none, "optimizer_step")->total());
}

TEST_CASE("Adam's temporaries: two of a tensor beside the previous one's per parameter, the whole model with foreach, none fused") {
  const std::int64_t largest = 4 * 32000 * 3200LL;  // the embedding and the head, 409,600,000 B
  // Per parameter: the head's sqrt and denom while the final norm's denom (3,200 FP32) is still bound.
  CHECK(phases_of(llama34({{"optimizer_impl", "per_parameter"}})).optimizer_temporary_bytes == 2 * largest + 4 * 3200);
  CHECK(phases_of(llama34({{"optimizer_impl", "foreach"}})).optimizer_temporary_bytes == 4 * 3'426'473'600LL);
  CHECK(phases_of(llama34({{"optimizer_impl", "fused"}})).optimizer_temporary_bytes == 0);
  CHECK(phases_of(llama34({{"optimizer", "sgd"}})).optimizer_temporary_bytes == 0);
}

TEST_CASE("autocast does not shrink this model's peak: FP32 parameters and state, plus 16-bit weight copies") {
  const std::int64_t fp32 = phases_of(llama34({{"seq_len", 2048}})).allocator_peak_bytes;
  const StepPhases ac = phases_of(llama34({{"seq_len", 2048}, {"precision", "autocast_bf16"}}));
  // The optimizer step holds the same 20 B/param; only the kept logits are 16-bit (2*s*V less).
  CHECK(ac.peak_phase == "optimizer_step");
  CHECK(ac.allocator_peak_bytes == fp32 - 2 * 2048 * 32000);
  // Every matmul weight (all but the input embedding and the norms) has a 16-bit copy in the forward.
  CHECK(phase(ac, "forward_end")->autocast_cache == 2 * (3'426'473'600LL - 32000 * 3200LL - 26 * 2 * 3200 - 3200));
}

TEST_CASE("forward_with_grad peaks at the end of the forward; inference saves nothing and holds no gradients") {
  const StepPhases fwd = phases_of(llama34({{"seq_len", 1024}, {"mode", "forward_with_grad"}}));
  CHECK(fwd.peak_phase == "forward_end");
  CHECK(phase(fwd, "forward_end")->optimizer_state == 0);
  const StepPhases inf = phases_of(llama34({{"seq_len", 1024}, {"mode", "inference"}}));
  for (const auto& t : inf.timeline) {
    CHECK(t.activations == 0);
    CHECK(t.gradients == 0);
    CHECK(t.optimizer_state == 0);
  }
  CHECK(inf.allocator_peak_bytes < fwd.allocator_peak_bytes);
}

namespace {
// 1%, except the forward-pass gaps known today (core/memory/README.md, "Known gaps"), each bounded by
// its error now so that a change making it worse fails: CPU's 16-bit matmul workspaces (pure BF16
// and autocast no_grad forwards, the from-scratch BF16 forward).
double forward_tolerance(const std::string& name, const std::string& mode) {
  const std::vector<std::pair<std::string, double>> gaps = {
      {"24-scratch inference", 0.055}, {"32-scratch forward_with_grad", 0.025}, {"32-scratch inference", 0.025},
      {"26-scratch inference", 0.02}, {"33-llama inference", 0.016},
      {"35-scratch inference", 0.017}, {"42-scratch inference", 0.025}};
  for (const auto& g : gaps)
    if (name.rfind(g.first.substr(0, g.first.find(' ')), 0) == 0 && mode == g.first.substr(g.first.find(' ') + 1)) return g.second;
  return 0.01;
}
}  // namespace

TEST_CASE("every measured forward pass's peak is predicted within 1%, recording the graph and under no_grad") {
  const auto fixtures = test_fixtures::pytorch_fixtures();
  REQUIRE(fixtures.size() >= 10);
  for (const auto& fixture : fixtures) {
    const std::string& name = fixture.first;
    for (const char* mode : {"forward_with_grad", "inference"}) {
      json j = fixture.second["scenario"];
      j["mode"] = mode;
      const StepPhases p = phases_of(parse_scenario(j));
      const auto measured = fixture.second[mode]["peak_bytes"].get<std::int64_t>();
      const double error = static_cast<double>(p.allocator_peak_bytes - measured) / static_cast<double>(measured);
      CAPTURE(name);
      CAPTURE(mode);
      CAPTURE(p.allocator_peak_bytes);
      CAPTURE(measured);
      CAPTURE(p.peak_phase);
      CHECK(std::fabs(error) <= forward_tolerance(name, mode));
    }
  }
}

TEST_CASE("with SDPA the attention phases hold no s^2 tensors; without it, two score-sized gradients") {
  // GPT-2 small, b = 2, s = 1024, FP32: sbh = 1,572,864; a*s^2*b = 25,165,824.
  const json base = {{"framework", "pytorch"}, {"model", "gpt2-small"}, {"batch_size", 2}, {"seq_len", 1024}};
  json flash = base;
  flash["flash_attention"] = true;
  const StepPhases with = phases_of(parse_scenario(flash)), without = phases_of(parse_scenario(base));
  const std::int64_t sbh = 1'572'864, scores = 25'165'824;
  // Residual-stream gradient + v's gradient + (SDPA: dq, dk, dv, d(out) + the FP32 dq accumulator).
  CHECK(phase(with, "backward.layer.0.attention")->transient == 4 * sbh + 4 * sbh + 4 * 4 * sbh + 4 * sbh);
  CHECK(phase(without, "backward.layer.0.attention")->transient == 4 * sbh + 4 * sbh + 2 * 4 * scores);
}

TEST_CASE("under autocast the loss's forward holds one more logits-sized tensor: FP32 on CPU 1.13, 16-bit on CUDA") {
  const json base = {{"framework", "pytorch"}, {"model", "gpt2-small"}, {"batch_size", 1}, {"seq_len", 256}};
  json ac = base;
  ac["precision"] = "autocast_bf16";
  CHECK(phase(phases_of(parse_scenario(base)), "loss_forward") == nullptr);
  const StepPhases p = phases_of(parse_scenario(ac));
  // CUDA (measured on an H100): 2*b*s*V (log_softmax with dtype=float32 reads the 16-bit logits),
  // 4*s*b*h for the final norm's FP32 output still bound in forward().
  CHECK(phase(p, "loss_forward")->transient == 2LL * 256 * 50257 + 4LL * 256 * 768);
  CHECK(phase(p, "loss_forward")->logits == 2LL * 256 * 50257);  // the head's 16-bit output
  // CPU 1.13: cross_entropy on an FP32 copy of the logits, 4*b*s*V.
  json cpu = ac;
  cpu["pytorch_build"] = "cpu-1.13";
  cpu["flash_attention"] = false;
  CHECK(phase(phases_of(parse_scenario(cpu)), "loss_forward")->transient == 4LL * 256 * 50257 + 4LL * 256 * 768);
}

TEST_CASE("pytorch_implementation defaults by the model, is echoed, and is refused outside framework pytorch") {
  const Scenario gpt2 = parse_scenario({{"framework", "pytorch"}, {"model", "gpt2-small"}});
  CHECK(gpt2.framework.implementation == PytorchImplementation::nanogpt);
  const Scenario llama = llama34(json::object());
  CHECK(llama.framework.implementation == PytorchImplementation::hf_llama);
  const json echo = scenario_to_json(llama34({{"pytorch_implementation", "from_scratch"}, {"flash_attention", false}}));
  CHECK(echo["pytorch_implementation"] == "from_scratch");
  CHECK(echo["autocast_scope"] == "forward");
  const auto error_field = [](const json& j) {
    try { parse_scenario(j); } catch (const InputError& e) { return e.field; }
    return std::string("none");
  };
  CHECK(error_field({{"model", "gpt2-small"}, {"pytorch_implementation", "nanogpt"}}) == "pytorch_implementation");
  CHECK(error_field({{"model", "gpt2-small"}, {"autocast_scope", "step"}}) == "autocast_scope");
  CHECK(error_field({{"framework", "pytorch"}, {"model", "gpt2-small"}, {"pytorch_implementation", "from_scratch"}}) == "pytorch_implementation");
  CHECK(error_field({{"framework", "pytorch"}, {"model", "gpt2-small"}, {"pytorch_implementation", "hf_llama"}}) == "pytorch_implementation");
  CHECK(error_field({{"framework", "pytorch"}, {"model", kLlama34}, {"flash_attention", true}, {"pytorch_implementation", "from_scratch"}}) == "pytorch_implementation");
  CHECK(error_field({{"framework", "pytorch"}, {"model", "gpt2-small"}, {"pytorch_implementation", "keras"}}) == "pytorch_implementation");
  // The per-projection flags decide, not the shorthand (a walk: the field editor sends biases true with
  // all four off, and from scratch was refused with "no biases"); one projection's bias is refused.
  json unbiased = kLlama34;
  unbiased["biases"] = true;
  for (const char* k : {"qkv_bias", "attn_out_bias", "mlp_bias", "norm_bias"}) unbiased[k] = false;
  CHECK(error_field({{"framework", "pytorch"}, {"model", unbiased}, {"pytorch_implementation", "from_scratch"}}) == "none");
  unbiased["qkv_bias"] = true;
  CHECK(error_field({{"framework", "pytorch"}, {"model", unbiased}, {"pytorch_implementation", "from_scratch"}}) == "pytorch_implementation");
}

TEST_CASE("from scratch the loss saves the kept logits: the timeline counts them once, and its backward holds three") {
  // 3.4B Llama-style, b = 1, s = 2048, FP32, hand-written attention: b*s*V*4 = 262,144,000 B of logits.
  const Scenario s = llama34({{"seq_len", 2048}, {"flash_attention", false}, {"pytorch_implementation", "from_scratch"}});
  const EagerActivations e = eager_activations(s);
  const std::int64_t logits = 4LL * 2048 * 32000;
  CHECK(e.loss_saves_logits_bytes == logits);
  const StepPhases p = step_phases(s, e);
  const PhaseBytes* fe = phase(p, "forward_end");
  CHECK(fe->logits == logits);
  CHECK(fe->activations == e.saved_bytes - 2 * 8 * 2048 - logits);
  CHECK(phase(p, "loss_backward")->transient == 3 * logits + 2 * 4 * 2048);
}

TEST_CASE("autocast around the whole step keeps every weight copy until optimizer.step() ends, and says so") {
  const json ac = {{"seq_len", 512}, {"precision", "autocast_bf16"}, {"batch_size", 1}};
  json step = ac;
  step["autocast_scope"] = "step";
  const StepPhases fwd = phases_of(llama34(ac)), whole = phases_of(llama34(step));
  const EagerActivations e = eager_activations(llama34(ac));
  CHECK(phase(fwd, "optimizer_step")->autocast_cache == 0);
  CHECK(phase(whole, "optimizer_step")->autocast_cache == e.weight_cache_bytes);
  // The optimizer step is this model's peak: 2 bytes per matmul weight higher with the region open.
  CHECK(whole.peak_phase == "optimizer_step");
  CHECK(whole.allocator_peak_bytes == fwd.allocator_peak_bytes + e.weight_cache_bytes);
  CHECK(whole.cache_at_peak == "cache");
  CHECK(fwd.cache_at_peak == "none");
  CHECK(phases_of(llama34({{"seq_len", 512}})).cache_at_peak == "none");
}

TEST_CASE("GQA in eager PyTorch: K and V are repeated for every query head, so the saved activations do not shrink") {
  // Llama-style 3.4B with 8 K/V heads instead of 32, b = 1, s = 1024, hand-written attention: the
  // k and v projections shrink (d x d/4 each), the matmuls save the repeated, query-wide copies.
  json gqa = kLlama34;
  gqa["kv_heads"] = 8;
  const json run = {{"framework", "pytorch"}, {"seq_len", 1024}, {"flash_attention", false}, {"reserve_bytes", 0}};
  for (const char* style : {"hf_llama", "from_scratch"}) {
    CAPTURE(style);
    json a = run, b = run;
    a["model"] = kLlama34;
    b["model"] = gqa;
    a["pytorch_implementation"] = b["pytorch_implementation"] = style;
    const EagerActivations mha = eager_activations(parse_scenario(a)), grouped = eager_activations(parse_scenario(b));
    for (const char* op : {"layer.attn.scores", "layer.attn.av", "layer.attn.proj"}) {
      std::int64_t x = 0, y = 0;
      for (const auto& i : mha.per_layer) if (i.op == op) x = i.bytes;
      for (const auto& i : grouped.per_layer) if (i.op == op) y = i.bytes;
      CHECK(x == y);
      CHECK(x > 0);
    }
    // From scratch, repeat_interleave also saves its index: 32 int64 entries for K and for V.
    CHECK(grouped.per_layer_bytes - mha.per_layer_bytes == (std::string(style) == "from_scratch" ? 2 * 8 * 32 : 0));
  }
  // nanoGPT's fused q/k/v has no grouped heads: refused, naming the field.
  json gpt2 = {{"layers", 2}, {"hidden", 64}, {"heads", 4}, {"kv_heads", 2}, {"vocab", 100}, {"context", 64}};
  CHECK_THROWS_AS(parse_scenario({{"framework", "pytorch"}, {"model", gpt2}}), InputError);
}
