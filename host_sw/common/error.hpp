// Error types shared by the host library. Bad input (a malformed topology, a broken plan, a
// corrupt image) is an InputError: tools report it and exit 1. Anything else is a bug (exit 2).
#pragma once

#include <stdexcept>
#include <string>

namespace mt {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace mt
