// Simulated all-reduces kept on disk (mttrain --sim-cache DIR), so that runs which need the same
// all-reduce (the same network, algorithm, options and size: the models of a sweep share layer
// sizes) simulate it once. An entry is the simulation's JSON, as the child that ran it returned
// it, under a key made of
//   - the text of every option that reaches the simulation and the bytes of the files they
//     name (the caller's, canonical), and
//   - the tool binary itself (the FNV-1a hash of its bytes): a rebuilt tool never reads the
//     cycles of another build.
// The file is named by the hash of the whole key and holds the key's text, which a lookup
// compares in full: a hash collision is a miss, never another simulation's cycles. Entries are
// written atomically (mt::write_file), so runs sharing the directory at once see whole entries
// or none. Only verified simulations are stored (AllReduceTimes checks first).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace mt::training {

class SimulationCache {
 public:
  // `dir`: created if missing (mt::InputError if it cannot be, or is not a directory).
  // `options`: the options' canonical text. `binary`: the identity of the tool, by default
  // the FNV-1a hash of /proc/self/exe.
  SimulationCache(std::string dir, std::string options, std::string binary = tool_identity());

  // The stored JSON of the all-reduce of `bytes`, or none. An entry that cannot be read or
  // parsed, or whose key differs, is a miss; `why` (if given) then says what was wrong with
  // it (empty when there is no entry at all).
  std::optional<std::string> load(uint64_t bytes, std::string* why = nullptr) const;
  // Stores `json` as the all-reduce of `bytes` (replacing any entry of that key).
  // mt::InputError if it cannot be written.
  void store(uint64_t bytes, const std::string& json) const;

  // The file an entry of `bytes` lives in.
  std::string path(uint64_t bytes) const;

  // "fnv1a64:<hex>" of a file's bytes (std::runtime_error if it cannot be read), and of the
  // running executable's.
  static std::string file_identity(const std::string& path);
  static std::string tool_identity() { return file_identity("/proc/self/exe"); }

 private:
  std::string key(uint64_t bytes) const;

  std::string dir_, options_, binary_;
};

// The 64-bit FNV-1a hash of `data`, continuing from `h` (a new hash: the offset basis).
constexpr uint64_t kFnv1a64Basis = 0xcbf29ce484222325ull;
uint64_t fnv1a64(const void* data, size_t len, uint64_t h = kFnv1a64Basis);

}  // namespace mt::training
