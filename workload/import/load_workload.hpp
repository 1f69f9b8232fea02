// A workload as a command line names it: a bundled model by its name, or a file in one of the
// formats, told by its extension.
#pragma once

#include <string>

#include "spec/workload.hpp"

namespace mt::workload {

// `name_or_path` without a '/' and without an extension is a bundled model's name
// (bundled_model); anything else is a file read by its extension: .json the workload format
// (read_workload_file), .csv a SCALE-Sim topology (read_scalesim_csv), .txt an ASTRA-sim text
// workload (read_astrasim_text, 4-byte elements). InputError naming the bundled models or the
// three extensions for anything else, and every error of the reader (naming the file).
Workload load_workload(const std::string& name_or_path);

// True when load_workload reads `name_or_path` as a file: it has a '/' or an extension.
bool is_workload_path(const std::string& name_or_path);

}  // namespace mt::workload
