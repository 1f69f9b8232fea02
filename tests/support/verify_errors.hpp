// A verifier report's errors, one per indented line, for a test's failure message.
#pragma once

#include <string>

#include "verifier/verifier.hpp"

namespace mt::test {

inline std::string errors_of(const VerifyReport& r) {
  std::string s;
  for (const std::string& e : r.errors) s += "\n  " + e;
  return s;
}

}  // namespace mt::test
