// The command-line contract shared by mtc, mtsim and noc-sim: parse errors and bad input exit 1
// with "<tool>: error: ...", and so does memory or a thread the host refused (a ulimit);
// anything else is a bug (exit 2), and a tool's report counts only
// once it has reached standard output: a write error there (a full disk, /dev/full) is exit 1.
#pragma once

#include <algorithm>
#include <cmath>
#include <csignal>
#include <exception>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/resource_error.hpp"
#include "plan/plan.hpp"

namespace mt {

// The -t/--topology option every tool takes, with one description of the spec strings
// (host_sw/topology/topology.hpp parse_topology); `more` is appended to the help.
inline CLI::Option* add_topology_option(CLI::App& app, std::string& spec,
                                        const std::string& more = "") {
  return app.add_option("-t,--topology", spec,
                        "torus:WxH, mesh:WxH, ring:N (each with ,failed=A-B+C-D+... for failed links), "
                        "fattree:MxL, bigraph:SxK, hier:A+B+... or file:PATH.json" +
                            (more.empty() ? std::string() : " " + more));
}

// mtree's options (PlanOptions::mtree, docs/mtc.md), for the tools that plan (mtc plan, mtsim).
inline std::vector<CLI::Option*> add_mtree_options(CLI::App& app, MtreeOptions& o) {
  return {
      app.add_option("--mtree-trees", o.trees, "mtree: at most this many trees carry data (K)")
          ->capture_default_str(),
      app.add_option("--mtree-height", o.height,
                     "mtree: bound on a tree's weighted height, cycles of link latency (H; 0: "
                     "no bound)")
          ->capture_default_str(),
      app.add_option("--mtree-min-rate", o.min_rate,
                     "mtree: least rate of a tree that carries data and least capacity of its "
                     "links, in links of 16 bytes a cycle (r_bar)")
          ->capture_default_str(),
      app.add_option("--mtree-chunks", o.chunks,
                     "mtree: chunks of every tree, pipelined (lambda; 0: each tree's lambda* = "
                     "sqrt(v (l - 1) beta / max alpha))")
          ->capture_default_str()};
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

// Throws InputError for an option or argument given an empty value (--images '', -o ''): no
// option of the tools takes one, and an empty name must not mean the default or "none". And
// for a negative or too large value of an unsigned option, which CLI11 wraps or saturates for
// 64-bit ones (--watchdog -1 and --watchdog 18446744073709551616 would be 2^64 - 1).
inline void check_option_values(const CLI::App& app) {
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_type_size_max() == 0) continue;  // a flag
    for (const std::string& value : opt->results()) {
      if (value.empty()) {
        throw InputError(fmt::format("{}: the value is empty; give one, or leave the option out",
                                     opt->get_name()));
      }
      if (opt->get_type_name() != "UINT") continue;
      const size_t first = value.find_first_not_of(" \t");
      if (first != std::string::npos && value[first] == '-') {
        throw InputError(fmt::format("{} {}: must not be negative", opt->get_name(), value));
      }
      const bool decimal = value.find_first_not_of("0123456789") == std::string::npos;
      const size_t digits = value.size() - std::min(value.find_first_not_of('0'), value.size());
      if (decimal && (digits > 20 || (digits == 20 && value.substr(value.size() - 20) >
                                                          "18446744073709551615"))) {
        throw InputError(fmt::format("{} {}: too large (at most 18446744073709551615)",
                                     opt->get_name(), value));
      }
    }
  }
  for (const CLI::App* sub : app.get_subcommands()) check_option_values(*sub);
}

// Throws InputError when a tool with subcommands is given none, or its first argument names
// none of them (CLI11 would only say that one is required).
inline void check_subcommand_name(const CLI::App& app, int argc, char** argv) {
  if (app.get_require_subcommand_min() == 0 || (argc >= 2 && argv[1][0] == '-')) return;
  std::string names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (argc >= 2 && sub->check_name(argv[1])) return;
    names += (names.empty() ? "" : ", ") + sub->get_name();
  }
  if (argc < 2) throw InputError(fmt::format("give a subcommand: {} (--help)", names));
  throw InputError(fmt::format("unknown subcommand '{}': the subcommands are {}", argv[1], names));
}

// Parses the command line. Returns -1 to go on, or the exit code: 0 after --help (if the help
// reached `out`), 1 for a parse error or an empty value.
inline int parse_command_line(CLI::App& app, int argc, char** argv, const char* tool,
                              std::ostream& out, std::ostream& err) {
  // Past a file-size limit (ulimit -f) a write fails with EFBIG, an error the writers report
  // (exit 1, temporary files removed), instead of SIGXFSZ ending the tool midway.
  std::signal(SIGXFSZ, SIG_IGN);
  try {
    check_subcommand_name(app, argc, argv);
    app.parse(argc, argv);
    check_option_values(app);
    return -1;
  } catch (const InputError& e) {
    err << tool << ": error: " << e.what() << "\n";
    return 1;
  } catch (const CLI::ParseError& e) {
    // --help is a "parse error" that exits 0; everything else is bad input, said as the tools'
    // other errors are.
    if (e.get_exit_code() != 0) {
      std::string what = e.what();
      const std::string twice = "At Most 1 required but received ";  // an option given again
      const size_t at = what.find(twice);
      if (at != std::string::npos) {
        what = what.substr(0, at) + "given " + what.substr(at + twice.size()) +
               " times; give it once";
      }
      err << tool << ": error: " << what << "\nRun with --help for more information.\n";
      return 1;
    }
    app.exit(e, out, err);
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
