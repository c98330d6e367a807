// A small streaming JSON writer for facade results. Building nlohmann::json trees and dumping them
// cost ~45 µs per evaluate; appending to one string costs a few µs. Doubles are written with 15
// significant digits (format_number, core/facade/json_number.cpp); non-finite doubles as null.
#pragma once
#include <charconv>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <nlohmann/json.hpp>

namespace lab {

// x in JSON number syntax with at most 15 significant digits ("0.4", "0.000035", "3.5e-7",
// "1.25e+20"); "null" for non-finite x. Writes at most 24 chars; returns the length.
std::size_t format_number(char* out, double x);

class JsonWriter {
 public:
  JsonWriter() { out_.resize(kInitialCapacity); }
  JsonWriter& begin_object() { open('{'); return *this; }
  JsonWriter& end_object() { close('}'); return *this; }
  JsonWriter& begin_array() { open('['); return *this; }
  JsonWriter& end_array() { close(']'); return *this; }
  // Keys are the engine's own literals, written without escaping; the length is known at compile
  // time, so the copy is inlined (a call to memcpy per key showed in evaluate's WASM profile).
  template <std::size_t N>
  JsonWriter& key(const char (&k)[N]) {
    comma();
    reserve(N + 3);
    char* d = &out_[len_];
    d[0] = '"';
    std::memcpy(d + 1, k, N - 1);
    d[N] = '"';
    d[N + 1] = ':';
    len_ += N + 2;
    after_key_ = true;
    return *this;
  }
  // A key chosen at run time (still the engine's own text).
  JsonWriter& key_dynamic(const char* k) {
    comma();
    put('"');
    put(k, std::strlen(k));
    put("\":", 2);
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(std::int64_t v) {
    comma();
    reserve(24);
    char* d = &out_[len_];
    len_ += static_cast<std::size_t>(std::to_chars(d, d + 24, v).ptr - d);
    return *this;
  }
  JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
  JsonWriter& value(bool v) { comma(); v ? put("true", 4) : put("false", 5); return *this; }
  JsonWriter& value(double v) {
    comma();
    reserve(32);
    len_ += format_number(&out_[len_], v);
    return *this;
  }
  // std::string values may carry user text (custom model/device names): escaped.
  JsonWriter& value(const std::string& v) { comma(); string_literal(v.data(), v.size()); return *this; }
  // const char* values are the engine's static text (enum names, provenance): written as they are.
  // Never pass user-controlled text as const char*; pass a std::string.
  JsonWriter& value(const char* v) {
    comma();
    put('"');
    put(v, std::strlen(v));
    put('"');
    return *this;
  }
  JsonWriter& null() { comma(); put("null", 4); return *this; }
  // Shorthand for key + value.
  template <std::size_t N, typename T>
  JsonWriter& field(const char (&k)[N], const T& v) { key(k); return value(v); }
  template <typename T>
  JsonWriter& field_dynamic(const char* k, const T& v) { key_dynamic(k); return value(v); }
  JsonWriter& raw_field(const char* k, const std::string& json_text) {
    key_dynamic(k);
    comma();
    put(json_text.data(), json_text.size());
    return *this;
  }

  std::string str() const { return out_.substr(0, len_); }
  // The text, without a copy; the writer is left empty.
  std::string take() {
    out_.resize(len_);
    len_ = 0;
    return std::move(out_);
  }

 private:
  // The string is sized ahead and written through a length counter: libc++'s push_back/append are
  // out-of-line calls per write in WASM and dominated evaluate's profile; take() hands the string
  // over without the copy a separate buffer would need.
  void reserve(std::size_t n) {
    if (len_ + n <= out_.size()) return;
    std::size_t cap = out_.size() * 2;
    while (cap < len_ + n) cap *= 2;
    out_.resize(cap);
  }
  void put(char c) { reserve(1); out_[len_++] = c; }
  void put(const char* s, std::size_t n) { reserve(n); std::memcpy(&out_[len_], s, n); len_ += n; }
  void comma() {
    if (after_key_) { after_key_ = false; return; }
    if (depth_ > 0) {
      if (!first_[depth_ - 1]) put(',');
      first_[depth_ - 1] = false;
    }
  }
  void open(char c) {
    comma();
    put(c);
    if (depth_ == kMaxDepth) throw std::length_error("JsonWriter: nesting deeper than 64");
    first_[depth_++] = true;
  }
  void close(char c) { put(c); --depth_; }
  void string_literal(const char* s, std::size_t n) {
    reserve(n + 2);
    put('"');
    std::size_t run = 0;  // start of the current run of characters that need no escaping
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned char ch = static_cast<unsigned char>(s[i]);
      if (ch >= 0x20 && ch != '"' && ch != '\\') continue;
      put(s + run, i - run);
      run = i + 1;
      switch (ch) {
        case '"': put("\\\"", 2); break;
        case '\\': put("\\\\", 2); break;
        case '\n': put("\\n", 2); break;
        case '\r': put("\\r", 2); break;
        case '\t': put("\\t", 2); break;
        default: {
          static const char* hex = "0123456789abcdef";
          const char esc[6] = {'\\', 'u', '0', '0', hex[ch >> 4], hex[ch & 15]};
          put(esc, 6);
        }
      }
    }
    put(s + run, n - run);
    put('"');
  }
  static constexpr int kMaxDepth = 64;
  static constexpr std::size_t kInitialCapacity = 8192;  // evaluate writes ~7 KB: no regrowth
  std::string out_;
  std::size_t len_ = 0;
  bool first_[kMaxDepth] = {};
  int depth_ = 0;
  bool after_key_ = false;
};

}  // namespace lab
