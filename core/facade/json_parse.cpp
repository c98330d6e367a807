// parse_json_text (json_parse.hpp): nlohmann's parser with a callback that tracks where it is, so a
// repeated key can be named by its path, and its parse_error turned into words with the byte position.
#include "facade/json_parse.hpp"
#include <algorithm>
#include <set>
#include <vector>
#include "util/errors.hpp"

namespace lab::facade {
using nlohmann::json;

namespace {

struct Frame {
  bool array = false;
  std::size_t index = 0;  // arrays: the next element's index + 1 once one started
  std::string key;        // objects: the key being read
  std::set<std::string> keys;
};

std::string path_of(const std::vector<Frame>& frames) {
  std::string p;
  for (const Frame& f : frames) {
    if (f.array) p += "[" + std::to_string(f.index ? f.index - 1 : 0) + "]";
    else if (!f.key.empty() || !f.keys.empty()) p += (p.empty() ? "" : ".") + f.key;
  }
  return p;
}

// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 3: syntax error while
// parsing value - unexpected end of input; ..." → the part after the position.
// Bytes the parser quotes back ("last read: '...'") may be the very bytes that are not UTF-8, or
// control characters: written as \xNN, so the error is valid JSON text whatever the input held.
std::string reason(const json::parse_error& e) {
  const std::string w = e.what();
  const std::size_t colon = w.find(": ", w.find("parse error"));
  std::string out;
  for (const unsigned char c : colon == std::string::npos ? w : w.substr(colon + 2)) {
    if (c >= 0x20 && c < 0x7f) { out += static_cast<char>(c); continue; }
    const char* hex = "0123456789ABCDEF";
    out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
  }
  return out;
}

}  // namespace

json parse_json_text(const std::string& text, std::size_t max_bytes, const char* what) {
  const std::string name = what;
  if (text.size() > max_bytes)
    throw InputError("", name + " too large: " + std::to_string(text.size()) + " bytes; a " + name + " is at most " +
                             std::to_string(max_bytes >> 20) + " MiB (" + std::to_string(max_bytes) + " bytes)");
  // A ledger file keeps the words the page uses for it (ledger-check.js readLedger), with the position.
  const std::string head = name == "file" ? "the file is not valid JSON (it may be truncated or not a ledger at all)" : "malformed JSON";
  const auto at = [&](std::size_t byte) { return head + " at byte " + std::to_string(byte) + " of " + std::to_string(text.size()) + ": "; };
  // A raw NUL byte is never valid JSON (inside a string it must be written \u0000), and nlohmann's lexer
  // takes it for the end of the input, so `{...}\0garbage` would be read as `{...}` (instructor walk).
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
    throw InputError("", at(nul + 1) + "a NUL byte, which JSON text cannot hold (inside a string write it \\u0000)");
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError("", at(text.size()) + "the " + name + " is empty" + (text.empty() ? "" : " (blank space only)"));
  std::vector<Frame> frames;
  const auto element = [&] { if (!frames.empty() && frames.back().array) ++frames.back().index; };
  json::parser_callback_t track = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: element(); frames.push_back({}); break;
      case json::parse_event_t::array_start: element(); frames.push_back(Frame{true, 0, {}, {}}); break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end: if (!frames.empty()) frames.pop_back(); break;
      case json::parse_event_t::value: element(); break;
      case json::parse_event_t::key: {
        Frame& f = frames.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second)
          throw InputError(path_of(frames), "duplicate key '" + f.key + "': each key may appear once in an object");
        break;
      }
    }
    return true;
  };
  try {
    return json::parse(text, track, /*allow_exceptions=*/true);
  } catch (const json::parse_error& e) {
    const std::string hint = text.find("NaN") != std::string::npos || text.find("Infinity") != std::string::npos
                                 ? " (NaN and Infinity are not JSON)" : "";
    throw InputError("", at(std::min(e.byte, text.size())) + reason(e) + hint);  // at the end nlohmann counts one past it
  } catch (const json::out_of_range& e) {
    // 1e400: nlohmann reads the number, then finds it too large for a double ("number overflow
    // parsing '1e400'"); the position is that of its first appearance.
    const std::string w = e.what();
    const std::size_t q = w.find('\'');
    const std::string literal = q == std::string::npos ? "" : w.substr(q + 1, w.rfind('\'') - q - 1);
    const std::size_t pos = literal.empty() ? std::string::npos : text.find(literal);
    throw InputError("", (pos == std::string::npos ? head + ": " : at(pos + 1)) + "a number too large for a double (" +
                             (literal.empty() ? w : literal) + ")");
  }
}

}  // namespace lab::facade
