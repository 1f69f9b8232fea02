// Latency-versus-offered-load PNG through gnuplot.
#pragma once

#include <string>
#include <vector>

#include "stats/run_stats.hpp"

namespace mt::noc {

struct PlotInfo {
  std::string title;       // first title line
  std::string subtitle;    // second title line (network parameters)
  double zero_load = 0.0;  // mean zero-load latency, drawn as a reference line
};

// The gnuplot executable on PATH; throws InputError when there is none (checked before any
// simulation runs, so a missing gnuplot costs nothing).
std::string find_gnuplot();

// The gnuplot script that draws `runs` into `png` (pngcairo).
std::string plot_script(const std::vector<RunStats>& runs, const PlotInfo& info,
                        const std::string& png);

// Writes the plot to `png` (through a temporary file renamed on success, so a failure leaves
// no half-written image); throws InputError when gnuplot fails.
void write_plot(const std::string& gnuplot, const std::vector<RunStats>& runs,
                const PlotInfo& info, const std::string& png);

}  // namespace mt::noc
