#include "targets.hpp"

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "finding.hpp"
#include "image/image.hpp"
#include "topology/topology.hpp"

namespace mt::fuzz {
namespace {

// A cheap bound on the nodes a spec string asks for: specs above it are not built (they are
// slow, not wrong; the size limits have their own tests).
bool small_spec(const std::string& s) {
  std::vector<double> numbers;
  double v = -1;
  for (const char c : s) {
    if (c >= '0' && c <= '9') {
      v = (v < 0 ? 0 : v * 10) + (c - '0');
    } else if (v >= 0) {
      numbers.push_back(v);
      v = -1;
    }
  }
  if (v >= 0) numbers.push_back(v);
  double product = 1, power = 1;
  for (const double n : numbers) product *= n;
  if (numbers.size() >= 2) power = std::pow(numbers[0], numbers[1]);
  return product <= 4096 && power <= 4096;
}

}  // namespace

void image(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bin(data, data + size);
  accepts([&] { decode_image(bin); });
  const std::string text(data, data + size);
  accepts([&] { decode_hex(text); });
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    return;  // not JSON: the file readers report that themselves
  }
  accepts([&] { table_from_json(j); });
  accepts([&] { tables_from_json(j); });
}

void topology(const uint8_t* data, size_t size) {
  const std::string text(data, data + size);
  if (!text.empty() && text[0] == '{') {
    accepts([&] { parse_topology_json(text, "file:fuzz.json"); });
    return;
  }
  if (text.rfind("file:", 0) == 0 || !small_spec(text)) return;  // no file system, no giants
  accepts([&] { parse_topology(text); });
}

}  // namespace mt::fuzz
