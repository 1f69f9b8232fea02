// A DNN workload: its layers in forward order (back-propagation visits them in reverse), with
// where the geometry comes from. docs/workloads.md describes the format.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/layer.hpp"

namespace mt::workload {

struct Workload {
  std::string name;
  std::string source;              // where the geometry comes from (papers, files)
  std::vector<std::string> notes;  // conventions that change the model's size
  std::vector<Layer> layers;       // forward order
};

// Refuses a workload no model can be computed from, with InputError "<origin>: <where>: ...",
// where <where> is where[i] for layer i when given (a line of an imported file) and
// "layer <i> (<name>)" otherwise: no layers; an empty layer name; a size, stride, instance or
// lookup count of 0; a filter larger than its ifmap; a tie to a name that is not an earlier
// layer's, is carried by two layers, or names a tied layer or one whose weight has another
// parameter count; a tie on a kind without weights; a count that does not fit in 64 bits.
// Names may repeat (SCALE-Sim's files repeat them), except those a tie names.
void validate(const Workload& w, const std::string& origin,
              const std::vector<std::string>& where = {});

// The sum of parameter_count over the layers.
uint64_t total_parameters(const Workload& w);

}  // namespace mt::workload
