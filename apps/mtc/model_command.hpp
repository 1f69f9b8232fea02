#pragma once

#include <ostream>
#include <string>

#include <CLI/CLI.hpp>

namespace mt {

// mtc model's options, in the units it shows (docs/mtc.md, "Analytic models of the NetReduce
// appendix").
struct ModelArgs {
  int64_t learners = 32;      // P
  int64_t per_machine = 8;    // n
  std::string bytes = "100MB";
  double b_intra_gbs = 150;   // GB/s, 10^9 bytes per second
  double b_inter_gbs = 12.5;  // GB/s
  double alpha_us = 10;       // microseconds
  std::string format = "text";
};

void add_model_command(CLI::App& app, ModelArgs& a);
int run_model(const ModelArgs& a, std::ostream& out);

}  // namespace mt
