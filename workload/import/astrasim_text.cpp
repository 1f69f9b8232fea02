#include "import/astrasim_text.hpp"

#include <fmt/format.h>

#include <array>
#include <filesystem>
#include <sstream>

#include "common/error.hpp"
#include "common/input_file.hpp"
#include "import/text_lines.hpp"

namespace mt::workload {

namespace {

constexpr size_t kFields = 12;
const std::array<const char*, kFields> kFieldNames = {"name",
                                                      "reserved",
                                                      "forward compute cycles",
                                                      "forward collective",
                                                      "forward bytes",
                                                      "input-gradient compute cycles",
                                                      "input-gradient collective",
                                                      "input-gradient bytes",
                                                      "weight-gradient compute cycles",
                                                      "weight-gradient collective",
                                                      "weight-gradient bytes",
                                                      "weight-update cycles"};

// The collectives ASTRA-sim 1.0 names in its workload files.
bool is_collective(const std::string& s) {
  return s == "NONE" || s == "ALLREDUCE" || s == "ALLGATHER" || s == "ALLTOALL" ||
         s == "REDUCESCATTER" || s == "ALLREDUCEALLTOALL";
}

std::vector<std::string> tokens_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> tokens;
  for (std::string t; in >> t;) tokens.push_back(t);
  return tokens;
}

std::string field(size_t i) {
  return fmt::format("field {} ({})", i + 1, kFieldNames[i]);
}

// A collective field: known, and NONE unless `allreduce_ok`.
void check_collective(const std::string& s, size_t i, bool allreduce_ok, const std::string& at) {
  if (!is_collective(s)) {
    throw InputError(
        fmt::format("{}, {}: \"{}\" is not a collective (NONE, ALLREDUCE, ALLGATHER, "
                    "ALLTOALL, REDUCESCATTER, ALLREDUCEALLTOALL)",
                    at, field(i), s));
  }
  if (s == "NONE" || (allreduce_ok && s == "ALLREDUCE")) return;
  throw InputError(
      fmt::format("{}, {}: {}; a data-parallel iteration all-reduces the weight "
                  "gradients only ({} here)",
                  at, field(i), s, allreduce_ok ? "ALLREDUCE or NONE" : "NONE"));
}

// The reserved field: an integer (ASTRA-sim's files write -1), otherwise unused.
void check_reserved(const std::string& s, const std::string& at) {
  const std::string digits = !s.empty() && s[0] == '-' ? s.substr(1) : s;
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) {
    throw InputError(fmt::format("{}, {}: \"{}\" is not an integer", at, field(1), s));
  }
}

Layer read_layer(const std::vector<std::string>& t, uint64_t element_bytes, const std::string& at) {
  if (t.size() != kFields) {
    throw InputError(fmt::format("{}: {} fields; a layer line has {}", at, t.size(), kFields));
  }
  check_reserved(t[1], at);
  std::array<uint64_t, kFields> v{};
  for (size_t i : {2, 4, 5, 7, 8, 10, 11}) v[i] = parse_count(t[i], at, field(i));
  check_collective(t[3], 3, false, at);
  check_collective(t[6], 6, false, at);
  check_collective(t[9], 9, true, at);
  for (size_t i : {4, 7}) {
    if (v[i] != 0) throw InputError(fmt::format("{}, {}: {} bytes with NONE", at, field(i), v[i]));
  }
  const bool allreduce = t[9] == "ALLREDUCE";
  if (!allreduce && v[10] != 0) {
    throw InputError(fmt::format("{}, {}: {} bytes with NONE", at, field(10), v[10]));
  }
  if (allreduce && (v[10] == 0 || v[10] % element_bytes != 0)) {
    throw InputError(
        fmt::format("{}, {}: {} bytes is not a positive multiple of the {}-byte "
                    "element",
                    at, field(10), v[10], element_bytes));
  }
  Layer l;
  l.name = t[0];
  l.kind = LayerKind::kGiven;
  l.given_params = v[10] / element_bytes;
  l.given = GivenCycles{v[2], v[5], v[8], v[11]};
  return l;
}

}  // namespace

Workload workload_from_astrasim_text(const std::string& text, const std::string& origin,
                                     const std::string& name, uint64_t element_bytes) {
  if (element_bytes == 0) throw InputError(origin + ": the element size is 0 bytes");
  const std::vector<std::string> lines = split_lines(text);
  size_t i = 0;
  const auto next = [&]() -> std::vector<std::string> {  // the next line that is not blank
    for (; i < lines.size(); ++i) {
      std::vector<std::string> t = tokens_of(lines[i]);
      if (!t.empty()) return t;
    }
    return {};
  };
  std::vector<std::string> t = next();
  if (t.size() != 1 || t[0] != "DATA") {
    const std::string first = i < lines.size() ? trim(lines[i]) : "";
    throw InputError(
        fmt::format("{}:{}: the parallelism is \"{}\"; only DATA (data-parallel) "
                    "workloads are read",
                    origin, i + 1, first));
  }
  ++i;
  t = next();
  const std::string count_at = fmt::format("{}:{}", origin, i + 1);
  if (t.size() != 1) throw InputError(count_at + ": the layer count is missing or not one field");
  const uint64_t count = parse_count(t[0], count_at, "the layer count");
  Workload w;
  w.name = name;
  w.source = "ASTRA-sim workload " + origin;
  std::vector<std::string> where;
  for (++i, t = next(); !t.empty(); ++i, t = next()) {
    const std::string at = fmt::format("{}:{}", origin, i + 1);
    if (w.layers.size() == count) {
      throw InputError(fmt::format("{}: a layer line after the {} the count names", at, count));
    }
    w.layers.push_back(read_layer(t, element_bytes, at));
    where.push_back(fmt::format("line {} ({})", i + 1, w.layers.back().name));
  }
  if (w.layers.size() != count) {
    throw InputError(fmt::format("{}: the file has {} layer lines; the count names {}", count_at,
                                 w.layers.size(), count));
  }
  validate(w, origin, where);
  return w;
}

Workload read_astrasim_text(const std::string& path, uint64_t element_bytes) {
  return workload_from_astrasim_text(read_input_file(path), path,
                                     std::filesystem::path(path).stem().string(), element_bytes);
}

}  // namespace mt::workload
