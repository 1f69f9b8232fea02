// The human (JSON) view of schedule tables. Key names are a contract (IMAGE_FORMAT.md).
#include <fmt/compile.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>
#include <limits>
#include <string_view>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "image/image.hpp"
#include "image/image_detail.hpp"
#include "image/image_json.hpp"

namespace mt {

using namespace image_detail;
using nlohmann::json;

namespace image_detail {

JsonObject::JsonObject(const json& j, Where where) : j_(j), where_(std::move(where)) {
  if (!j_.is_object()) throw InputError(fmt::format("{}: expected a JSON object", where_()));
}

const json& JsonObject::at(const std::string& key) {
  const auto it = j_.find(key);
  if (it == j_.end()) throw InputError(fmt::format("{}: missing key '{}'", where_(), key));
  if (std::find(used_.begin(), used_.end(), key) == used_.end()) used_.push_back(key);
  return *it;
}

uint64_t JsonObject::u64(const std::string& key) { return json_u64(at(key), field(key)); }

uint32_t JsonObject::u32(const std::string& key) {
  const uint64_t v = u64(key);
  if (v > std::numeric_limits<uint32_t>::max()) {
    throw InputError(fmt::format("{}: {} does not fit 32 bits", field(key)(), v));
  }
  return static_cast<uint32_t>(v);
}

std::string JsonObject::str(const std::string& key) {
  const json& v = at(key);
  if (!v.is_string()) throw InputError(fmt::format("{}: expected a string", field(key)()));
  return v.get<std::string>();
}

void JsonObject::finish() const {
  for (auto it = j_.begin(); it != j_.end(); ++it) {
    if (std::find(used_.begin(), used_.end(), it.key()) == used_.end()) {
      throw InputError(fmt::format("{}: unknown key '{}'", where_(), it.key()));
    }
  }
}

Where JsonObject::field(const std::string& key) const {
  return [where = where_, key] { return fmt::format("{}: key '{}'", where(), key); };
}

uint64_t json_u64(const json& v, const Where& where) {
  // Integers built in C++ are number_integer, parsed ones number_unsigned: accept both.
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0) return v.get<uint64_t>();
  throw InputError(fmt::format("{}: expected a non-negative integer, got {}", where(), v.dump()));
}

void set_fields_to_json(const TableSet& set, json& j) {
  j["topology"] = set.topology;
  j["algorithm"] = set.algorithm;
  j["nodes"] = set.nodes;
  j["flows"] = set.flows;
  j["steps_per_phase"] = set.steps_per_phase;
  j["children_slots"] = set.children_slots;
  j["bytes"] = set.bytes;
  j["dtype"] = dtype_name(set.dtype);
  j["base_addr"] = set.base_addr;
}

void set_fields_from_json(JsonObject& o, TableSet& set) {
  set.topology = o.str("topology");
  set.algorithm = o.str("algorithm");
  const std::vector<std::string>& names = algorithm_names();
  if (!image_algorithm(set.algorithm)) {
    throw InputError(fmt::format("{}: unknown algorithm \"{}\" (one of {}, msccl)",
                                 o.field("algorithm")(), set.algorithm, fmt::join(names, ", ")));
  }
  set.nodes = o.u32("nodes");
  set.flows = o.u32("flows");
  set.steps_per_phase = o.u32("steps_per_phase");
  set.children_slots = o.u32("children_slots");
  set.bytes = o.u64("bytes");
  const std::string dtype = o.str("dtype");
  try {
    set.dtype = parse_dtype(dtype);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", o.field("dtype")(), e.what()));
  }
  set.base_addr = o.u64("base_addr");
}

}  // namespace image_detail

namespace {

// The inverse of op_name (plan.hpp), so the spellings have one source.
Op parse_op(const std::string& s, const Where& where) {
  for (Op op : {Op::kNop, Op::kReduce, Op::kGather, Op::kPut}) {
    if (s == op_name(op)) return op;
  }
  throw InputError(fmt::format("{}: '{}' is not {}, {}, {} or {}", where(), s, op_name(Op::kNop),
                               op_name(Op::kReduce), op_name(Op::kGather), op_name(Op::kPut)));
}

}  // namespace

json table_json(const TableSet& set, uint32_t node) {
  if (node >= set.tables.size() || set.tables[node].node != node) {
    throw InputError(fmt::format("table set has no table for node {}", node));
  }
  json entries = json::array();
  for (const TableEntry& e : set.tables[node].entries) {
    json je;
    je["op"] = op_name(e.op);
    je["flow"] = e.flow;
    je["parent"] = e.parent == kNil ? json(nullptr) : json(e.parent);
    je["children"] = e.children;
    je["step"] = e.step;
    je["start_addr"] = e.start_addr;
    je["size"] = e.size;
    entries.push_back(std::move(je));
  }
  return json{{"node", node}, {"entries", std::move(entries)}};
}

json tables_json(const TableSet& set) {
  json j;
  set_fields_to_json(set, j);
  json tables = json::array();
  for (const ScheduleTable& t : set.tables) tables.push_back(table_json(set, t.node));
  j["tables"] = std::move(tables);
  return j;
}

std::string table_json_text(const TableSet& set, uint32_t node) {
  fmt::memory_buffer out;
  append_table_json_text(set.tables.at(node), out);
  return fmt::to_string(out);
}

void append_table_json_text(const ScheduleTable& t, fmt::memory_buffer& out) {
  auto o = std::back_inserter(out);
  fmt::format_to(o, FMT_COMPILE("{{\"node\": {}, \"entries\": [\n"), t.node);
  for (size_t i = 0; i < t.entries.size(); ++i) {
    const TableEntry& e = t.entries[i];
    fmt::format_to(o, FMT_COMPILE("  {{\"op\": \"{}\", \"flow\": {}, \"parent\": "),
                   op_name(e.op), e.flow);
    if (e.parent == kNil) {
      out.append(std::string_view("null"));
    } else {
      fmt::format_to(o, FMT_COMPILE("{}"), e.parent);
    }
    out.append(std::string_view(", \"children\": ["));
    for (size_t k = 0; k < e.children.size(); ++k) {
      if (k) out.append(std::string_view(", "));
      fmt::format_to(o, FMT_COMPILE("{}"), e.children[k]);
    }
    fmt::format_to(o, FMT_COMPILE("], \"step\": {}, \"start_addr\": {}, \"size\": {}}}"),
                   e.step, e.start_addr, e.size);
    out.append(std::string_view(i + 1 < t.entries.size() ? ",\n" : "\n"));
  }
  out.append(std::string_view("]}\n"));
}

ScheduleTable table_from_json(const json& j) {
  JsonObject o(j, [] { return std::string("table JSON"); });
  ScheduleTable t;
  t.node = o.u32("node");
  const std::string where = fmt::format("table JSON of node {}", t.node);
  const json& entries = o.at("entries");
  if (!entries.is_array()) throw InputError(where + ": 'entries' is not an array");
  o.finish();
  for (size_t i = 0; i < entries.size(); ++i) {
    JsonObject eo(entries[i], [&where, i] { return fmt::format("{}, entry {}", where, i); });
    TableEntry e;
    e.op = parse_op(eo.str("op"), eo.field("op"));
    e.flow = eo.u32("flow");
    const json& parent = eo.at("parent");
    if (parent.is_null()) {
      e.parent = kNil;
    } else {
      const uint64_t p = json_u64(parent, eo.field("parent"));
      // kNil itself is spelled null; a number that large is a mistake, not nil.
      if (p >= kNil) {
        throw InputError(fmt::format("{}: {} is not a node id (nil is null)",
                                     eo.field("parent")(), p));
      }
      e.parent = static_cast<uint32_t>(p);
    }
    const json& children = eo.at("children");
    if (!children.is_array()) throw InputError(eo.field("children")() + ": expected an array");
    for (size_t k = 0; k < children.size(); ++k) {
      const uint64_t c = json_u64(children[k], [&eo, k] {
        return fmt::format("{}[{}]", eo.field("children")(), k);
      });
      if (c >= kNil) {
        throw InputError(fmt::format("{}[{}]: {} is not a node id", eo.field("children")(), k, c));
      }
      e.children.push_back(static_cast<uint32_t>(c));
    }
    e.step = eo.u32("step");
    e.start_addr = eo.u64("start_addr");
    e.size = eo.u64("size");
    eo.finish();
    t.entries.push_back(std::move(e));
  }
  return t;
}

TableSet tables_from_json(const json& j) {
  JsonObject o(j, [] { return std::string("tables JSON"); });
  TableSet set;
  set_fields_from_json(o, set);
  const json& tables = o.at("tables");
  o.finish();
  if (!tables.is_array()) throw InputError("tables JSON: 'tables' is not an array");
  if (tables.size() != set.nodes) {
    throw InputError(fmt::format("tables JSON: {} tables for nodes = {}", tables.size(),
                                 set.nodes));
  }
  for (size_t n = 0; n < tables.size(); ++n) {
    ScheduleTable t = table_from_json(tables[n]);
    if (t.node != n) {
      throw InputError(fmt::format("tables JSON: tables[{}] is the table of node {}", n, t.node));
    }
    set.tables.push_back(std::move(t));
  }
  return set;
}

}  // namespace mt
