// mtc subcommands. Every path that uses a plan or a table set verifies it first.
#include "mtc/commands.hpp"

#include <fstream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "image/image.hpp"
#include "image/image_json.hpp"
#include "mtc/dot.hpp"
#include "mtc/table_text.hpp"
#include "verifier/verifier.hpp"

namespace mt {
namespace {

struct PlanArgs {
  std::string topology;
  std::string algorithm;
  std::string bytes = "1MiB";
  std::string dtype = "fp32";
  bool prioritize_height = false;
  uint32_t dbtree_chunks = 0;
};

void add_plan_args(CLI::App* cmd, PlanArgs& a) {
  cmd->add_option("-t,--topology", a.topology,
                  "torus:WxH, mesh:WxH, ring:N, fattree:MxL, bigraph:SxK or file:PATH.json")
      ->required();
  cmd->add_option("-a,--algorithm", a.algorithm,
                  "multitree, ring, ring-bi, ring2d, dbtree or hdrm")
      ->required();
  cmd->add_option("-b,--bytes", a.bytes, "all-reduce buffer size, e.g. 65536, 64KiB, 1MiB")
      ->capture_default_str();
  cmd->add_option("--dtype", a.dtype, "element type: int32 or fp32")->capture_default_str();
  cmd->add_flag("--prioritize-height", a.prioritize_height,
                "MultiTree: trees with the larger remaining height take their turn first");
  cmd->add_option("--dbtree-chunks", a.dbtree_chunks,
                  "dbtree: chunks per tree, pipelined through both trees (0: the default, "
                  "sqrt((levels - 1) * bytes per tree / 16 KiB))")
      ->capture_default_str();
}

// Builds the plan and proves it; throws InputError with the verifier's errors otherwise.
Plan build_verified(const PlanArgs& a, const Topology& topo, VerifyReport* report = nullptr) {
  PlanOptions opt;
  opt.bytes = parse_size(a.bytes);
  opt.dtype = parse_dtype(a.dtype);
  opt.prioritize_height = a.prioritize_height;
  opt.chunks = a.dbtree_chunks;
  Plan plan = build_plan(topo, a.algorithm, opt);
  VerifyReport r = require_valid(plan, topo);
  if (report) *report = std::move(r);
  return plan;
}

void require_tables_valid(const TableSet& set, const Topology& topo, const std::string& what) {
  const VerifyReport r = verify_tables(set, topo, 5);
  if (r.ok()) return;
  std::string msg = fmt::format("{} do not verify:", what);
  for (const std::string& e : r.errors) msg += "\n  " + e;
  throw InputError(msg);
}

nlohmann::json report_json(const VerifyReport& r) {
  return {{"verified", r.ok()},
          {"errors", r.errors},
          {"steps_per_phase", r.steps_per_phase},
          {"step_bound", r.step_bound},
          {"diameter", r.diameter},
          {"transfers", r.transfers},
          {"max_step_link_load", r.max_step_link_load},
          {"max_link_bytes", r.max_link_bytes}};
}

std::string report_text(const VerifyReport& r) {
  if (!r.ok()) {
    std::string s = "verification FAILED:\n";
    for (const std::string& e : r.errors) s += "  " + e + "\n";
    return s;
  }
  return fmt::format(
      "verified: every node ends with every byte summed over all nodes exactly once; {} "
      "transfers, {} steps per phase (physical bound {}, diameter {}), at most {} transfer(s) "
      "per link per step, busiest link carries {} bytes\n",
      r.transfers, r.steps_per_phase, r.step_bound, r.diameter, r.max_step_link_load,
      r.max_link_bytes);
}

void check_format(const std::string& f) {
  if (f != "text" && f != "json") {
    throw InputError(fmt::format("--format \"{}\": must be text or json", f));
  }
}

}  // namespace

int mtc_main(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"mtc: the MultiTree compiler. Builds all-reduce plans for a network, proves them "
               "correct and compiles them into per-node schedule-table images for the NI."};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every subcommand");

  PlanArgs plan_args;
  std::string format = "text", out_dir;
  uint32_t children = 4;
  uint64_t base_addr = 0;
  ImageOptions image_opt;
  CLI::App* plan_cmd = app.add_subcommand(
      "plan", "build, verify and compile a plan; print its tables; write images with --out");
  add_plan_args(plan_cmd, plan_args);
  plan_cmd->add_option("-k,--children", children, "children slots per entry (NI/link bandwidth)")
      ->capture_default_str();
  plan_cmd->add_option("--base-addr", base_addr, "Start Addr of the buffer's first byte")
      ->capture_default_str();
  plan_cmd->add_option("--addr-bits", image_opt.addr_bits, "Start Addr field width (1..64)")
      ->capture_default_str();
  plan_cmd->add_option("--size-bits", image_opt.size_bits, "Size field width (1..64)")
      ->capture_default_str();
  plan_cmd->add_option("-o,--out", out_dir, "write node_NN.{bin,hex,json} and manifest.json here");
  plan_cmd->add_option("-f,--format", format, "text (the paper's Fig. 5 layout) or json")
      ->capture_default_str();

  std::string dir;
  std::string show_format = "text";
  CLI::App* show_cmd = app.add_subcommand("show", "decode an image set back to tables");
  show_cmd->add_option("dir", dir, "directory written by mtc plan --out")->required();
  show_cmd->add_option("-f,--format", show_format, "text or json")->capture_default_str();

  std::string verify_topology, verify_format = "text";
  CLI::App* verify_cmd = app.add_subcommand(
      "verify", "decode an image set and prove the tables perform a correct all-reduce");
  verify_cmd->add_option("dir", dir, "directory written by mtc plan --out")->required();
  verify_cmd->add_option("-t,--topology", verify_topology,
                         "topology to check against (default: the manifest's)");
  verify_cmd->add_option("-f,--format", verify_format, "text or json")->capture_default_str();

  PlanArgs dot_args;
  std::string flow = "0", dot_out;
  CLI::App* dot_cmd = app.add_subcommand(
      "dot", "Graphviz picture of the all-gather trees over the physical network");
  add_plan_args(dot_cmd, dot_args);
  dot_cmd->add_option("--flow", flow, "flow (tree) id to draw, or \"all\"")->capture_default_str();
  dot_cmd->add_option("-o,--out", dot_out, "write here instead of standard output");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help is a "parse error" that exits 0; everything else is bad input.
    const int code = app.exit(e, out, err);
    return code == 0 ? 0 : 1;
  }

  try {
    if (*plan_cmd) {
      check_format(format);
      const Topology topo = parse_topology(plan_args.topology);
      VerifyReport report;
      const Plan plan = build_verified(plan_args, topo, &report);
      TableOptions topt;
      topt.children_slots = children;
      topt.base_addr = base_addr;
      const TableSet set = compile_tables(plan, topt);
      require_tables_valid(set, topo, "the compiled tables");
      image_layout(set, image_opt);  // rejects field widths that cannot hold the values
      for (uint32_t n = 0; n < set.nodes; ++n) encode_image(set, n, image_opt);
      if (!out_dir.empty()) write_image_set(set, out_dir, image_opt);
      if (format == "json") {
        nlohmann::json j = tables_json(set);
        j["verification"] = report_json(report);
        out << j.dump(2) << "\n";
      } else {
        out << tables_text(set) << report_text(report);
        if (!out_dir.empty()) out << fmt::format("wrote {} image sets to {}\n", set.nodes, out_dir);
      }
      return 0;
    }
    if (*show_cmd) {
      check_format(show_format);
      const TableSet set = read_image_set(dir);
      out << (show_format == "json" ? tables_json(set).dump(2) + "\n" : tables_text(set));
      return 0;
    }
    if (*verify_cmd) {
      check_format(verify_format);
      const TableSet set = read_image_set(dir);
      const Topology topo = parse_topology(verify_topology.empty() ? set.topology : verify_topology);
      const VerifyReport r = verify_tables(set, topo);
      if (verify_format == "json") {
        out << report_json(r).dump(2) << "\n";
      } else {
        out << fmt::format("{}: {} tables for {} on {}\n", dir, set.nodes, set.algorithm, topo.spec())
            << report_text(r);
      }
      return r.ok() ? 0 : 1;
    }
    if (*dot_cmd) {
      const Topology topo = parse_topology(dot_args.topology);
      const Plan plan = build_verified(dot_args, topo);
      const std::string text = plan_dot(plan, topo, flow);
      if (dot_out.empty()) {
        out << text;
      } else {
        std::ofstream f(dot_out);
        if (!(f << text)) throw InputError(fmt::format("cannot write {}", dot_out));
      }
      return 0;
    }
  } catch (const InputError& e) {
    err << "mtc: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    err << "mtc: internal error: " << e.what() << "\n";
    return 2;
  }
  return 2;
}

}  // namespace mt
