// Field readers: integers may be written as 32 or 32.0, never "32"; NaN/Infinity cannot appear in
// JSON, and non-finite or out-of-range numbers get the accepted range in the message.
#include "facade/json_fields.hpp"
#include <cmath>
#include <limits>
#include <sstream>

namespace lab::fields {

std::string join_path(const std::string& prefix, const std::string& key) {
  return prefix.empty() ? key : prefix + "." + key;
}

namespace {
std::string type_name(const json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}
std::string fmt_number(double x) {
  std::ostringstream os;
  os.precision(15);
  os << x;
  return os.str();
}
}  // namespace

void require_object(const json& obj, const std::string& path) {
  if (!obj.is_object())
    throw InputError(path, (path.empty() ? std::string("the request") : "'" + path + "'") +
                               " must be a JSON object, not " + type_name(obj));
}

void reject_unknown(const json& obj, const std::string& path, const std::vector<std::string>& known) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    for (const auto& k : known) ok = ok || k == it.key();
    if (!ok) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw InputError(join_path(path, it.key()), "unknown field '" + it.key() + "'; known fields: " + list);
    }
  }
}

PresentFields::PresentFields(const json& obj, const std::string& path, const std::vector<std::string>& known,
                             const std::vector<std::string>& extra_known) {
  require_object(obj, path);
  items_.reserve(obj.size());
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    for (const auto& k : known) ok = ok || k == it.key();
    for (const auto& k : extra_known) ok = ok || k == it.key();
    if (!ok) {
      std::vector<std::string> all = known;
      all.insert(all.end(), extra_known.begin(), extra_known.end());
      reject_unknown(obj, path, all);  // throws, naming the field and listing the known ones
    }
    items_.emplace_back(&it.key(), &it.value());
  }
}

const json* PresentFields::find(const char* key) const {
  for (const auto& [k, v] : items_)
    if (*k == key) return v;
  return nullptr;
}

std::int64_t to_int(const json& v, const std::string& path, std::int64_t lo, std::int64_t hi) {
  const std::string range = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  if (!v.is_number()) throw InputError(path, "must be " + range + ", not " + type_name(v));
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
    throw InputError(path, "must be " + range + " (got " + v.dump() + ")");
  double as_double = v.get<double>();
  if (v.is_number_float()) {
    if (!std::isfinite(as_double) || std::floor(as_double) != as_double)
      throw InputError(path, "must be " + range + " (got " + v.dump() + ")");
    if (as_double < static_cast<double>(lo) || as_double > static_cast<double>(hi))
      throw InputError(path, "must be " + range + " (got " + v.dump() + ")");
    return static_cast<std::int64_t>(as_double);
  }
  const std::int64_t x = v.get<std::int64_t>();
  if (x < lo || x > hi) throw InputError(path, "must be " + range + " (got " + std::to_string(x) + ")");
  return x;
}

double to_number(const json& v, const std::string& path, double lo, double hi, bool lo_inclusive) {
  const std::string range = std::string("a number ") + (lo_inclusive ? "from " : "greater than ") +
                            fmt_number(lo) + " to " + fmt_number(hi);
  if (!v.is_number()) throw InputError(path, "must be " + range + ", not " + type_name(v));
  const double x = v.get<double>();
  if (!std::isfinite(x) || x > hi || x < lo || (!lo_inclusive && x == lo))
    throw InputError(path, "must be " + range + " (got " + v.dump() + ")");
  return x;
}

bool to_bool(const json& v, const std::string& path) {
  if (!v.is_boolean()) throw InputError(path, "must be true or false, not " + type_name(v));
  return v.get<bool>();
}

std::string to_string_value(const json& v, const std::string& path) {
  if (!v.is_string()) throw InputError(path, "must be a string, not " + type_name(v));
  return v.get<std::string>();
}

std::size_t to_choice(const json& v, const std::string& path, const std::vector<std::string>& choices) {
  std::string list;
  for (const auto& c : choices) list += (list.empty() ? "" : ", ") + ("\"" + c + "\"");
  if (!v.is_string()) throw InputError(path, "must be one of " + list + ", not " + type_name(v));
  const auto s = v.get<std::string>();
  for (std::size_t i = 0; i < choices.size(); ++i)
    if (choices[i] == s) return i;
  throw InputError(path, "'" + s + "' is not one of " + list);
}

}  // namespace lab::fields
