// Typed, range-checked reads of JSON fields; each failure is an InputError naming the field path.
// Shared by every facade parser (scenario, solver requests, training requests).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>
#include "util/errors.hpp"

namespace lab::fields {

using nlohmann::json;

std::string join_path(const std::string& prefix, const std::string& key);
// Error if `obj` is not an object or has a key outside `known`.
void require_object(const json& obj, const std::string& path);
void reject_unknown(const json& obj, const std::string& path, const std::vector<std::string>& known);

// The keys present in a request object, each checked once against the known names (unknown: an
// error naming it); find() then scans only the present keys, with no std::string temporaries
// (nlohmann's contains("literal") builds one per call, which showed in evaluate's profile).
class PresentFields {
 public:
  PresentFields(const json& obj, const std::string& path, const std::vector<std::string>& known,
                const std::vector<std::string>& extra_known = {});
  const json* find(const char* key) const;

 private:
  std::vector<std::pair<const std::string*, const json*>> items_;
};

std::int64_t to_int(const json& v, const std::string& path, std::int64_t lo, std::int64_t hi);
double to_number(const json& v, const std::string& path, double lo, double hi, bool lo_inclusive = true);
bool to_bool(const json& v, const std::string& path);
std::string to_string_value(const json& v, const std::string& path);
// One of `choices` (returns the index).
std::size_t to_choice(const json& v, const std::string& path, const std::vector<std::string>& choices);

}  // namespace lab::fields
