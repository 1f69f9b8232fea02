// The network options mtsim and noc-sim share (NocConfig fields), described once.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include <CLI/CLI.hpp>

#include "noc/noc_config.hpp"

namespace mt::noc {

// A latency in cycles is held in 32 bits, and every cycle sum the models form with it in 64:
// any value up to 2^32 - 1 runs. A larger one is refused naming the option and the limit
// (CLI11's conversion alone says "Could not convert").
inline CLI::Validator latency_cycles() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        // Only a plain decimal number can be too large; anything else is left to conversion.
        if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) return {};
        const size_t first = std::min(value.find_first_not_of('0'), value.size());
        const std::string significant = value.substr(first);
        const std::string most = std::to_string(std::numeric_limits<uint32_t>::max());
        if (significant.size() < most.size() ||
            (significant.size() == most.size() && significant <= most)) {
          return {};
        }
        return value + " cycles is more than " + most + ", the most a latency holds";
      },
      "CYCLES");
}

inline void add_noc_options(CLI::App& app, NocConfig& noc) {
  app.add_option("--vcs", noc.vcs, "virtual channels per port (2 or 4)")->capture_default_str();
  app.add_option("--vc-depth", noc.vc_depth, "flits per VC buffer")->capture_default_str();
  app.add_option("--link-latency", noc.link_latency,
                 "link latency (router to router, node to switch), cycles; a file link's \"latency\" is its own")
      ->check(latency_cycles())
      ->capture_default_str();
}

}  // namespace mt::noc
