#pragma once

#include <ostream>

#include "table/schedule_table.hpp"

namespace mt {

// Writes the tables in the layout of the paper's Fig. 5: one block per accelerator, children
// in K slots with nil for the empty ones.
void write_tables_text(std::ostream& os, const TableSet& set);

}  // namespace mt
