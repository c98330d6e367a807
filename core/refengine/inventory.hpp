// The exact inventory: THE table of every tensor the reference engine allocates — name, category,
// shape, storage type, bytes, and the phases of one training step in which it is born and dies.
// The engine sizes every buffer from it (arena.hpp); predict_memory() turns it, and nothing else,
// into per-category bytes, the peak and the live-bytes timeline that the ledger shows.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>
#include "refengine/config.hpp"

namespace lab::ref {

enum class Category : std::uint8_t {
  weights, master_weights, gradients, optimizer_momentum, optimizer_adam_m, optimizer_adam_v,
  activations, transient, logits, inputs
};
inline constexpr std::size_t kCategoryCount = 10;
const char* category_name(Category c);  // "weights", ..., "optimizer:adam_m", ...
using CategoryBytes = std::array<std::int64_t, kCategoryCount>;
std::int64_t total(const CategoryBytes& b);

inline constexpr int kPersistent = -1;  // `dies` of a tensor that lives as long as the session

struct TensorSpec {
  std::string name;
  Category category = Category::transient;
  std::vector<std::int64_t> shape;
  DType dtype = DType::f32;
  std::int64_t numel = 0, bytes = 0;
  int born = 0;             // phase index; 0 = "init" (allocated once, when the session starts)
  int dies = kPersistent;   // phase index at whose end it is freed
};

enum class ParamInit { normal, normal_residual, zeros, ones };
struct ParamSpec {
  std::string name;                  // e.g. "L0.attn.qkv.w"
  std::vector<std::int64_t> shape;   // (in, out) for matrices
  std::int64_t numel = 0;
  ParamInit init = ParamInit::zeros;
  bool matmul = false;               // counts in the 6·N·tokens FLOP formula
  bool decay = false;                // weight decay applies (matrices and embeddings)
};
// Rows of one parameter's tensors in Inventory::tensors (-1: absent under this config).
struct ParamRows {
  int weights = -1, master = -1, grad = -1, state1 = -1, state2 = -1;
};

struct Inventory {
  RefConfig cfg;
  StorageTypes types{};
  std::vector<std::string> phases;   // phases[0] == "init", then one training step in order
  std::vector<TensorSpec> tensors;
  std::vector<ParamSpec> params;
  std::vector<ParamRows> param_rows;
  std::unordered_map<std::string, int> index;
  int find(const std::string& name) const;  // throws std::logic_error for an unknown name
};

std::vector<ParamSpec> parameter_specs(const RefConfig& cfg);
std::int64_t parameter_count(const RefConfig& cfg);
Inventory build_inventory(const RefConfig& cfg);

// Model FLOPs per step (PaLM App. B / nanoGPT): 6·(matmul weights)·tokens + 12·L·d·T·tokens.
std::int64_t model_flops_per_step(const RefConfig& cfg);
// Matmul FLOPs the engine executes per step: the model FLOPs plus recomputation (selective: Q·Kᵀ
// again in backward; every-k / full: each block's forward again). Attention counts the full T x T
// products (the engine computes them and masks), so with no recomputation this equals the model FLOPs.
std::int64_t executed_flops_per_step(const RefConfig& cfg);

// The live-bytes story of init + one step. Within a phase every allocation precedes every free, so
// a phase's peak is (live at its start + bytes born in it); `live_end` is after its frees.
struct PhaseMemory {
  std::string phase;
  std::int64_t peak_bytes = 0;
  CategoryBytes live_end{};
};
struct MemoryProfile {
  CategoryBytes max_by_category{};  // each category's own maximum over time
  std::int64_t peak_bytes = 0;      // maximum of the total
  std::string peak_phase;           // first phase reaching it
  CategoryBytes at_peak{};          // composition at that moment
  std::vector<PhaseMemory> timeline;
};
MemoryProfile predict_memory(const Inventory& inv);

// Tensor names shared by the inventory and the model: "L3.qkv", "L3.qkv@rec", "x3", "x3@rec".
std::string layer_tensor(std::int64_t layer, const char* what, bool recomputed = false);
std::string residual_tensor(std::int64_t index, bool recomputed = false);

}  // namespace lab::ref
