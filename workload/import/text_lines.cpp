#include "import/text_lines.hpp"

#include <fmt/format.h>

#include <limits>

#include "common/error.hpp"

namespace mt::workload {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::string trim(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

uint64_t parse_count(const std::string& s, const std::string& at, const std::string& field) {
  if (s.empty()) throw InputError(fmt::format("{}, {}: the field is empty", at, field));
  if (s[0] == '-') {
    throw InputError(fmt::format("{}, {}: \"{}\" is negative; it must not be", at, field, s));
  }
  uint64_t v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') {
      throw InputError(fmt::format("{}, {}: \"{}\" is not a whole number", at, field, s));
    }
    const auto digit = static_cast<uint64_t>(c - '0');
    if (v > (std::numeric_limits<uint64_t>::max() - digit) / 10) {
      throw InputError(fmt::format("{}, {}: \"{}\" does not fit in 64 bits", at, field, s));
    }
    v = v * 10 + digit;
  }
  return v;
}

}  // namespace mt::workload
