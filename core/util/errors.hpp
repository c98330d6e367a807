// Structured input errors for the JSON facade: every problem names the field it is about.
// Core code may throw lab::InputError while parsing/validating; the facade's entry points catch it
// (run_guarded in facade.cpp, facade_train.cpp's guarded, verify_ledger's handler), so nothing ever
// throws across the WASM/CLI boundary. The solver also catches it, to read an overflow as "too large".
#pragma once
#include <stdexcept>
#include <string>

namespace lab {

struct InputError : std::runtime_error {
  std::string field;    // dotted path, e.g. "model.hidden" or "batch_size"
  std::string message;  // the whole message: what() stops at a NUL a quoted value may hold
  InputError(std::string field_path, const std::string& text)
      : std::runtime_error(text), field(std::move(field_path)), message(text) {}
};

}  // namespace lab
