#pragma once

#include <string>

#include "table/schedule_table.hpp"

namespace mt {

// The tables in the layout of the paper's Fig. 5: one block per accelerator, children in K
// slots with nil for the empty ones.
std::string tables_text(const TableSet& set);

}  // namespace mt
