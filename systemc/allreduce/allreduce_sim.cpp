#include "allreduce/allreduce_sim.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "algorithms/algorithms.hpp"
#include "allreduce/gradient_data.hpp"
#include "allreduce/physical_bound.hpp"
#include "common/error.hpp"
#include "image/image.hpp"
#include "network/network.hpp"
#include "ni/network_interface.hpp"
#include "ni/plain_access.hpp"
#include "router/router.hpp"
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

// Each node holds its buffer in the memory model, and GradientData holds the expected sum (8
// bytes per 4-byte element): refuse up front what this machine cannot hold rather than dying
// in the allocator.
void check_fits_this_machine(uint32_t nodes, uint64_t bytes) {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return;
  const uint64_t physical = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
  const uint64_t copies = uint64_t{nodes} + 2;
  if (bytes > physical / copies) {
    throw InputError(fmt::format(
        "a {}-byte all-reduce on {} nodes needs about {:.1f} GiB of memory to simulate; this "
        "machine has {:.1f} GiB", bytes, nodes,
        static_cast<double>(bytes) * static_cast<double>(copies) / double(1ull << 30),
        static_cast<double>(physical) / double(1ull << 30)));
  }
}

// The tables every NI gets, as image bytes, with what they describe.
struct Loaded {
  TableSet set;
  std::vector<std::vector<uint8_t>> images;  // per node, the .bin the NI is loaded with
};

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("cannot read image {}", path));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `images`: the set read from opt.images (read first: it may name the topology).
Loaded load_tables(const AllReduceOptions& opt, const Topology& topo, TableSet images) {
  Loaded l;
  if (!opt.images.empty()) {
    l.set = std::move(images);
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
    for (uint32_t n = 0; n < topo.nodes(); ++n) {
      l.images.push_back(read_bytes(fmt::format("{}/{}.bin", opt.images, image_stem(n, topo.nodes()))));
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
  const Plan plan = build_plan(topo, opt.algorithm, po);
  require_valid(plan, topo);
  TableOptions to;
  to.children_slots = 4;
  l.set = compile_tables(plan, to);
  // The NI model reads any field width from the header: make the fields as wide as the
  // buffer needs (at least the usual 32 bits), as mtc plan --addr-bits/--size-bits would.
  ImageOptions io;
  io.addr_bits = std::max(32u, bit_width(l.set.base_addr + l.set.bytes - 1));
  io.size_bits = std::max(32u, bit_width(l.set.bytes));
  for (uint32_t n = 0; n < topo.nodes(); ++n) l.images.push_back(encode_image(l.set, n, io));
  return l;
}

// The host processor: writes every NI's table image through its configuration target,
// checks that the NI took it, and starts the all-reduce (paper §IV-A: "the schedule table
// is initialized; the timestep and lockstep counters are reset by the processor").
class Host : public sc_core::sc_module {
 public:
  using Socket = tlm_utils::simple_initiator_socket_tagged<Host>;
  Host(sc_core::sc_module_name name, std::vector<NetworkInterface*> nis,
       const std::vector<std::vector<uint8_t>>* images)
      : sc_module(name), nis_(std::move(nis)), images_(images) {
    for (size_t n = 0; n < nis_.size(); ++n) {
      sockets_.push_back(std::make_unique<Socket>(fmt::format("config_{}", n).c_str()));
      sockets_.back()->bind(nis_[n]->table.config);
    }
    SC_THREAD(load_and_start);
  }
  const std::string& error() const { return error_; }

 private:
  SC_HAS_PROCESS(Host);
  void access(size_t n, tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
    tlm::tlm_generic_payload t;
    set_plain_access(t, cmd, addr, data, len);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    (*sockets_[n])->b_transport(t, delay);
    if (t.is_response_error()) {
      throw std::runtime_error(fmt::format("host: NI {} refused an access at 0x{:x}: {}", n, addr,
                                           t.get_response_string()));
    }
  }
  void write32(size_t n, uint64_t addr, uint32_t v) {
    uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
    access(n, tlm::TLM_WRITE_COMMAND, addr, b, 4);
  }
  void load_and_start() {
    for (size_t n = 0; n < nis_.size(); ++n) {
      std::vector<uint8_t> image = (*images_)[n];
      if (image.size() > NiScheduleTable::kImageWindow) {
        error_ = fmt::format("the table image of node {} has {} bytes; the NI holds {}", n,
                             image.size(), NiScheduleTable::kImageWindow);
        sc_core::sc_stop();
        return;
      }
      access(n, tlm::TLM_WRITE_COMMAND, NiScheduleTable::kImageBase, image.data(),
             static_cast<unsigned>(image.size()));
      write32(n, NiScheduleTable::kRegLength, static_cast<uint32_t>(image.size()));
      write32(n, NiScheduleTable::kRegLoad, 1);
      if (nis_[n]->table.status() != NiScheduleTable::kStatusLoaded) {
        error_ = fmt::format("NI {} rejected its table image: {}", n, nis_[n]->table.error());
        sc_core::sc_stop();
        return;
      }
    }
    for (NetworkInterface* ni : nis_) ni->start();
  }

  std::vector<NetworkInterface*> nis_;
  const std::vector<std::vector<uint8_t>>* images_;
  std::vector<std::unique_ptr<Socket>> sockets_;
  std::string error_;
};

// Stops the simulation when every NI is done, or when nothing has happened anywhere for the
// watchdog's time (then it names what each unfinished NI waits for).
class Monitor : public sc_core::sc_module {
 public:
  Monitor(sc_core::sc_module_name name, std::vector<NetworkInterface*> nis, const Network& net,
          uint64_t clock_ps, uint64_t watchdog_cycles, bool progress)
      : sc_module(name), nis_(std::move(nis)), net_(net), clock_ps_(clock_ps),
        watchdog_(watchdog_cycles), progress_(progress && isatty(STDERR_FILENO)) {
    SC_THREAD(watch);
  }
  const std::string& stall() const { return stall_; }

 private:
  SC_HAS_PROCESS(Monitor);
  void watch() {
    const uint64_t period = 256;  // cycles between checks; the result does not depend on it
    const sc_core::sc_time step(static_cast<double>(period * clock_ps_), sc_core::SC_PS);
    uint64_t last_progress = ~0ull, quiet = 0;
    auto last_print = std::chrono::steady_clock::now();
    for (;;) {
      sc_core::wait(step);
      uint64_t p = 0, done = 0, injected = 0, ejected = 0;
      bool counting = false;
      const uint64_t now = static_cast<uint64_t>(sc_core::sc_time_stamp().value() /
                                                 sc_core::sc_time(static_cast<double>(clock_ps_),
                                                                  sc_core::SC_PS).value());
      for (NetworkInterface* ni : nis_) {
        p += ni->progress();
        done += ni->done();
        injected += ni->flits_injected();
        ejected += ni->flits_ejected();
        counting = counting || !ni->lockstep.zero(now);
      }
      p += net_.router_cycles();
      if (done == nis_.size() && injected == ejected) {
        if (progress_) std::fprintf(stderr, "\r%60s\r", "");
        sc_core::sc_stop();
        return;
      }
      quiet = p == last_progress && !counting ? quiet + period : 0;
      last_progress = p;
      if (watchdog_ != 0 && quiet >= watchdog_) {
        stall_ = fmt::format("deadlock: nothing moved for {} cycles (cycle {}); {} of {} nodes done",
                             quiet, now, done, nis_.size());
        for (NetworkInterface* ni : nis_) {
          if (!ni->done()) stall_ += "\n  " + ni->status();
        }
        if (net_.flits_buffered() != 0) stall_ += "\n" + net_.state_report();
        sc_core::sc_stop();
        return;
      }
      if (progress_) {
        const auto t = std::chrono::steady_clock::now();
        if (t - last_print > std::chrono::milliseconds(500)) {
          last_print = t;
          std::fprintf(stderr, "\rmtsim: cycle %llu, %llu of %zu nodes done",
                       static_cast<unsigned long long>(now), static_cast<unsigned long long>(done),
                       nis_.size());
        }
      }
    }
  }

  std::vector<NetworkInterface*> nis_;
  const Network& net_;
  uint64_t clock_ps_, watchdog_;
  bool progress_;
  std::string stall_;
};

// sc_create_vcd_trace_file appends ".vcd"; an .fst file is converted from it afterwards.
struct TracePath {
  std::string vcd_stem;  // without .vcd
  std::string fst;       // empty unless converting
};

TracePath trace_path(const std::string& path) {
  auto ends = [&](const char* ext) {
    const std::string e(ext);
    return path.size() > e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".vcd")) return {path.substr(0, path.size() - 4), ""};
  if (ends(".fst")) {
    if (std::system("command -v vcd2fst >/dev/null 2>&1") != 0) {
      throw InputError(fmt::format("--trace {}: writing FST needs vcd2fst (Debian package gtkwave); "
                                   "give a .vcd path instead", path));
    }
    return {path.substr(0, path.size() - 4) + ".tmp", path};
  }
  throw InputError(fmt::format("--trace {}: the file name must end in .vcd or .fst", path));
}

}  // namespace

nlohmann::json AllReduceResult::json() const {
  nlohmann::json steps_j = nlohmann::json::array(), links_j = nlohmann::json::array();
  for (const StepSpan& s : steps) steps_j.push_back({{"step", s.step}, {"first_cycle", s.first}, {"last_cycle", s.last}});
  for (const LinkUse& l : links) {
    links_j.push_back({{"from", l.from}, {"to", l.to}, {"port", l.port}, {"flits", l.flits},
                       {"utilisation", l.utilisation}});
  }
  return {{"topology", topology},      {"algorithm", algorithm},
          {"flow_control", flow_control}, {"dtype", dtype},
          {"nodes", nodes},            {"steps_per_phase", steps_per_phase},
          {"bytes", bytes},            {"cycles", cycles},
          {"bandwidth_gbps", bandwidth_gbps}, {"bound_cycles", bound_cycles},
          {"bound_ratio", bound_ratio}, {"verified", verified},
          {"error", error},            {"flits", flits},
          {"head_flits", head_flits},  {"head_overhead", head_overhead},
          {"router_cycles", router_cycles}, {"steps", steps_j},
          {"links", links_j}};
}

AllReduceResult AllReduceResult::from_json(const nlohmann::json& j) {
  AllReduceResult r;
  r.topology = j.at("topology");
  r.algorithm = j.at("algorithm");
  r.flow_control = j.at("flow_control");
  r.dtype = j.at("dtype");
  r.nodes = j.at("nodes");
  r.steps_per_phase = j.at("steps_per_phase");
  r.bytes = j.at("bytes");
  r.cycles = j.at("cycles");
  r.bandwidth_gbps = j.at("bandwidth_gbps");
  r.bound_cycles = j.at("bound_cycles");
  r.bound_ratio = j.at("bound_ratio");
  r.verified = j.at("verified");
  r.error = j.at("error");
  r.flits = j.at("flits");
  r.head_flits = j.at("head_flits");
  r.head_overhead = j.at("head_overhead");
  r.router_cycles = j.at("router_cycles");
  for (const auto& s : j.at("steps")) r.steps.push_back({s.at("step"), s.at("first_cycle"), s.at("last_cycle")});
  for (const auto& l : j.at("links")) {
    r.links.push_back({l.at("from"), l.at("to"), l.at("port"), l.at("flits"), l.at("utilisation")});
  }
  return r;
}

AllReduceResult run_allreduce(const AllReduceOptions& opt) {
  if (opt.topology.empty() && opt.images.empty()) throw InputError("no topology given");
  // An image set names the topology it was compiled for. read_image_set checks every file and
  // names the bad one.
  TableSet images = opt.images.empty() ? TableSet{} : read_image_set(opt.images);
  const Topology topo = parse_topology(opt.topology.empty() ? images.topology : opt.topology);
  if (topo.nodes() < 2) throw InputError("an all-reduce needs at least 2 nodes");
  check_network_fits(topo.spec(), topo.nodes(), 200 * 1024);  // a router and an NI a node
  check_fits_this_machine(topo.nodes(), opt.images.empty() ? opt.bytes : images.bytes);
  TracePath trace;
  if (!opt.trace.empty()) trace = trace_path(opt.trace);
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
  opt.reduction.validate();
  MemoryConfig mem_cfg = opt.memory;
  mem_cfg.base = set.base_addr;  // the window the tables touch, not everything below it
  mem_cfg.bytes = set.bytes;
  mem_cfg.clock_ps = noc.clock_ps;
  mem_cfg.validate();

  Network net("network", topo, noc);
  net.set_watchdog(std::max<uint64_t>(opt.ni.watchdog_cycles, 4 * (noc.link_latency + noc.credit_latency)));
  std::vector<std::unique_ptr<AccelMemory>> memories;
  std::vector<std::unique_ptr<NetworkInterface>> nis;
  std::vector<NetworkInterface*> ni_ptrs;
  GradientData data(topo.nodes(), set.bytes, set.dtype, opt.seed);
  std::map<uint32_t, StepSpan> spans;
  std::vector<IssueRecord> issues;
  for (uint32_t n = 0; n < topo.nodes(); ++n) {
    NiPlace place;
    place.node = n;
    place.nodes = topo.nodes();
    place.grid.x = topo.x_of(n);
    place.grid.y = topo.y_of(n);
    place.grid.width = topo.width();
    place.grid.height = topo.height();
    place.grid.wraps = topo.wraps();
    for (uint8_t p = 0; p < kPorts; ++p) place.neighbour[p] = net.router(n).neighbour(p);
    memories.push_back(std::make_unique<AccelMemory>(fmt::format("memory_{}", n).c_str(), mem_cfg));
    nis.push_back(std::make_unique<NetworkInterface>(fmt::format("ni_{}", n).c_str(), place, noc,
                                                     opt.ni, opt.reduction, set.dtype));
    NetworkInterface& ni = *nis.back();
    ni.dma.mem.bind(memories.back()->port);
    for (uint32_t i = 0; i < noc.ni_ports; ++i) {
      ni.port(i).out.bind(net.inject(n, i));
      net.eject(n, i).bind(ni.port(i).in);
    }
    ni.on_step = [&spans](uint32_t, uint32_t step, uint64_t cycle) {
      auto [it, fresh] = spans.try_emplace(step, StepSpan{step, cycle, cycle});
      it->second.first = std::min(it->second.first, cycle);
      it->second.last = std::max(it->second.last, cycle);
    };
    if (opt.record_issues) {
      ni.on_issue = [&issues](uint32_t node, size_t index, const TableEntry& e, uint64_t cycle) {
        issues.push_back({node, index, e, cycle});
      };
    }
    data.fill(n, memories.back()->data());
    ni_ptrs.push_back(&ni);
    if (opt.on_ni) opt.on_ni(n, ni);
  }
  Host host("host", ni_ptrs, &loaded.images);
  Monitor monitor("monitor", ni_ptrs, net, noc.clock_ps, opt.ni.watchdog_cycles, opt.progress);

  sc_core::sc_trace_file* tf = nullptr;
  if (!opt.trace.empty()) {
    tf = sc_core::sc_create_vcd_trace_file(trace.vcd_stem.c_str());
    tf->set_time_unit(static_cast<double>(noc.clock_ps), sc_core::SC_PS);
    for (uint32_t n : opt.trace_nodes) nis[n]->trace(tf);
  }
  // SystemC's notes ("simulation stopped by user", trace timescale) are not news here.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_start();
  if (tf) sc_core::sc_close_vcd_trace_file(tf);
  if (!host.error().empty()) throw InputError(host.error());

  AllReduceResult r;
  r.topology = topo.spec();
  r.algorithm = set.algorithm;
  r.flow_control = flow_control_name(opt.ni.flow_control);
  r.dtype = dtype_name(set.dtype);
  r.nodes = topo.nodes();
  r.steps_per_phase = set.steps_per_phase;
  r.bytes = set.bytes;
  for (const auto& ni : nis) {
    r.cycles = std::max(r.cycles, ni->done_cycle());
    r.flits += ni->flits_injected();
    r.head_flits += ni->head_flits_injected();
  }
  const double ns = static_cast<double>(r.cycles) * static_cast<double>(noc.clock_ps) / 1000.0;
  r.bandwidth_gbps = r.cycles ? static_cast<double>(r.bytes) / ns : 0;
  r.bound_cycles = allreduce_bound_cycles(topo, r.bytes, kFlitPayloadBytes);
  r.bound_ratio = r.cycles ? static_cast<double>(r.bound_cycles) / static_cast<double>(r.cycles) : 0;
  r.head_overhead = r.flits ? static_cast<double>(r.head_flits) / static_cast<double>(r.flits) : 0;
  r.router_cycles = net.router_cycles();
  r.issues = std::move(issues);
  for (const auto& [step, span] : spans) r.steps.push_back(span);
  for (uint32_t n = 0; n < topo.nodes(); ++n) {
    for (uint8_t p = kPortYMinus; p <= kPortXPlus; ++p) {
      if (!net.router(n).has_port(p)) continue;
      LinkUse l;
      l.from = n;
      l.to = net.router(n).neighbour(p);
      l.port = port_name(p);
      l.flits = net.flits_out(n, p);
      l.utilisation = r.cycles ? static_cast<double>(l.flits) / static_cast<double>(r.cycles) : 0;
      r.links.push_back(l);
    }
  }
  if (!monitor.stall().empty()) {
    r.error = monitor.stall();
  } else if (net.stalled()) {
    r.error = net.stall_report();
  } else {
    for (uint32_t n = 0; n < topo.nodes() && r.error.empty(); ++n) {
      r.error = data.check(n, memories[n]->data());
    }
  }
  r.verified = r.error.empty();
  if (!trace.fst.empty()) {
    const std::string vcd = trace.vcd_stem + ".vcd";
    const std::string cmd = fmt::format("vcd2fst '{}' '{}' >/dev/null 2>&1", vcd, trace.fst);
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("vcd2fst failed on " + vcd);
    std::remove(vcd.c_str());
  }
  return r;
}

}  // namespace mt::noc
