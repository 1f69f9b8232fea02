// The workload format as JSON (docs/workloads.md): read strictly, written one layer a line.
#pragma once

#include <string>

#include "spec/workload.hpp"

namespace mt::workload {

// The format version this library reads and writes (the "version" key).
constexpr int kWorkloadFormatVersion = 1;

// Parses and validates a workload. InputError "<origin>: ..." naming the layer (its index and
// name) and the key for: malformed JSON, a key given twice in one object, a missing or unknown
// key, a value of the wrong type, a negative or fractional number, and everything validate()
// refuses (no layers, sizes of 0, bad ties).
Workload workload_from_json(const std::string& text, const std::string& origin);

// Reads the file (a regular file of at most 256 MiB, read_input_file) and parses it as above.
Workload read_workload_file(const std::string& path);

// The JSON text of a workload, as read back by workload_from_json: the top-level keys one a
// line, each layer on one line with its keys in the order of docs/workloads.md; optional keys
// at their defaults (instances 1, no tie, update_cycles 0) are left out.
std::string workload_to_json(const Workload& w);

}  // namespace mt::workload
