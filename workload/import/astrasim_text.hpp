// ASTRA-sim 1.0's text workload format (github.com/astra-sim/astra-sim, branch ASTRA-sim-1.0,
// inputs/workload/README.md), for data-parallel training:
//   line 1   the parallelism: DATA
//   line 2   the number of layers
//   then     one layer a line, 12 fields separated by spaces or tabs:
//            name, a reserved integer (-1 in ASTRA-sim's files),
//            forward compute cycles, forward collective, forward bytes,
//            input-gradient compute cycles, input-gradient collective, input-gradient bytes,
//            weight-gradient compute cycles, weight-gradient collective, weight-gradient bytes,
//            weight-update cycles after the collective.
// Every layer becomes a `given` layer whose parameter count is its weight-gradient bytes over
// the element size.
#pragma once

#include <cstdint>
#include <string>

#include "spec/workload.hpp"

namespace mt::workload {

// Parses a DATA workload into a workload called `name`; `element_bytes` is the size of one
// gradient element (4: the paper's 32-bit precision). Blank lines are skipped. InputError
// "<origin>:<line>, field <i> (<what>): ..." for: a parallelism other than DATA; a layer count
// of 0 or one that does not match the layer lines; a line of another field count; a reserved
// field that is not an integer; a negative or fractional number; a forward or input-gradient
// collective other than NONE (a data-parallel iteration all-reduces weight gradients only); a
// weight-gradient collective other than ALLREDUCE or NONE; NONE with bytes other than 0, or
// ALLREDUCE with 0 bytes or bytes that are not a multiple of `element_bytes`.
Workload workload_from_astrasim_text(const std::string& text, const std::string& origin,
                                     const std::string& name, uint64_t element_bytes = 4);

// Reads the file (read_input_file) and parses it, naming the workload after the file's stem.
Workload read_astrasim_text(const std::string& path, uint64_t element_bytes = 4);

}  // namespace mt::workload
