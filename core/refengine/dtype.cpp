// Names of the storage types (the conversions themselves are inline in dtype.hpp).
#include "refengine/dtype.hpp"

namespace lab::ref {

const char* to_string(DType t) {
  switch (t) {
    case DType::f32: return "fp32";
    case DType::f16: return "fp16";
    case DType::bf16: return "bf16";
    case DType::i32: return "int32";
  }
  return "?";
}

}  // namespace lab::ref
