// A training session of the reference engine: owns the inventory, the tagged arena (parameters,
// gradients, master copy, optimizer state live in it from construction), the loss scaler and the
// step counter. step() = data → forward → backward → optimizer. It is not timed here: the facade's
// session times steps in spans a coarse clock can resolve (step_timer.hpp).
// The facade (facade_train.cpp) turns sessions into JSON; nothing here does I/O.
#pragma once
#include <cstdint>
#include <memory>
#include "refengine/arena.hpp"
#include "refengine/gemm.hpp"
#include "refengine/model.hpp"
#include "refengine/optim.hpp"

namespace lab::ref {

struct StepStats {
  double loss = 0.0;            // mean cross-entropy of the step's batch (nats), before the update
  bool skipped = false;         // non-finite gradients: update skipped (loss scaler backs off)
  double loss_scale = 1.0;      // the scale this step's backward used
  std::int64_t matmul_flops = 0;        // executed, including recomputation
  std::int64_t weights_unchanged = 0;   // compute-copy elements bit-identical after the update
  std::int64_t master_unchanged = 0;    // master elements bit-identical (with a master copy)
};

class Trainer {
 public:
  explicit Trainer(const RefConfig& cfg);
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  StepStats step();
  // Data, forward and backward for batch `batch_step` with loss scale 1, no update: the parameter
  // gradients are left in the ".grad" tensors (gradient checks use this). Returns the loss.
  double compute_gradients(std::int64_t batch_step);

  const RefConfig& config() const { return inv_.cfg; }
  const Inventory& inventory() const { return inv_; }
  MemoryProfile measured() const { return arena_.profile(); }
  Buf tensor(const std::string& name) const { return arena_.get(name); }
  std::int64_t steps_done() const { return steps_; }
  std::int64_t updates_applied() const { return updates_; }
  std::int64_t weight_elements() const { return weight_elements_; }
  std::int64_t matmul_flops_total() const { return kctx_.matmul_flops; }
  double loss_scale() const { return scale_; }

 private:
  double run_forward_backward(std::int64_t batch_step, float scale);
  Inventory inv_;
  Arena arena_;
  KernelCtx kctx_;
  TinyGpt model_;
  OptimizerHyper hyper_;
  std::int64_t steps_ = 0, updates_ = 0, good_steps_ = 0, weight_elements_ = 0;
  double scale_ = 1.0;
};

}  // namespace lab::ref
