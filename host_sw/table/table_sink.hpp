// Where schedule tables go one at a time, in node order, so that output is written as the
// tables are compiled (or read) and never held whole.
#pragma once

#include <ostream>

#include <fmt/format.h>

#include "table/schedule_table.hpp"

namespace mt {

class TableSink {
 public:
  virtual ~TableSink() = default;
  virtual void add(const ScheduleTable& table) = 0;
  // After the last table: what follows the tables, and the output made final.
  virtual void finish() = 0;
};

// Gives every table of `set` to `sink`, then finishes it.
void write_tables(TableSink& sink, const TableSet& set);

// A text buffer for a stream, written out when it holds a megabyte and at flush(). A write
// error is an InputError ("cannot write the standard output": it is mtc's report) at once, not
// after the rest of the output has been made.
class ChunkedOutput {
 public:
  explicit ChunkedOutput(std::ostream& out) : out_(out) {}
  fmt::memory_buffer& buffer() { return buf_; }
  // Writes the buffer out if it holds a megabyte or more.
  void maybe_flush() {
    if (buf_.size() >= (1u << 20)) flush();
  }
  void flush();

 private:
  std::ostream& out_;
  fmt::memory_buffer buf_;
};

}  // namespace mt
