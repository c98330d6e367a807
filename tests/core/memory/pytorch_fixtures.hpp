// Reads tests/fixtures/pytorch (written by scripts/measure-pytorch.py; the manifest lists the files)
// for the eager-activation and step-phase tests. Test-only I/O: the core itself reads no files.
#pragma once
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

namespace test_fixtures {

inline std::string fixture_dir() {
  // __FILE__ is <repo>/tests/core/memory/pytorch_fixtures.hpp (CMake passes absolute paths); a relative
  // path (a compiler run from the repository root) gives the repository-relative directory.
  const std::string here = __FILE__;
  return here.substr(0, here.rfind("tests/core/")) + "tests/fixtures/pytorch/";
}

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f.good()) return nullptr;
  std::stringstream ss;
  ss << f.rdbuf();
  return nlohmann::json::parse(ss.str(), nullptr, false);
}

// (file name, fixture) for every file the manifest lists; empty when the directory is missing.
// sub: "" for the CPU fixtures, "cuda/" for those measured on a GPU.
inline std::vector<std::pair<std::string, nlohmann::json>> pytorch_fixtures(const std::string& sub = "") {
  std::vector<std::pair<std::string, nlohmann::json>> out;
  const std::string dir = fixture_dir() + sub;
  const nlohmann::json manifest = read_json(dir + "manifest.json");
  if (!manifest.is_array()) return out;
  for (const auto& name : manifest) out.emplace_back(name.get<std::string>(), read_json(dir + name.get<std::string>()));
  return out;
}

}  // namespace test_fixtures
