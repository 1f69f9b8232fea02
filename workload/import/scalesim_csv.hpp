// SCALE-Sim's topology CSV (github.com/scalesim-project/scale-sim-v2, README "Topology file"):
// a header line naming the columns
//   Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter,
//   Strides
// and one convolution layer a line, in forward order. docs/workloads.md gives the reading
// rules; every layer becomes a `conv` layer (a fully connected layer is written in these files
// as a convolution of a 1x1 filter over a 1x1 ifmap).
#pragma once

#include <string>

#include "spec/workload.hpp"

namespace mt::workload {

// Parses a topology CSV into a workload called `name`. Fields are separated by commas and
// trimmed of spaces and tabs; empty fields after the last one (SCALE-Sim's files end each line
// with a comma) and lines of empty fields are ignored. InputError "<origin>:<line>..." naming
// the column by number and header name for: an unknown, repeated or missing column in the
// header; a line with another number of fields than the header; an empty, negative,
// fractional or zero size; a filter larger than its ifmap; a file without layers.
Workload workload_from_scalesim_csv(const std::string& text, const std::string& origin,
                                    const std::string& name);

// Reads the file (read_input_file) and parses it, naming the workload after the file's stem.
Workload read_scalesim_csv(const std::string& path);

}  // namespace mt::workload
