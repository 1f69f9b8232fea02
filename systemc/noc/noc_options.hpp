// The network options mtsim and noc-sim share (NocConfig fields), described once.
#pragma once

#include <CLI/CLI.hpp>

#include "noc/noc_config.hpp"

namespace mt::noc {

inline void add_noc_options(CLI::App& app, NocConfig& noc) {
  app.add_option("--vcs", noc.vcs, "virtual channels per port (2 or 4)")->capture_default_str();
  app.add_option("--vc-depth", noc.vc_depth, "flits per VC buffer")->capture_default_str();
  app.add_option("--link-latency", noc.link_latency,
                 "link latency (router to router, node to switch), cycles")
      ->capture_default_str();
}

}  // namespace mt::noc
