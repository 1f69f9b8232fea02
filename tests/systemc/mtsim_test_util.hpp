// What the tests of the mtsim command and of its hardening share: where the built tools are,
// and a fresh directory per test (support/scratch_dir.hpp).
#pragma once

#include <string>

#include "support/scratch_dir.hpp"

namespace mt::test {

inline const std::string kMtsim = std::string(MT_BIN_DIR) + "/mtsim";
inline const std::string kMtc = MTC_EXE;

}  // namespace mt::test
