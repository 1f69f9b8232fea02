// mtc subcommands. Every path that uses a plan or a table set verifies it first.
#include "mtc/commands.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "algorithms/algorithms.hpp"
#include "cli/cli_main.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/run_files.hpp"
#include "image/image.hpp"
#include "image/image_json.hpp"
#include "interop/msccl.hpp"
#include "plan/plan.hpp"
#include "plan/plan_index.hpp"
#include "topology/cut_bound.hpp"
#include "topology/physical_bound.hpp"
#include "mtc/dot.hpp"
#include "mtc/model_command.hpp"
#include "mtc/table_text.hpp"
#include "verifier/table_check.hpp"
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
  std::string flow_control = "message";
  MtreeOptions mtree;
  double time_limit = PlanOptions{}.max_plan_seconds;
};

void add_plan_args(CLI::App* cmd, PlanArgs& a) {
  add_topology_option(*cmd, a.topology)->required();
  cmd->add_option("-a,--algorithm", a.algorithm,
                  "multitree, multitree-opt (torus, ring, BiGraph, two-level fat-tree), ring, "
                  "ring-bi, ring2d, ring2d-paper (torus), dbtree, hdrm, flexreduce, blueconnect "
                  "(hierarchies of machines, hier:A+B+...), mtree (direct networks), ps (parameter "
                  "server on node 0; switch networks), ina (in-network aggregation; switch "
                  "networks), netreduce (hierarchical NetReduce; hierarchies of equal machines), "
                  "or msccl:PATH (an MSCCL XML all-reduce, imported and verified: "
                  "docs/msccl.md)")
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
  cmd->add_option("--flow-control", a.flow_control,
                  "the flow control the tables will run with, message or packet (mtsim's "
                  "--flow-control); multitree-opt plans shallow trees on switch networks for "
                  "small message-based all-reduces only (docs/mtc.md)")
      ->check(CLI::IsMember({"message", "packet"}))
      ->capture_default_str();
  add_mtree_options(*cmd, a.mtree);
  add_time_limit_option(*cmd, a.time_limit);
}

PlanOptions plan_options(const PlanArgs& a) {
  PlanOptions opt;
  opt.bytes = parse_size(a.bytes);
  opt.dtype = parse_dtype(a.dtype);
  opt.prioritize_height = a.prioritize_height;
  opt.chunks = a.dbtree_chunks;
  opt.message_flow_control = a.flow_control == "message";
  opt.mtree = a.mtree;
  opt.max_plan_seconds = a.time_limit;
  return opt;
}

// The topology, once its size passed the plan's size check: a network too large to plan is
// refused before it is built (fattree:64x4 takes seconds and gigabytes to build).
Topology planned_topology(const PlanArgs& a) {
  if (const auto size = topology_size(a.topology)) {
    check_plan_size(a.topology, *size, a.algorithm, plan_options(a));
  }
  return parse_topology(a.topology);
}

// Builds the plan and proves it; throws InputError with the verifier's errors otherwise.
Plan build_verified(const PlanArgs& a, const Topology& topo) {
  Plan plan = build_plan(topo, a.algorithm, plan_options(a));
  require_valid(plan, topo);
  return plan;
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
  std::string s = fmt::format(
      "verified: every node ends with every byte summed over all nodes exactly once; {} "
      "transfers, {} steps per phase (physical bound {}, diameter {}), at most {} transfer(s) "
      "per link per step, busiest link carries {} bytes\n",
      r.transfers, r.steps_per_phase, r.step_bound, r.diameter, r.max_step_link_load,
      r.max_link_bytes);
  if (r.unordered_puts > 0) {
    s += fmt::format(
        "  unordered Puts: {} Put arrival(s) share bytes with a Reduce that reaches the same "
        "node at a later step from another node; the NI applies messages as they arrive, so only "
        "the NIs keeping step land the Put first (mtsim checks every run's sums)\n",
        r.unordered_puts);
  }
  return s;
}

// The all-reduce's two bandwidth lower bounds on `topo` for the plan's buffer, with links of
// one flit payload per cycle (the default network): the per-node bound
// (topology/physical_bound.hpp) and the weakest cut's (topology/cut_bound.hpp).
std::string bounds_text(const Topology& topo, uint64_t bytes) {
  const uint64_t b = format::flit::kPayloadBytes;
  const uint64_t per_node = allreduce_bound_cycles(topo, bytes, b);
  const CutBound cut = cut_bound(topo, bytes, b);
  return fmt::format(
      "bandwidth lower bound: {} cycles, {}, for {} bytes per node over links of {} bytes per "
      "cycle\n  per-node  {} cycles ({})\n  cut       {} cycles ({})\n",
      std::max(per_node, cut.cycles), tighter_bound_name(per_node, cut.cycles), bytes, b,
      per_node, allreduce_bound_basis(topo), cut.cycles, cut.basis);
}

// Every option of every subcommand, filled by the parser.
struct MtcArgs {
  PlanArgs plan;
  std::string format = "text", out_dir;
  bool quiet = false;
  uint32_t children = 4;
  std::string base_addr = "0";
  ImageOptions image_opt;
  std::string dir, show_format = "text";
  std::string verify_topology, verify_format = "text";
  PlanArgs dot;
  std::string flow = "0", dot_out;
  ModelArgs model;
};

// Checks compiled tables, one at a time (the set is never whole in memory): each verifies
// against the plan and, with `encodes`, encodes in the image's field widths (an ImageSetWriter
// that encodes each table right after checks that itself).
class CompiledTableCheck {
 public:
  CompiledTableCheck(TableStream& tables, const Plan& plan, const ImageOptions& opt,
                     bool encodes)
      : checker_(plan, tables.index(), tables.header().base_addr, 5),
        encoder_(tables.header(), opt),  // rejects field widths that cannot hold the values
        encodes_(encodes) {}

  // Throws InputError with the checker's errors when `t` fails.
  void check(const ScheduleTable& t) {
    checker_.check(t);
    if (checker_.ok()) {
      if (encodes_) encoder_.check(t);
      return;
    }
    std::string msg = "the compiled tables do not verify:";
    for (const std::string& e : checker_.errors()) msg += "\n  " + e;
    throw InputError(msg);
  }

 private:
  TableChecker checker_;
  ImageEncoder encoder_;
  bool encodes_;
};

// Where mtc plan's tables go: the image set (--out) and the standard output.
std::vector<std::unique_ptr<TableSink>> plan_sinks(const MtcArgs& a, const TableSet& header,
                                                   const VerifyReport& report, std::ostream& out) {
  std::vector<std::unique_ptr<TableSink>> sinks;
  if (!a.out_dir.empty()) {
    sinks.push_back(std::make_unique<ImageSetWriter>(header, a.out_dir, a.image_opt));
  }
  if (a.quiet || a.format == "msccl") return sinks;
  if (a.format == "json") {
    sinks.push_back(std::make_unique<TablesJsonWriter>(
        out, header, nlohmann::json{{"verification", report_json(report)}}));
  } else {
    sinks.push_back(std::make_unique<TablesTextWriter>(out, header));
  }
  return sinks;
}

int run_plan(const MtcArgs& a, std::ostream& out) {
  if (a.format != "msccl") check_format(a.format);
  if (a.quiet && a.format != "text") {
    throw InputError(fmt::format("--quiet prints no tables, and --format {} is the plan's document: "
                                 "give one or the other (the verification alone: mtc plan --quiet)",
                                 a.format));
  }
  std::vector<RunFile> inputs = topology_inputs(a.plan.topology, "-t");
  for (RunFile& f : algorithm_inputs(a.plan.algorithm, "-a")) inputs.push_back(f);
  check_run_files({{"-o", a.out_dir, true}}, inputs);
  const Topology topo = planned_topology(a.plan);
  const Plan plan = build_plan(topo, a.plan.algorithm, plan_options(a.plan));
  PlanIndex index(plan);  // the verifier's and the tables' (a plan on torus:64x64: 0.3 s)
  const VerifyReport report = require_valid(plan, topo, &index);
  // Whole before anything is written: a plan MSCCL cannot express leaves no output.
  if (a.format == "msccl" && !plan.aggregations.empty()) {
    throw InputError(fmt::format("--format msccl: a {} plan sums in the switches, which an MSCCL "
                                 "algorithm (sends between GPUs) cannot express", plan.algorithm));
  }
  const std::string msccl_xml = a.format == "msccl" ? export_msccl(plan) : std::string();
  TableOptions topt;
  topt.children_slots = a.children;
  topt.base_addr = parse_unsigned(a.base_addr, "--base-addr");
  TableStream tables(plan, topt, std::move(index));
  // Tables printed on the standard output cannot be taken back: every table is checked before
  // the first is printed, and compiled again for the outputs. An image set is written into a
  // temporary directory that replaces --out only when complete (ImageSetWriter), so with
  // --quiet each table is checked as it is written, in one pass; a failure leaves no images.
  const bool one_pass = a.quiet || a.format == "msccl";  // no tables printed
  const bool writer_encodes = one_pass && !a.out_dir.empty();
  CompiledTableCheck check(tables, plan, a.image_opt, !writer_encodes);
  if (!one_pass) {
    for (uint32_t v = 0; v < plan.nodes; ++v) check.check(tables.table(v));
  }
  const std::vector<std::unique_ptr<TableSink>> sinks = plan_sinks(a, tables.header(), report, out);
  for (uint32_t v = 0; v < plan.nodes; ++v) {
    const ScheduleTable& t = tables.table(v);
    if (one_pass) check.check(t);
    for (const auto& sink : sinks) sink->add(t);
  }
  for (const auto& sink : sinks) sink->finish();
  if (!a.quiet && a.format == "text") write_aggregation_text(out, plan);
  if (a.format == "msccl") {
    out << msccl_xml;
  } else if (a.format != "json") {
    out << report_text(report) << bounds_text(topo, plan_options(a.plan).bytes);
    if (!a.out_dir.empty()) {
      out << fmt::format("wrote the image set ({} node images) to {}\n", plan.nodes, a.out_dir);
    }
  }
  return 0;
}

int run_show(const MtcArgs& a, std::ostream& out) {
  check_format(a.show_format);
  const TableSet set = read_image_set(a.dir);
  if (a.show_format == "json") {
    TablesJsonWriter writer(out, set);
    write_tables(writer, set);
  } else {
    write_tables_text(out, set);
  }
  return 0;
}

int run_verify(const MtcArgs& a, std::ostream& out) {
  check_format(a.verify_format);
  const TableSet set = read_image_set(a.dir);
  const std::string spec = a.verify_topology.empty() ? set.topology : a.verify_topology;
  const std::optional<TopologySize> size = topology_size(spec);  // before it is built
  if (size && size->nodes != set.nodes) {
    throw InputError(fmt::format("{}: the tables are for {} nodes, topology {} has {}", a.dir,
                                 set.nodes, spec, size->nodes));
  }
  const Topology topo = parse_topology(spec);
  const VerifyReport r = verify_tables(set, topo);
  if (a.verify_format == "json") {
    out << report_json(r).dump(2) << "\n";
  } else {
    out << fmt::format("{}: {} tables for {} on {}\n", a.dir, set.nodes, set.algorithm, topo.spec())
        << report_text(r);
  }
  return r.ok() ? 0 : 1;
}

int run_dot(const MtcArgs& a, std::ostream& out) {
  if (!a.dot_out.empty()) check_writable(a.dot_out, "-o");
  check_run_files({{"-o", a.dot_out}}, topology_inputs(a.dot.topology, "-t"));
  const Topology topo = planned_topology(a.dot);
  const Plan plan = build_verified(a.dot, topo);
  const std::string text = plan_dot(plan, topo, a.flow);
  if (a.dot_out.empty()) {
    out << text;
  } else {
    write_file(a.dot_out, text, "-o");
  }
  return 0;
}

void add_plan_command(CLI::App& app, MtcArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "plan", "build, verify and compile a plan; print its tables; write images with --out");
  add_plan_args(cmd, a.plan);
  cmd->add_option("-k,--children", a.children, "children slots per entry (NI/link bandwidth)")
      ->capture_default_str();
  cmd->add_option("--base-addr", a.base_addr, "Start Addr of the buffer's first byte")
      ->capture_default_str();
  cmd->add_option("--addr-bits", a.image_opt.addr_bits, "Start Addr field width (1..64)")
      ->capture_default_str();
  cmd->add_option("--size-bits", a.image_opt.size_bits, "Size field width (1..64)")
      ->capture_default_str();
  cmd->add_option("-o,--out", a.out_dir, "write node_NN.{bin,hex,json} and manifest.json here");
  cmd->add_option("-f,--format", a.format,
                  "text (the paper's Fig. 5 layout), json, or msccl (the plan as an MSCCL XML "
                  "algorithm instead of the tables: docs/msccl.md)")
      ->capture_default_str();
  cmd->add_flag("-q,--quiet", a.quiet,
                "print no tables, only the verification and the bandwidth bounds (and where "
                "--out wrote the images); "
                "the tables are still compiled and checked, each once");
}

void add_read_commands(CLI::App& app, MtcArgs& a) {
  CLI::App* show = app.add_subcommand("show", "decode an image set back to tables");
  show->add_option("dir", a.dir, "directory written by mtc plan --out")->required();
  show->add_option("-f,--format", a.show_format, "text or json")->capture_default_str();
  CLI::App* verify = app.add_subcommand(
      "verify", "decode an image set and prove the tables perform a correct all-reduce");
  verify->add_option("dir", a.dir, "directory written by mtc plan --out")->required();
  verify->add_option("-t,--topology", a.verify_topology,
                     "topology to check against (default: the manifest's)");
  verify->add_option("-f,--format", a.verify_format, "text or json")->capture_default_str();
}

void add_dot_command(CLI::App& app, MtcArgs& a) {
  CLI::App* cmd = app.add_subcommand(
      "dot", "Graphviz picture of the all-gather trees over the physical network");
  add_plan_args(cmd, a.dot);
  cmd->add_option("--flow", a.flow, "flow (tree) id to draw, or \"all\"")->capture_default_str();
  cmd->add_option("-o,--out", a.dot_out, "write here instead of standard output");
}

}  // namespace

void check_format(const std::string& f) {
  if (f != "text" && f != "json") {
    throw InputError(fmt::format("--format \"{}\": must be text or json", f));
  }
}

int mtc_main(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"mtc: the MultiTree compiler. Builds all-reduce plans for a network, proves them "
               "correct and compiles them into per-node schedule-table images for the NI."};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every subcommand");
  MtcArgs a;
  add_plan_command(app, a);
  add_read_commands(app, a);
  add_dot_command(app, a);
  add_model_command(app, a.model);
  const int parsed = parse_command_line(app, argc, argv, "mtc", out, err);
  if (parsed >= 0) return parsed;
  return run_tool("mtc", out, err, [&] {
    if (*app.get_subcommand("plan")) return run_plan(a, out);
    if (*app.get_subcommand("show")) return run_show(a, out);
    if (*app.get_subcommand("verify")) return run_verify(a, out);
    if (*app.get_subcommand("model")) return run_model(a.model, out);
    return run_dot(a, out);
  });
}

}  // namespace mt
