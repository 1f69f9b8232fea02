// An image set whose every image decodes but whose node 5 no NI can run: the torus:4x4
// MultiTree set with node 5's first two entries (steps 1 and 2) swapped.
#pragma once

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/algorithms.hpp"
#include "image/image.hpp"
#include "table/schedule_table.hpp"
#include "topology/topology.hpp"

namespace mt::test {

// The compiled torus:4x4 MultiTree tables (4 KiB).
inline TableSet torus4x4_tables() {
  PlanOptions po;
  po.bytes = 4096;
  return compile_tables(build_plan(parse_topology("torus:4x4"), "multitree", po), TableOptions{});
}

// The same with node 5's first two entries swapped.
inline TableSet swapped_steps_tables() {
  TableSet set = torus4x4_tables();
  std::swap(set.tables[5].entries[0], set.tables[5].entries[1]);
  return set;
}

// Writes the valid set into `dir`, then node 5's .bin, .hex and .json from the swapped table:
// each file agrees with the others, the manifest and its CRC.
inline void write_swapped_steps_set(const std::string& dir) {
  write_image_set(torus4x4_tables(), dir);
  const TableSet set = swapped_steps_tables();
  const std::string stem = dir + "/" + image_stem(5, set.nodes);
  const std::vector<uint8_t> bin = encode_image(set, 5);
  std::ofstream(stem + ".bin", std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bin.data()), static_cast<std::streamsize>(bin.size()));
  std::ofstream(stem + ".hex", std::ios::trunc) << encode_hex(set, 5);
  std::ofstream(stem + ".json", std::ios::trunc) << table_json_text(set, 5);
}

}  // namespace mt::test
