// The NI's all-reduce schedule table (paper §IV-A, Fig. 6): the entries of one node's table
// image, loaded by the host through a TLM-2.0 configuration target or from a file. The image
// format is host_sw/image/IMAGE_FORMAT.md; the same .bin the RTL loads.
//
// Configuration target (generic payload, little-endian, 32-bit registers):
//   [kImageBase, kImageBase + kImageWindow)  image window: the host writes the .bin here
//   kRegLength   write: bytes of the image in the window
//   kRegLoad     write 1: decode the image and install its table (the previous one stays if
//                the image is rejected)
//   kRegStatus   read: kStatusEmpty, kStatusLoaded or kStatusError
//   kRegEntries  read: entries of the installed table
// Anything else, or an access of the wrong size, answers TLM_ADDRESS_ERROR_RESPONSE.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "table/schedule_table.hpp"

namespace mt::noc {

class NiScheduleTable : public sc_core::sc_module {
 public:
  // The register map of format/ni_formats.json (the RTL's is generated from the same file).
  static constexpr uint64_t kImageBase = format::config::kImageBase;
  static constexpr uint64_t kImageWindow = format::config::kImageWindow;
  static constexpr uint64_t kRegLength = format::config::kRegLength;
  static constexpr uint64_t kRegLoad = format::config::kRegLoad;
  static constexpr uint64_t kRegStatus = format::config::kRegStatus;
  static constexpr uint64_t kRegEntries = format::config::kRegEntries;
  enum Status : uint32_t {
    kStatusEmpty = format::table_status::kEmpty,
    kStatusLoaded = format::table_status::kLoaded,
    kStatusError = format::table_status::kError,
  };

  // An image is accepted only for `node` of a `nodes`-node network and of at most `capacity`
  // entries (NiConfig::table_entries).
  NiScheduleTable(sc_core::sc_module_name name, uint32_t node, uint32_t nodes,
                  uint32_t capacity);

  tlm_utils::simple_target_socket<NiScheduleTable> config;

  // Loads node_NN.bin from a file; throws mt::InputError naming the file and the problem.
  void load_file(const std::string& path);

  Status status() const { return status_; }
  // Why the last image was rejected (empty after a successful load).
  const std::string& error() const { return error_; }
  const std::vector<TableEntry>& entries() const { return table_.entries; }
  uint32_t steps_per_phase() const { return steps_per_phase_; }
  uint32_t children_slots() const { return children_slots_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  // Decodes `image`; installs it and returns true, or records the error and returns false.
  bool install(const std::vector<uint8_t>& image);
  // Reads or writes [offset, offset + len) of the image window (inside it: the caller checks).
  // The window reads as zeros where nothing was written; only the bytes up to the last one
  // written are held, so an NI holds its image's bytes, not the whole 1 MiB window.
  void window_access(uint64_t offset, uint8_t* data, uint32_t len, bool write);

  uint32_t node_, nodes_, capacity_;
  std::vector<uint8_t> window_;  // the window's first bytes; the rest reads as zeros
  uint32_t length_ = 0;
  Status status_ = kStatusEmpty;
  std::string error_;
  mt::ScheduleTable table_;
  uint32_t steps_per_phase_ = 0, children_slots_ = 0;
};

}  // namespace mt::noc
