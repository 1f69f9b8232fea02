#include "traffic/offered_load.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt::noc {
namespace {

double parse_number(const std::string& s, const std::string& what) {
  const char* begin = s.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(begin, &end);
  if (s.empty() || end != begin + s.size() || errno != 0 || !std::isfinite(v)) {
    throw InputError(fmt::format("{}: \"{}\" is not a number", what, s));
  }
  return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

double round9(double v) { return std::round(v * 1e9) / 1e9; }

}  // namespace

void check_rate(double rate) {
  if (!(rate > 0.0 && rate <= 1.0)) {
    throw InputError(fmt::format(
        "injection rate {} must be in (0, 1] flits/node/cycle (a node injects at most one flit "
        "per cycle)",
        rate));
  }
}

std::vector<double> parse_rates(const std::string& list) {
  std::vector<double> rates;
  for (const std::string& item : split(list, ',')) {
    const double r = parse_number(item, "--rates");
    check_rate(r);
    rates.push_back(r);
  }
  return rates;
}

std::vector<double> parse_sweep(const std::string& spec) {
  const std::vector<std::string> parts = split(spec, ':');
  if (parts.size() != 3) {
    throw InputError(fmt::format("--sweep \"{}\": expected START:STOP:STEP, e.g. 0.05:0.5:0.05",
                                 spec));
  }
  const double start = parse_number(parts[0], "--sweep START");
  const double stop = parse_number(parts[1], "--sweep STOP");
  const double step = parse_number(parts[2], "--sweep STEP");
  check_rate(start);
  check_rate(stop);
  if (!(step > 0.0)) throw InputError(fmt::format("--sweep STEP {} must be positive", step));
  if (stop < start) {
    throw InputError(fmt::format("--sweep STOP {} is below START {}", stop, start));
  }
  const double count = std::floor((stop - start) / step + 1e-9) + 1;
  if (count > 1000) {
    throw InputError(fmt::format("--sweep \"{}\" gives {} points; at most 1000", spec, count));
  }
  std::vector<double> rates;
  for (int i = 0; i < static_cast<int>(count); ++i) rates.push_back(round9(start + i * step));
  return rates;
}

}  // namespace mt::noc
