// The message of the InputError a call throws, or "no error", for tests of refusals.
#pragma once

#include <functional>
#include <string>

#include "common/error.hpp"

namespace mt::test {

inline std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace mt::test
