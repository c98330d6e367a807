// The facade's JSON boundary (core/facade/json_parse.cpp): byte positions for empty, truncated,
// lone-surrogate and bad-UTF-8 input, a NUL inside a value kept in the message, duplicate keys
// refused with the key named, and a size limit with its own message; in every facade function.
#include <doctest/doctest.h>
#include <string>
#include "facade/facade.hpp"
#include "facade/facade_ledger.hpp"
#include "facade/facade_train.hpp"
#include "facade/json_parse.hpp"

using namespace lab;
using nlohmann::json;

namespace {
json error_of(const std::string& text) {
  const json r = json::parse(facade::evaluate(text));
  REQUIRE(r.contains("error"));
  return r["error"];
}
std::string message_of(const std::string& text) { return error_of(text)["message"].get<std::string>(); }
}  // namespace

TEST_CASE("empty, truncated and lone-surrogate input: the message gives the byte position") {
  CHECK(message_of("") == "malformed JSON at byte 0 of 0: the request is empty");
  CHECK(message_of("  \n") == "malformed JSON at byte 3 of 3: the request is empty (blank space only)");
  const std::string truncated = message_of(R"({"model": "gpt2-xl",)");
  CHECK(truncated.rfind("malformed JSON at byte 20 of 20: ", 0) == 0);
  CHECK(truncated.find("unexpected end of input") != std::string::npos);
  const std::string cut_string = message_of(R"({"model": "gpt2-xl", "batch)");
  CHECK(cut_string.rfind("malformed JSON at byte 27 of 27: ", 0) == 0);
  CHECK(cut_string.find("missing closing quote") != std::string::npos);
  const std::string surrogate = message_of(R"({"model": "\ud800x"})");
  CHECK(surrogate.rfind("malformed JSON at byte ", 0) == 0);
  CHECK(surrogate.find("surrogate") != std::string::npos);
  const std::string utf8 = message_of("{\"model\": \"\xff\"}");
  CHECK(utf8.rfind("malformed JSON at byte 12 of 14: ", 0) == 0);
  CHECK(message_of(R"({"batch_size": NaN})").find("(NaN and Infinity are not JSON)") != std::string::npos);
  CHECK(error_of("{")["field"] == "");
}

TEST_CASE("a NUL inside a value does not cut the message short") {
  const std::string text = std::string(R"({"model": "gpt2)") + std::string("\\u0000") + R"(tail"})";
  const json e = error_of(text);
  CHECK(e["field"] == "model");
  const std::string m = e["message"].get<std::string>();
  CHECK(m.find(std::string("gpt2") + '\0' + "tail") != std::string::npos);
  CHECK(m.back() != '\0');
  // An unknown key holding a NUL is named whole as well.
  const json k = error_of(std::string(R"({"a)") + "\\u0000" + R"(b": 1})");
  CHECK(k["message"].get<std::string>().find(std::string("a") + '\0' + "b") != std::string::npos);
}

TEST_CASE("a raw NUL byte is refused with its position, not read as the end of the input") {
  const std::string text = std::string(R"({"model":"gpt2-xl"})") + std::string(1, '\0') + "garbage{{{";
  CHECK(message_of(text) == "malformed JSON at byte 20 of 30: a NUL byte, which JSON text cannot hold (inside a string write it \\u0000)");
  CHECK(message_of(std::string("{\"model\":\"gpt2") + std::string(1, '\0') + "-xl\"}").rfind("malformed JSON at byte 15 of 20: a NUL byte", 0) == 0);
}

TEST_CASE("duplicate keys are refused with the key and its path named, at any depth") {
  json e = error_of(R"({"batch_size": 1, "batch_size": 64})");
  CHECK(e["field"] == "batch_size");
  CHECK(e["message"] == "duplicate key 'batch_size': each key may appear once in an object");
  e = error_of(R"({"model": {"layers": 2, "hidden": 64, "hidden": 128}})");
  CHECK(e["field"] == "model.hidden");
  e = error_of(R"({"a": [1, {"x": 1}, {"y": 1, "y": 2}]})");
  CHECK(e["field"] == "a[2].y");
  // The same key in sibling objects is not a duplicate.
  CHECK_NOTHROW(facade::parse_json_text(R"({"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 1}, {"x": 2}]})"));
  // In every entry point: solve, train, a training session and the ledger check.
  const char* dup = R"({"steps": 1, "steps": 2})";
  CHECK(json::parse(facade::solve(dup))["error"]["field"] == "steps");
  CHECK(json::parse(facade::train(dup))["error"]["field"] == "steps");
  CHECK(json::parse(facade::TrainSession(dup).status())["error"]["field"] == "steps");
  const json v = json::parse(facade::verify_ledger(R"({"lab_id": "lab08-model-train", "lab_id": "x"})"));
  CHECK(v["status"] == "invalid");
  CHECK(v["error"]["field"] == "lab_id");
  CHECK(v["error"]["message"].get<std::string>().find("duplicate key 'lab_id'") != std::string::npos);
}

TEST_CASE("a request over the size limit gets its own message, naming the limit") {
  const std::string big = "{\"a\": \"" + std::string(facade::kRequestMaxBytes, 'x') + "\"}";
  const json e = error_of(big);
  CHECK(e["field"] == "");
  CHECK(e["message"] == "request too large: " + std::to_string(big.size()) + " bytes; a request is at most 16 MiB (16777216 bytes)");
  const std::string session = "{\"a\": \"" + std::string(1u << 20, 'x') + "\"}";
  CHECK(json::parse(facade::TrainSession(session).status())["error"]["message"].get<std::string>().rfind("request too large: ", 0) == 0);
  // Exactly at the limit is parsed (and then refused for what it holds, not for its size).
  const std::string at = "{\"a\":\"" + std::string(facade::kRequestMaxBytes - 8, 'x') + "\"}";
  REQUIRE(at.size() == facade::kRequestMaxBytes);
  CHECK(error_of(at)["field"] == "a");
}

TEST_CASE("a ledger file that is not JSON keeps the page's words and adds the byte position") {
  const json v = json::parse(facade::verify_ledger(R"({"lab_id": "lab08-model-train",)"));
  CHECK(v["status"] == "invalid");
  CHECK(v["error"]["message"].get<std::string>().rfind("the file is not valid JSON (it may be truncated or not a ledger at all) at byte 31 of 31: ", 0) == 0);
  // Bytes that are not UTF-8 are quoted back as \xNN: the answer is still valid JSON.
  const json bad = json::parse(facade::evaluate("{\"model\": \"\xff\xfe\"}"));
  CHECK(bad["error"]["message"].get<std::string>().find("\\xFF") != std::string::npos);
}
