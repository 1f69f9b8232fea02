// The RTL NI's error codes as text, from the one description of them (format/ni_formats.json,
// errors): the schedule table's refusal code (table_error_cause_o) and the run's error bits
// (error_cause_o), whose texts name the NiConfig bound a run needed more of, as the SystemC
// NI's own errors do.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "ni_formats.hpp"

namespace mt::cosim {

inline std::string table_error_text(uint32_t code) {
  namespace te = format::table_error;
  return code < std::size(te::kText) ? te::kText[code] : fmt::format("unknown code {}", code);
}

// Every cause whose bit is set, "; " between them.
inline std::string run_error_text(uint32_t bits) {
  namespace re = format::run_error;
  std::string s;
  for (uint32_t b = 0; b < re::kBits; ++b) {
    if (((bits >> b) & 1u) == 0) continue;
    s += (s.empty() ? "" : "; ") + std::string(re::kText[b]);
  }
  return s.empty() ? "no cause" : s;
}

}  // namespace mt::cosim
