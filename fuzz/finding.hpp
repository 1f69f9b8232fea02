// How the fuzz targets judge a run: an InputError is the expected answer to bad input;
// anything else (another exception, a broken invariant) is a finding, which aborts so that
// libFuzzer (or fuzz_replay) records the input.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt::fuzz {

[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "FUZZ FINDING: %s\n", what.c_str());
  std::abort();
}

// Runs `f`: true when it returns, false when it rejects its input with InputError.
template <typename F>
bool accepts(F&& f) {
  try {
    f();
    return true;
  } catch (const InputError&) {
    return false;
  } catch (const std::exception& e) {
    finding(fmt::format("exception other than InputError: {}", e.what()));
  }
}

}  // namespace mt::fuzz
