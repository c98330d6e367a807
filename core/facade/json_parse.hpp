// Request text → JSON, for every facade entry point: a size limit with its own message, errors that
// give the byte position (empty, truncated, a lone surrogate, bad UTF-8), and duplicate object keys
// refused with the key named (JSON leaves them undefined; the URL parser refuses repeated parameters).
#pragma once
#include <cstddef>
#include <string>
#include <nlohmann/json.hpp>

namespace lab::facade {

inline constexpr std::size_t kRequestMaxBytes = 1u << 24;  // 16 MiB: the largest request is ~20 KB

// Parses `text`; throws lab::InputError (field "" for the text itself, or the dotted path of a
// duplicated key). `what` names the text in messages ("request", "file").
nlohmann::json parse_json_text(const std::string& text, std::size_t max_bytes = kRequestMaxBytes, const char* what = "request");

}  // namespace lab::facade
