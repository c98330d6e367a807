// The reference engine behind the JSON facade. train(): one request → a whole run → one JSON
// document. TrainSession: the same run in pieces for a Web Worker — construct, step(n) a few steps
// at a time (report progress, stop whenever: cancelling is just not calling step again and
// deleting the session), report(). Neither throws; errors come back as {"error": {field, message}}.
// Request and response format: core/facade/README.md. Engine: core/refengine/.
#pragma once
#include <memory>
#include <string>
#include <nlohmann/json.hpp>
#include "refengine/clock.hpp"

namespace lab::facade {

nlohmann::json train_json(const nlohmann::json& request);  // also declared in facade.hpp

class TrainSession {
 public:
  explicit TrainSession(const std::string& request_json);  // parses, checks limits, allocates, initialises
  // The same, timing with `clock` instead of the steady clock (tests give it a coarse one).
  TrainSession(const std::string& request_json, ref::Clock clock);
  ~TrainSession();
  TrainSession(const TrainSession&) = delete;
  TrainSession& operator=(const TrainSession&) = delete;

  // {"ok": true, "prediction": {...}, "request": {...}} or the request's error.
  std::string status() const;
  // Runs up to `steps` more steps (never past the request's "steps"; a call is also capped so one
  // call stays short) and returns {"steps_done", "steps_total", "done", "losses": [new ones], ...}.
  std::string step(int steps);
  // The full response document for the steps run so far (the same shape train() returns).
  std::string report() const;

  // JSON values of the same (for C++ callers and tests).
  nlohmann::json status_json() const;
  nlohmann::json step_json(int steps);
  nlohmann::json report_json() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  friend nlohmann::json train_json(const nlohmann::json& request);
};

}  // namespace lab::facade
