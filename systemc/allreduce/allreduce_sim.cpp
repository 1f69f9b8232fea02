#include "allreduce/allreduce_sim.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>
#include <systemc>

#include "algorithms/algorithms.hpp"
#include "allreduce/allreduce_system.hpp"
#include "common/error.hpp"
#include "common/input_file.hpp"
#include "common/resource_error.hpp"
#include "image/image.hpp"
#include "network/network.hpp"
#include "ni_formats.hpp"
#include "table/schedule_table.hpp"
#include "topology/topology.hpp"
#include "verifier/verifier.hpp"

namespace mt::noc {
namespace {

uint32_t bit_width(uint64_t v) {
  uint32_t bits = 0;
  for (; v != 0; v >>= 1) ++bits;
  return bits;
}

// What a memory error adds for a run with full data.
const char* sampled_hint(DataMode data) {
  return data == DataMode::kFull ? " (--data sampled stores 1/64 of the data)" : "";
}

// Each node holds its buffer in the memory model (1/64 of it sampled, DataSample), and
// GradientData holds the expected sum (8 bytes per 4-byte element stored): refuse up front
// what this machine cannot hold rather than dying in the allocator.
void check_fits_this_machine(uint32_t nodes, uint64_t bytes, DataMode data) {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return;
  const uint64_t physical = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
  const uint64_t copies = uint64_t{nodes} + 2;
  const uint64_t stored =
      data == DataMode::kFull ? bytes : bytes / (DataSample::kStrideBytes / DataSample::kLineBytes);
  if (stored > physical / copies) {
    throw InputError(fmt::format(
        "a {}-byte all-reduce on {} nodes needs about {:.1f} GiB of memory to simulate with "
        "--data {}; this machine has {:.1f} GiB{}", bytes, nodes,
        static_cast<double>(stored) * static_cast<double>(copies) / double(1ull << 30),
        data_mode_name(data), static_cast<double>(physical) / double(1ull << 30),
        sampled_hint(data)));
  }
}

// The tables every NI gets, as image bytes, with what they describe.
struct Loaded {
  Plan plan;      // empty for an image set
  TableSet set;
  std::vector<std::vector<uint8_t>> images;  // per node, the .bin the NI is loaded with
};

// The NI's dependency scoreboard keeps a row of senders per (op, flow), one per message that
// arrives (NiConfig::arrival_slots, the RTL's SLOTS). On a torus, mesh or ring the planned
// tables send a node at most 4 per row; an image set planned for another network may send
// more, which the NI would refuse only while running: refuse it here, naming the fullest row.
void check_scoreboard_rows(const TableSet& set, const std::string& dir, uint32_t slots) {
  std::unordered_map<uint64_t, uint32_t> rows[3];  // by op: (node, flow) -> messages
  auto arrive = [&](uint32_t node, const TableEntry& e, uint32_t sender) {
    // Gather and Put arrivals share a row (table/schedule_table.hpp).
    const Op row = writes(e.op) ? Op::kGather : e.op;
    if (++rows[static_cast<uint32_t>(row)][uint64_t{node} << 32 | e.flow] <= slots) return;
    throw InputError(fmt::format(
        "image set {}: node {} receives more than {} {} messages of flow {} (one from node {}); "
        "the NI's dependency scoreboard holds {} per (op, flow) on a torus, mesh or ring "
        "(NiConfig::arrival_slots)", dir, node, slots, op_name(e.op), e.flow, sender, slots));
  };
  for (const ScheduleTable& t : set.tables) {
    for (const TableEntry& e : t.entries) {
      if (e.op == Op::kReduce && e.parent != kNil) arrive(e.parent, e, t.node);
      if (writes(e.op)) {
        for (uint32_t c : e.children) arrive(c, e, t.node);
      }
    }
  }
}

// `images`: the set read from opt.images (read first: it may name the topology).
Loaded load_tables(const AllReduceOptions& opt, const Topology& topo, TableSet images) {
  Loaded l;
  if (!opt.images.empty()) {
    l.set = std::move(images);
    if (l.set.algorithm == "ina" || l.set.algorithm == "netreduce") {
      throw InputError(fmt::format("{0}: an image set holds the NIs' tables only, not the "
                                   "switches' aggregation tables a run of {1} needs; run mtsim -a "
                                   "{1}", opt.images, l.set.algorithm));
    }
    if (l.set.nodes != topo.nodes()) {
      throw InputError(fmt::format("image set {} is for {} nodes, topology {} has {}",
                                   opt.images, l.set.nodes, topo.spec(), topo.nodes()));
    }
    const VerifyReport r = opt.verify_images ? verify_tables(l.set, topo, 5) : VerifyReport{};
    if (!r.ok()) {
      std::string msg = fmt::format("the tables in {} do not verify on {}:", opt.images, topo.spec());
      for (const std::string& e : r.errors) msg += "\n  " + e;
      throw InputError(msg);
    }
    if (topo.direct()) check_scoreboard_rows(l.set, opt.images, opt.ni.arrival_slots);
    for (uint32_t n = 0; n < topo.nodes(); ++n) {
      const std::string bytes =
          read_input_file(fmt::format("{}/{}.bin", opt.images, image_stem(n, topo.nodes())));
      l.images.emplace_back(bytes.begin(), bytes.end());
    }
    return l;
  }
  if (opt.bytes == 0) throw InputError("all-reduce size 0: nothing to reduce");
  if (opt.bytes % 4 != 0) {
    throw InputError(fmt::format("all-reduce size {} bytes is not a whole number of 4-byte elements",
                                 opt.bytes));
  }
  PlanOptions po;
  po.bytes = opt.bytes;
  po.dtype = opt.dtype;
  po.prioritize_height = opt.prioritize_height;
  po.chunks = opt.dbtree_chunks;
  po.message_flow_control = opt.ni.flow_control == FlowControl::kMessage;
  po.mtree = opt.mtree;
  po.max_plan_seconds = opt.max_plan_seconds;
  l.plan = build_plan(topo, opt.algorithm, po);
  require_valid(l.plan, topo);
  TableOptions to;
  // K = NI bandwidth / link bandwidth (DESIGN.md): on a torus or mesh the NI matches its
  // router's 4 links; on a switch network a node's NI has its one link to a switch (§V: "each
  // accelerator is connected with a NIC that connects to a port of the leaf switch").
  to.children_slots = topo.direct() ? 4 : 1;
  l.set = compile_tables(l.plan, to);
  // The NI model reads any field width from the header: make the fields as wide as the
  // buffer needs (at least the usual 32 bits), as mtc plan --addr-bits/--size-bits would.
  ImageOptions io;
  io.addr_bits = std::max(32u, bit_width(l.set.base_addr + l.set.bytes - 1));
  io.size_bits = std::max(32u, bit_width(l.set.bytes));
  for (uint32_t n = 0; n < topo.nodes(); ++n) l.images.push_back(encode_image(l.set, n, io));
  return l;
}

// The most senders one node hears from for one (op, flow): children of its Reduces and root
// Gathers, the parent of its Gathers. A grid node has at most 4 (the RTL scoreboard's SLOTS);
// on a switch network a tree node may have more children.
uint32_t most_senders_per_flow(const TableSet& set) {
  size_t most = 0;
  std::map<std::pair<uint32_t, uint32_t>, std::set<uint32_t>> senders;  // (op, flow) -> nodes
  for (const ScheduleTable& t : set.tables) {
    senders.clear();
    for (const TableEntry& e : t.entries) {
      if (e.op == Op::kNop) continue;
      const bool from_children = e.op == Op::kReduce || e.parent == kNil;
      auto& s = senders[{static_cast<uint32_t>(from_children ? Op::kReduce : Op::kGather), e.flow}];
      if (from_children) {
        s.insert(e.children.begin(), e.children.end());
      } else {
        s.insert(e.parent);
      }
      most = std::max(most, s.size());
    }
  }
  return static_cast<uint32_t>(most);
}

}  // namespace

AllReduceResult run_allreduce(const AllReduceOptions& opt) {
  if (opt.topology.empty() && opt.images.empty()) throw InputError("no topology given");
  // An image set names the topology it was compiled for. read_image_set checks every file and
  // names the bad one.
  TableSet images = opt.images.empty() ? TableSet{} : read_image_set(opt.images);
  const std::string spec = opt.topology.empty() ? images.topology : opt.topology;
  // A router and an NI, besides the data: torus:16x16 MultiTree peaks at 0.28 GiB more than
  // its data once long messages fill the routers' VC queues (1.1 MiB a node; docs/mtsim.md,
  // "Memory").
  constexpr uint64_t kNodeBytes = 1u << 20;
  // Before building the network (fattree:64x4 takes seconds to build); a file's size is
  // known once it is read.
  const auto size = topology_size(spec);
  if (size) check_network_fits(spec, size->nodes + size->switches, kNodeBytes);
  const Topology topo = parse_topology(spec);
  if (topo.nodes() < 2) throw InputError("an all-reduce needs at least 2 nodes");
  if (!size) check_network_fits(topo.spec(), topo.vertices(), kNodeBytes);
  check_fits_this_machine(topo.nodes(), opt.images.empty() ? opt.bytes : images.bytes, opt.data);
  if (!opt.trace.empty() && std::filesystem::path(opt.trace).extension() != ".vcd") {
    throw InputError(fmt::format("trace file {}: the name must end in .vcd", opt.trace));
  }
  for (uint32_t n : opt.trace_nodes) {
    if (n >= topo.nodes()) {
      throw InputError(fmt::format("--trace-nodes: node {} does not exist ({} nodes)", n, topo.nodes()));
    }
  }
  const Loaded loaded = load_tables(opt, topo, std::move(images));
  const TableSet& set = loaded.set;
  if (set.children_slots == 0 || set.children_slots > 4) {
    throw InputError(fmt::format("the tables have {} children slots; this NI has 1 to 4 ports",
                                 set.children_slots));
  }
  NocConfig noc = opt.noc;
  noc.ni_ports = set.children_slots;  // K = NI bandwidth / link bandwidth
  noc.validate();
  opt.ni.validate();
  AllReduceOptions run = opt;
  // The RTL's per-block queues grow in proportion where the RTL NI is not used (checks, no
  // cycle effect; systemc/ni/README.md "Bounded queues"): on a switch network a tree node may
  // hear from more than the 4 senders they are sized for, and packets of fewer than 256
  // payload bytes make more blocks of a message.
  uint32_t scale = 1;
  if (!topo.direct()) {
    const uint32_t senders = most_senders_per_flow(set);
    scale = std::max(1u, (senders + 3) / 4);
    run.ni.arrival_slots = std::max(opt.ni.arrival_slots, senders);
  }
  if (opt.ni.flow_control == FlowControl::kPacket) {
    // The RTL's queues are sized for blocks of a line (rtl/network_interface.sv's BLOCK_BYTES).
    constexpr uint32_t kLine = format::flit::kLineBytes;
    scale *= (kLine + opt.ni.packet_payload_bytes - 1) / opt.ni.packet_payload_bytes;
  }
  // The scoreboard's flows and the table's entries are what the RTL is built with for these
  // tables (as the area flow sizes them); the SystemC NI holds them to that.
  run.ni.flows = std::max(opt.ni.flows, set.flows);
  for (const ScheduleTable& t : set.tables) {
    run.ni.table_entries =
        std::max<uint32_t>(run.ni.table_entries, static_cast<uint32_t>(t.entries.size()));
  }
  run.ni.packet_messages = opt.ni.packet_messages * scale;
  run.ni.reducing_blocks = opt.ni.reducing_blocks * scale;
  run.ni.block_slots = opt.ni.block_slots * scale;
  run.ni.open_messages = opt.ni.open_messages * scale;
  run.ni.memory_requests = opt.ni.memory_requests * scale;
  opt.reduction.validate();
  MemoryConfig mem_cfg = opt.memory;
  mem_cfg.base = set.base_addr;  // the window the tables touch, not everything below it
  mem_cfg.bytes = set.bytes;
  mem_cfg.clock_ps = noc.clock_ps;
  mem_cfg.validate();

  // A host that refuses the memories or the expected sums below check_fits_this_machine's
  // estimate (a ulimit, an overcommit limit) is an input error too, not an internal one.
  std::unique_ptr<AllReduceSystem> system;
  try {
    system = std::make_unique<AllReduceSystem>(
        "system", topo, set, loaded.images, run, noc, mem_cfg,
        opt.images.empty() ? &loaded.plan : nullptr);
  } catch (const std::bad_alloc&) {
    throw InputError(fmt::format(
        "the host refused memory for a {}-byte all-reduce on {} nodes with --data {}{}{}",
        set.bytes, topo.nodes(), data_mode_name(opt.data), sampled_hint(opt.data),
        address_space_limit_text()));
  }
  // SystemC's notes ("simulation stopped by user", trace timescale) are not news here.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_start();
  if (!system->host_error().empty()) throw InputError(system->host_error());
  return system->result();
}

}  // namespace mt::noc
