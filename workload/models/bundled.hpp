// The seven DNN models of the paper's evaluation (§V-B, Fig. 11), bundled as workload files in
// workload/models/ and resolved by name. README.md there gives each model's sources and
// conventions.
#pragma once

#include <string>
#include <vector>

#include "spec/workload.hpp"

namespace mt::workload {

// alexnet, alphagozero, fasterrcnn, googlenet, ncf, resnet50, transformer.
const std::vector<std::string>& bundled_model_names();

// The folder holding the bundled files: workload/models/ of the source tree this library was
// built from when it is there, else the installed copy (share/multitree_ni/models).
std::string bundled_models_dir();

// The bundled model `name` (read_workload_file of <dir>/<name>.json); InputError naming the
// bundled models when `name` is none of them.
Workload bundled_model(const std::string& name);

}  // namespace mt::workload
