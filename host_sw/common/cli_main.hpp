// The command-line contract shared by mtc, mtsim and noc-sim: parse errors and bad input exit 1
// with "<tool>: error: ...", and so does memory or a thread the host refused (a ulimit);
// anything else is a bug (exit 2), and a tool's report counts only
// once it has reached standard output: a write error there (a full disk, /dev/full) is exit 1.
#pragma once

#include <cmath>
#include <exception>
#include <functional>
#include <ostream>
#include <string>

#include <CLI/CLI.hpp>

#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/resource_error.hpp"

namespace mt {

// The -t/--topology option every tool takes, with one description of the spec strings
// (host_sw/topology/topology.hpp parse_topology); `more` is appended to the help.
inline CLI::Option* add_topology_option(CLI::App& app, std::string& spec,
                                        const std::string& more = "") {
  return app.add_option("-t,--topology", spec,
                        "torus:WxH, mesh:WxH, ring:N, fattree:MxL, bigraph:SxK or file:PATH.json" +
                            (more.empty() ? std::string() : " " + more));
}

// The --time-limit option of the tools that plan (mtc plan, mtsim): PlanOptions::max_plan_seconds,
// a finite number of seconds, 0 or more (0: no limit).
inline CLI::Option* add_time_limit_option(CLI::App& app, double& seconds) {
  auto seconds_or_zero = [](const std::string& text) -> std::string {
    double v = 0;
    size_t used = 0;
    try {
      v = std::stod(text, &used);
    } catch (const std::exception&) {
    }
    if (used != text.size() || used == 0 || !std::isfinite(v) || v < 0) {
      return "\"" + text + "\" is not a number of seconds (0 or more; 0: no limit)";
    }
    return {};
  };
  return app
      .add_option("--time-limit", seconds,
                  "seconds: a plan estimated to take longer to plan, verify and compile is "
                  "refused before it is built (0: no limit)")
      ->check(seconds_or_zero)
      ->capture_default_str();
}

// Parses the command line. Returns -1 to go on, or the exit code: 0 after --help (if the help
// reached `out`), 1 for a parse error.
inline int parse_command_line(CLI::App& app, int argc, char** argv, const char* tool,
                              std::ostream& out, std::ostream& err) {
  try {
    app.parse(argc, argv);
    return -1;
  } catch (const CLI::ParseError& e) {
    // --help is a "parse error" that exits 0; everything else is bad input.
    if (app.exit(e, out, err) != 0) return 1;
    try {
      finish_output(out);
    } catch (const InputError& w) {
      err << tool << ": error: " << w.what() << "\n";
      return 1;
    }
    return 0;
  }
}

// Runs the work of a tool whose command line has been parsed; `body` returns the exit code.
inline int run_tool(const char* tool, std::ostream& out, std::ostream& err,
                    const std::function<int()>& body) {
  try {
    const int code = body();
    finish_output(out);
    return code;
  } catch (const InputError& e) {
    err << tool << ": error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    if (const auto refused = refused_resource(e)) {  // the run is too large for its limits
      err << tool << ": error: " << *refused << "\n";
      return 1;
    }
    err << tool << ": internal error: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace mt
