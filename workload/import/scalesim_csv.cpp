#include "import/scalesim_csv.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <filesystem>

#include "common/error.hpp"
#include "common/input_file.hpp"
#include "import/text_lines.hpp"

namespace mt::workload {

namespace {

// The columns, in SCALE-Sim's order; a file may order them otherwise, by header name.
constexpr size_t kColumns = 8;
const std::array<const char*, kColumns> kColumnNames = {
    "Layer name",   "IFMAP Height", "IFMAP Width", "Filter Height",
    "Filter Width", "Channels",     "Num Filter",  "Strides"};

// The comma-separated fields of a line, trimmed, without the empty ones at its end.
std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (;;) {
    const size_t comma = line.find(',', start);
    fields.push_back(trim(line.substr(start, comma == std::string::npos ? comma : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  while (!fields.empty() && fields.back().empty()) fields.pop_back();
  return fields;
}

bool same_name(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// For each of kColumnNames, the field index that holds it.
std::array<size_t, kColumns> read_header(const std::vector<std::string>& header,
                                         const std::string& at) {
  std::array<size_t, kColumns> index;
  index.fill(kColumns);
  for (size_t f = 0; f < header.size(); ++f) {
    size_t c = 0;
    while (c < kColumns && !same_name(header[f], kColumnNames[c])) ++c;
    if (c == kColumns) {
      throw InputError(
          fmt::format("{}, column {}: \"{}\" is not a SCALE-Sim topology column "
                      "(Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter "
                      "Width, Channels, Num Filter, Strides)",
                      at, f + 1, header[f]));
    }
    if (index[c] != kColumns) {
      throw InputError(fmt::format("{}, column {}: \"{}\" is also column {}", at, f + 1, header[f],
                                   index[c] + 1));
    }
    index[c] = f;
  }
  for (size_t c = 0; c < kColumns; ++c) {
    if (index[c] == kColumns) {
      throw InputError(fmt::format("{}: the column \"{}\" is missing", at, kColumnNames[c]));
    }
  }
  return index;
}

Layer read_row(const std::vector<std::string>& fields, const std::array<size_t, kColumns>& index,
               const std::string& at) {
  std::array<uint64_t, kColumns> v{};
  for (size_t c = 1; c < kColumns; ++c) {
    const std::string field = fmt::format("column {} ({})", index[c] + 1, kColumnNames[c]);
    v[c] = parse_count(fields[index[c]], at, field);
    if (v[c] == 0) throw InputError(fmt::format("{}, {}: 0; it must be positive", at, field));
  }
  Layer l;
  l.name = fields[index[0]];
  if (l.name.empty())
    throw InputError(fmt::format("{}, column {} (Layer name): empty", at, index[0] + 1));
  l.kind = LayerKind::kConv;
  l.conv = ConvGeometry{v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
  return l;
}

}  // namespace

Workload workload_from_scalesim_csv(const std::string& text, const std::string& origin,
                                    const std::string& name) {
  const std::vector<std::string> lines = split_lines(text);
  if (lines.empty())
    throw InputError(fmt::format("{}: the file is empty; it has no header", origin));
  const std::vector<std::string> header = fields_of(lines[0]);
  const std::array<size_t, kColumns> index = read_header(header, origin + ":1");
  Workload w;
  w.name = name;
  w.source = "SCALE-Sim topology " + origin;
  std::vector<std::string> where;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> fields = fields_of(lines[i]);
    if (fields.empty()) continue;
    const std::string at = fmt::format("{}:{}", origin, i + 1);
    if (fields.size() != header.size()) {
      throw InputError(
          fmt::format("{}: {} fields; the header has {}", at, fields.size(), header.size()));
    }
    w.layers.push_back(read_row(fields, index, at));
    where.push_back(fmt::format("line {} ({})", i + 1, w.layers.back().name));
  }
  validate(w, origin, where);
  return w;
}

Workload read_scalesim_csv(const std::string& path) {
  return workload_from_scalesim_csv(read_input_file(path), path,
                                    std::filesystem::path(path).stem().string());
}

}  // namespace mt::workload
