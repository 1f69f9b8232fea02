// The image-set manifest and the plan pipeline targets.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "algorithms/algorithms.hpp"
#include "common/error.hpp"
#include "finding.hpp"
#include "image/image.hpp"
#include "targets.hpp"
#include "topology/topology.hpp"
#include "verifier/verifier.hpp"

namespace mt::fuzz {
namespace {

namespace fs = std::filesystem;

class Bytes {
 public:
  Bytes(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  uint8_t u8() { return i_ < n_ ? d_[i_++] : 0; }
  uint64_t u64() {
    uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v = v << 8 | u8();
    return v;
  }
  uint32_t pick(uint32_t lo, uint32_t hi) { return lo + u8() % (hi - lo + 1); }
  bool more() const { return i_ < n_; }

 private:
  const uint8_t* d_;
  size_t n_, i_ = 0;
};

// A valid 4-node image set in a private directory, made once per process and removed at exit
// (the path lives on the heap, so it outlives every static destructor).
const fs::path& set_dir() {
  static const fs::path* const dir = [] {
    const fs::path d = fs::temp_directory_path() / fmt::format("mt_fuzz_manifest_{}", ::getpid());
    const Topology topo = parse_topology("ring:4");
    PlanOptions po;
    po.bytes = 256;
    const Plan p = build_plan(topo, "ring", po);
    write_image_set(compile_tables(p, TableOptions{}), (d / "set").string());
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(set_dir().parent_path(), ec);
    });
    return new fs::path(d / "set");
  }();
  return *dir;
}

// A small random network: 2..8 nodes, 0..3 switches, links picked from the bytes.
std::string random_network(Bytes& b) {
  const uint32_t nodes = b.pick(2, 8), switches = b.pick(0, 3), links = b.pick(1, 16);
  nlohmann::json j;
  for (uint32_t n = 0; n < nodes; ++n) j["nodes"].push_back(n);
  for (uint32_t s = 0; s < switches; ++s) j["switches"].push_back(s);
  j["links"] = nlohmann::json::array();
  auto end = [&](uint8_t v) {
    const uint32_t id = v % (nodes + switches);
    return id < nodes ? fmt::format("n{}", id) : fmt::format("s{}", id - nodes);
  };
  for (uint32_t l = 0; l < links; ++l) {
    j["links"].push_back({{"a", end(b.u8())}, {"b", end(b.u8())}, {"width", b.pick(1, 2)}});
  }
  return j.dump();
}

Topology small_topology(Bytes& b) {
  switch (b.u8() % 6) {
    case 0: return parse_topology(fmt::format("torus:{}x{}", b.pick(1, 5), b.pick(1, 5)));
    case 1: return parse_topology(fmt::format("mesh:{}x{}", b.pick(1, 5), b.pick(1, 5)));
    case 2: return parse_topology(fmt::format("ring:{}", b.pick(2, 12)));
    case 3: return parse_topology(fmt::format("fattree:{}x{}", b.pick(2, 3), b.pick(1, 3)));
    case 4: return parse_topology(fmt::format("bigraph:{}x{}", b.pick(1, 3), b.pick(1, 3)));
    default: return parse_topology_json(random_network(b), "file:fuzz.json");
  }
}

void check_round_trip(const TableSet& set, const ImageOptions& io) {
  for (uint32_t n = 0; n < set.nodes; ++n) {
    const std::vector<uint8_t> bin = encode_image(set, n, io);
    const DecodedImage d = decode_image(bin, ImageExpect{n, set.nodes});
    if (!(d.table.entries == set.tables[n].entries)) finding(fmt::format("node {}: .bin differs", n));
    const DecodedImage h = decode_hex(encode_hex(set, n, io), ImageExpect{n, set.nodes});
    if (!(h.table.entries == set.tables[n].entries)) finding(fmt::format("node {}: .hex differs", n));
  }
}

}  // namespace

void manifest(const uint8_t* data, size_t size) {
  const fs::path& dir = set_dir();
  {
    std::ofstream f(dir / "manifest.json", std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  accepts([&] { read_image_set(dir.string()); });
}

void plan(const uint8_t* data, size_t size) {
  Bytes b(data, size);
  static const char* const kAlgorithms[] = {"multitree", "ring",   "ring-bi",      "ring2d",
                                            "dbtree",    "hdrm",   "multitree-opt"};
  constexpr size_t kCount = sizeof(kAlgorithms) / sizeof(kAlgorithms[0]);
  accepts([&] {
    const Topology topo = small_topology(b);
    PlanOptions po;
    po.bytes = 4ull * b.pick(1, 255);
    po.dtype = b.u8() % 2 ? DType::kInt32 : DType::kFp32;
    po.prioritize_height = b.u8() % 2;
    po.chunks = b.pick(0, 4);
    const Plan p = build_plan(topo, kAlgorithms[b.u8() % kCount], po);
    require_valid(p, topo);
    TableOptions to;
    to.children_slots = b.pick(1, 4);
    to.base_addr = b.u8() % 2 ? b.u64() : 4ull * b.u8();
    const TableSet set = compile_tables(p, to);
    const VerifyReport r = verify_tables(set, topo, 5);
    if (!r.ok()) finding("compiled tables of a verified plan do not verify: " + r.errors.front());
    ImageOptions io;
    io.addr_bits = b.pick(1, 64);
    io.size_bits = b.pick(1, 64);
    bool fits = true;
    try {
      image_layout(set, io);
      for (uint32_t n = 0; n < set.nodes; ++n) encode_image(set, n, io);
    } catch (const InputError&) {
      fits = false;  // field widths too narrow for these values: a clean refusal
    }
    if (fits) check_round_trip(set, io);
  });
}

Target find(const std::string& name) {
  if (name == "image") return &image;
  if (name == "manifest") return &manifest;
  if (name == "topology") return &topology;
  if (name == "plan") return &plan;
  return nullptr;
}

}  // namespace mt::fuzz
