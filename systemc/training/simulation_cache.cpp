#include "training/simulation_cache.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/output_file.hpp"

namespace mt::training {

namespace fs = std::filesystem;

uint64_t fnv1a64(const void* data, size_t len, uint64_t h) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < len; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string SimulationCache::file_identity(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(fmt::format("cannot read {} to identify it", path));
  uint64_t h = kFnv1a64Basis;
  std::vector<char> buf(1 << 20);
  while (f) {
    f.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    h = fnv1a64(buf.data(), static_cast<size_t>(f.gcount()), h);
  }
  return fmt::format("fnv1a64:{:016x}", h);
}

SimulationCache::SimulationCache(std::string dir, std::string options, std::string binary)
    : dir_(std::move(dir)), options_(std::move(options)), binary_(std::move(binary)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (!fs::is_directory(dir_)) {
    throw InputError(fmt::format("--sim-cache {}: not a directory{}", dir_,
                                 ec ? fmt::format(" ({})", ec.message()) : ""));
  }
  if (access(dir_.c_str(), W_OK | X_OK) != 0) {
    throw InputError(fmt::format("--sim-cache {}: cannot write in it", dir_));
  }
}

std::string SimulationCache::key(uint64_t bytes) const {
  return fmt::format("binary {}\nbytes {}\n{}", binary_, bytes, options_);
}

std::string SimulationCache::path(uint64_t bytes) const {
  const std::string k = key(bytes);
  return fmt::format("{}/{:016x}.json", dir_, fnv1a64(k.data(), k.size()));
}

std::optional<std::string> SimulationCache::load(uint64_t bytes, std::string* why) const {
  const std::string file = path(bytes);
  const auto miss = [&](const std::string& reason) -> std::optional<std::string> {
    if (why != nullptr) *why = reason.empty() ? reason : fmt::format("{}: {}", file, reason);
    return std::nullopt;
  };
  std::ifstream f(file);
  if (!f) return miss("");
  std::stringstream text;
  text << f.rdbuf();
  try {
    const nlohmann::json j = nlohmann::json::parse(text.str());
    if (j.at("key").get<std::string>() != key(bytes)) {
      return miss("another simulation's entry (its key differs); simulated again");
    }
    return j.at("result").dump();
  } catch (const nlohmann::json::exception& e) {
    return miss(fmt::format("unreadable entry ({}); simulated again", e.what()));
  }
}

void SimulationCache::store(uint64_t bytes, const std::string& json) const {
  const nlohmann::json entry = {{"key", key(bytes)}, {"result", nlohmann::json::parse(json)}};
  write_file(path(bytes), entry.dump() + "\n", "--sim-cache");
}

}  // namespace mt::training
