// A small streaming JSON writer for facade results. Building nlohmann::json trees and dumping them
// cost ~45 µs per evaluate; appending to one string costs a few µs (README: benchmark). Numbers
// use nlohmann's shortest round-trip double formatting; non-finite doubles are written as null.
#pragma once
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

namespace lab {

class JsonWriter {
 public:
  JsonWriter() { out_.reserve(4096); }
  JsonWriter& begin_object() { open('{'); return *this; }
  JsonWriter& end_object() { close('}'); return *this; }
  JsonWriter& begin_array() { open('['); return *this; }
  JsonWriter& end_array() { close(']'); return *this; }
  JsonWriter& key(const char* k) {
    comma();
    string_literal(k, std::strlen(k));
    out_ += ':';
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(std::int64_t v) {
    comma();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
    return *this;
  }
  JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
  JsonWriter& value(bool v) { comma(); out_ += v ? "true" : "false"; return *this; }
  JsonWriter& value(double v) {
    comma();
    if (!(v == v) || v > 1.7976931348623157e308 || v < -1.7976931348623157e308) { out_ += "null"; return *this; }
    char buf[64];
    char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, end);
    return *this;
  }
  JsonWriter& value(const std::string& v) { comma(); string_literal(v.data(), v.size()); return *this; }
  JsonWriter& value(const char* v) { comma(); string_literal(v, std::strlen(v)); return *this; }
  JsonWriter& null() { comma(); out_ += "null"; return *this; }
  // Shorthand for key + value.
  template <typename T>
  JsonWriter& field(const char* k, const T& v) { key(k); return value(v); }
  JsonWriter& raw_field(const char* k, const std::string& json_text) { key(k); comma(); out_ += json_text; return *this; }

  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void comma() {
    if (after_key_) { after_key_ = false; return; }
    if (!first_.empty()) {
      if (!first_.back()) out_ += ',';
      first_.back() = false;
    }
  }
  void open(char c) { comma(); out_ += c; first_.push_back(true); }
  void close(char c) { out_ += c; first_.pop_back(); }
  void string_literal(const char* s, std::size_t n) {
    out_ += '"';
    std::size_t run = 0;  // start of the current run of characters that need no escaping
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned char ch = static_cast<unsigned char>(s[i]);
      if (ch >= 0x20 && ch != '"' && ch != '\\') continue;
      out_.append(s + run, i - run);
      run = i + 1;
      switch (ch) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        default:
          if (ch < 0x20) {
            static const char* hex = "0123456789abcdef";
            out_ += "\\u00";
            out_ += hex[ch >> 4];
            out_ += hex[ch & 15];
          }
      }
    }
    out_.append(s + run, n - run);
    out_ += '"';
  }
  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace lab
