// A whole file as bytes, for test benches (images, golden sets): host_sw's reader, whose
// errors name the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/input_file.hpp"

namespace mt::tb {

inline std::vector<uint8_t> read_bytes(const std::string& path) {
  const std::string s = read_input_file(path);
  return {s.begin(), s.end()};
}

}  // namespace mt::tb
