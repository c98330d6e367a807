// JsonWriter output must be valid JSON that nlohmann parses back to the same values.
#include <doctest/doctest.h>
#include <cmath>
#include "facade/json_writer.hpp"

using namespace lab;
using nlohmann::json;

TEST_CASE("JsonWriter round-trips nested objects, arrays, integers, doubles, booleans and strings") {
  JsonWriter w;
  w.begin_object()
      .field("i", std::int64_t{-9'007'199'254'740'993})
      .field("d", 0.1)
      .field("big", 1.557611200e19)
      .field("t", true)
      .field("s", std::string("quote \" backslash \\ newline \n tab \t bell \x07 é"));
  w.key("a").begin_array().value(std::int64_t{1}).begin_object().end_object().begin_array().end_array().end_array();
  w.key("n").null();
  w.end_object();
  const json j = json::parse(w.str());
  CHECK(j["i"].get<std::int64_t>() == -9'007'199'254'740'993);
  CHECK(j["d"].get<double>() == 0.1);
  CHECK(j["big"].get<double>() == 1.557611200e19);
  CHECK(j["t"].get<bool>());
  CHECK(j["s"].get<std::string>() == "quote \" backslash \\ newline \n tab \t bell \x07 é");
  CHECK(j["a"].size() == 3);
  CHECK(j["n"].is_null());
}

TEST_CASE("JsonWriter writes non-finite doubles as null instead of invalid JSON") {
  JsonWriter w;
  w.begin_array().value(std::nan("")).value(INFINITY).value(-INFINITY).end_array();
  CHECK(w.str() == "[null,null,null]");
}
