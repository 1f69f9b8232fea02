// tables_json(set).dump(2), written a table at a time (TablesJsonWriter in image.hpp). The
// keys come in nlohmann::json's order (sorted), "tables" among them; every value but the
// tables is printed by nlohmann::json itself, so only the tables' layout is written here.
#include <fmt/compile.h>
#include <fmt/format.h>

#include <iterator>
#include <string_view>

#include "image/image.hpp"
#include "image/image_json.hpp"

namespace mt {

namespace {

constexpr std::string_view kTables = "tables";

// `v` as dump(2) prints it one level down (every line after the first indented by 2 more).
void append_nested(const nlohmann::json& v, fmt::memory_buffer& out) {
  for (char c : v.dump(2)) {
    out.push_back(c);
    if (c == '\n') out.append(std::string_view("  "));
  }
}

// One entry at depth 4 (inside "tables", a table and its "entries"), keys sorted.
void append_entry(const TableEntry& e, fmt::memory_buffer& out) {
  auto o = std::back_inserter(out);
  if (e.children.empty()) {
    out.append(std::string_view("        {\n          \"children\": [],\n"));
  } else {
    out.append(std::string_view("        {\n          \"children\": [\n"));
    for (size_t k = 0; k < e.children.size(); ++k) {
      fmt::format_to(o, FMT_COMPILE("            {}{}"), e.children[k],
                     k + 1 < e.children.size() ? ",\n" : "\n");
    }
    out.append(std::string_view("          ],\n"));
  }
  fmt::format_to(o, FMT_COMPILE("          \"flow\": {},\n          \"op\": \"{}\",\n"
                                "          \"parent\": "),
                 e.flow, op_name(e.op));
  if (e.parent == kNil) {
    out.append(std::string_view("null"));
  } else {
    fmt::format_to(o, FMT_COMPILE("{}"), e.parent);
  }
  fmt::format_to(o, FMT_COMPILE(",\n          \"size\": {},\n          \"start_addr\": {},\n"
                                "          \"step\": {}\n        }}"),
                 e.size, e.start_addr, e.step);
}

}  // namespace

TablesJsonWriter::TablesJsonWriter(std::ostream& out, const TableSet& set,
                                   const nlohmann::json& extra)
    : out_(out), top_(nlohmann::json::object()) {
  image_detail::set_fields_to_json(set, top_);
  top_.update(extra);
  out_.buffer().append(std::string_view("{\n"));
  write_keys(false);
  fmt::format_to(std::back_inserter(out_.buffer()), "  \"{}\": [", kTables);
}

// The keys before "tables" (after_tables false) or after it, each line but the last with its
// comma.
void TablesJsonWriter::write_keys(bool after_tables) {
  fmt::memory_buffer& out = out_.buffer();
  for (auto it = top_.begin(); it != top_.end(); ++it) {
    if ((it.key() > kTables) != after_tables) continue;
    if (after_tables) out.append(std::string_view(",\n"));
    out.append(std::string_view("  "));
    append_nested(nlohmann::json(it.key()), out);
    out.append(std::string_view(": "));
    append_nested(it.value(), out);
    if (!after_tables) out.append(std::string_view(",\n"));
  }
}

void TablesJsonWriter::add(const ScheduleTable& table) {
  fmt::memory_buffer& out = out_.buffer();
  out.append(std::string_view(tables_++ == 0 ? "\n    {\n" : ",\n    {\n"));
  if (table.entries.empty()) {
    out.append(std::string_view("      \"entries\": [],\n"));
  } else {
    out.append(std::string_view("      \"entries\": [\n"));
    for (size_t i = 0; i < table.entries.size(); ++i) {
      if (i) out.append(std::string_view(",\n"));
      append_entry(table.entries[i], out);
      out_.maybe_flush();
    }
    out.append(std::string_view("\n      ],\n"));
  }
  fmt::format_to(std::back_inserter(out), FMT_COMPILE("      \"node\": {}\n    }}"), table.node);
}

void TablesJsonWriter::finish() {
  out_.buffer().append(std::string_view(tables_ == 0 ? "]" : "\n  ]"));
  write_keys(true);
  out_.buffer().append(std::string_view("\n}\n"));
  out_.flush();
}

}  // namespace mt
