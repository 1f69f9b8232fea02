#pragma once

#include <ostream>

#include "table/schedule_table.hpp"
#include "table/table_sink.hpp"

namespace mt {

// Writes the tables in the layout of the paper's Fig. 5: one block per accelerator, children
// in K slots with nil for the empty ones. A table at a time: formatted into a buffer written
// out a megabyte at a time (a plan of 2^14 nodes prints half a gigabyte).
class TablesTextWriter : public TableSink {
 public:
  // `set` gives the fields and must outlive the writer; its tables are not used.
  TablesTextWriter(std::ostream& os, const TableSet& set);
  void add(const ScheduleTable& table) override;
  void finish() override { out_.flush(); }

 private:
  const TableSet& set_;
  ChunkedOutput out_;
  size_t children_width_;
};

void write_tables_text(std::ostream& os, const TableSet& set);

// The switches' aggregation tables of an in-network aggregation plan (Plan::aggregations):
// one block per switch (its vertex id), a row per flow with its children and its parent
// switch, "top" at the top of the tree. Nothing for other plans.
void write_aggregation_text(std::ostream& os, const Plan& plan);

}  // namespace mt
