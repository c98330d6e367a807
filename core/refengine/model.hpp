// The tiny GPT-2-style decoder: forward, recomputation and backward of one micro-batch, wired from
// the ops (ops.hpp) with every buffer taken from the tagged arena in the inventory's schedule.
// It does not own parameters or run the optimizer (trainer.hpp does); it knows the checkpointing.
#pragma once
#include <string>
#include "refengine/arena.hpp"
#include "refengine/gemm.hpp"

namespace lab::ref {

class TinyGpt {
 public:
  TinyGpt(const Inventory& inv, Arena& arena, KernelCtx& kctx) : inv_(inv), arena_(arena), k_(kctx) {}
  // Expects "tokens" and "targets" live (phase "data"); leaves the parameter gradients (scaled by
  // loss_scale) in the ".grad" tensors and frees everything else. Returns the mean loss (unscaled).
  double forward_backward(float loss_scale);

 private:
  struct Pass {
    bool rec = false, store = true, save_probs = true;
    std::string xin, xout;
    bool xin_dies = false, xout_dies = false;
  };
  void layer_forward(std::int64_t l, const Pass& p);
  void layer_backward(std::int64_t l, bool rec, bool probs_saved, const std::string& xin);
  void phase(const std::string& name) { arena_.begin_phase(name); }
  Buf get(const std::string& name) { return arena_.get(name); }
  Buf weight(std::int64_t l, const char* w) { return arena_.get(layer_tensor(l, w)); }
  Buf grad(std::int64_t l, const char* w) { return arena_.get(layer_tensor(l, w) + ".grad"); }

  const Inventory& inv_;
  Arena& arena_;
  KernelCtx& k_;
};

}  // namespace lab::ref
