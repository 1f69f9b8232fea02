#include "table/table_sink.hpp"

#include <cerrno>

#include "common/output_file.hpp"

namespace mt {

void write_tables(TableSink& sink, const TableSet& set) {
  for (const ScheduleTable& t : set.tables) sink.add(t);
  sink.finish();
}

void ChunkedOutput::flush() {
  errno = 0;
  out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_.clear();
  finish_output(out_);
}

}  // namespace mt
