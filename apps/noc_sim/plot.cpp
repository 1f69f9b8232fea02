#include "noc_sim/plot.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt::noc {
namespace {

namespace fs = std::filesystem;

// gnuplot single-quoted strings have no escapes; double the quote by closing and reopening is
// not possible either, so such paths are refused.
std::string quoted(const std::string& s) {
  if (s.find('\'') != std::string::npos || s.find('\n') != std::string::npos) {
    throw InputError(fmt::format("cannot hand the path \"{}\" to gnuplot (it has a quote)", s));
  }
  return "'" + s + "'";
}

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string enhanced_safe(std::string s) {
  // Enhanced-text mode treats _ ^ @ & { } as markup.
  std::string out;
  for (char c : s) {
    if (c == '_' || c == '^' || c == '@' || c == '&' || c == '{' || c == '}') out += "\\\\";
    out += c;
  }
  return out;
}

}  // namespace

std::string find_gnuplot() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    const fs::path exe = fs::path(dir.empty() ? "." : dir) / "gnuplot";
    if (::access(exe.c_str(), X_OK) == 0) return exe.string();
    start = end + 1;
  }
  throw InputError(
      "--plot needs gnuplot, which is not on PATH (Debian: apt-get install gnuplot-nox)");
}

std::string plot_script(const std::vector<RunStats>& runs, const PlotInfo& info,
                        const std::string& png) {
  std::string s;
  s += "set terminal pngcairo size 1000,650 enhanced font 'sans,11'\n";
  s += "set output " + quoted(png) + "\n";
  s += fmt::format("set title \"{}\\n{{/*0.8 {}}}\"\n", enhanced_safe(info.title),
                   enhanced_safe(info.subtitle));
  s += "set xlabel 'offered load (flits/node/cycle)'\n";
  s += "set ylabel 'packet latency (cycles, offered to tail arrival; log scale)'\n";
  s += "set logscale y\n";
  s += "set grid xtics ytics mytics\n";
  s += "set key top left box opaque\n";
  s += "set datafile missing '?'\n";
  s += "set xrange [0:*]\n";
  s += "$points << EOD\n";
  s += "# offered mean p99 max accepted saturated\n";
  for (const RunStats& r : runs) {
    const bool none = r.latency.count == 0;
    s += fmt::format("{} {} {} {} {} {}\n", r.offered,
                     none ? "?" : fmt::format("{}", r.latency.mean),
                     none ? "?" : fmt::format("{}", r.latency.p99),
                     none ? "?" : fmt::format("{}", r.latency.max), r.accepted,
                     r.saturated ? 1 : 0);
  }
  s += "EOD\n";
  s += fmt::format(
      "plot $points using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'mean latency', \\\n"
      "     $points using 1:3 with linespoints lw 2 pt 5 lc rgb '#ff7f0e' title '99th percentile', \\\n"
      "     $points using 1:($6 > 0 ? $2 : 1/0) with points pt 6 ps 2.5 lw 2 lc rgb '#d62728' "
      "title 'saturated (delivered packets only: a lower bound)', \\\n"
      "     {} with lines dt 2 lw 1.5 lc rgb '#555555' title 'zero-load latency ({:.0f} cycles)'\n",
      info.zero_load, info.zero_load);
  return s;
}

void write_plot(const std::string& gnuplot, const std::vector<RunStats>& runs,
                const PlotInfo& info, const std::string& png) {
  const fs::path target(png);
  const fs::path tmp_png = target.string() + ".tmp.png";
  char script_path[] = "/tmp/noc-sim-plot-XXXXXX";
  const int fd = ::mkstemp(script_path);
  if (fd < 0) throw InputError("cannot create a temporary file for the gnuplot script");
  ::close(fd);
  {
    std::ofstream f(script_path);
    f << plot_script(runs, info, tmp_png.string());
  }
  const std::string cmd =
      shell_quoted(gnuplot) + " " + shell_quoted(script_path) + " 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  std::string out;
  if (pipe != nullptr) {
    std::array<char, 4096> buf{};
    size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  }
  const int status = pipe != nullptr ? ::pclose(pipe) : -1;
  std::error_code ec;
  fs::remove(script_path, ec);
  if (status != 0 || !fs::exists(tmp_png)) {
    fs::remove(tmp_png, ec);
    throw InputError(fmt::format("gnuplot could not write {}:\n{}", png, out));
  }
  fs::rename(tmp_png, target, ec);
  if (ec) {
    fs::remove(tmp_png, ec);
    throw InputError(fmt::format("cannot write {}", png));
  }
}

}  // namespace mt::noc
