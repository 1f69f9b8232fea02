// Every packet of a traffic run: when it was offered, when its head left the source endpoint,
// when its tail arrived; plus the measurement-window counters. Plain C++ (the SystemC modules
// report into it), so the bookkeeping is testable without a simulation.
//
// Packet ids are seq * nodes + src (seq counts the source's packets), so they are unique and
// independent of the order in which SystemC runs the sources within a cycle.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "flit/flit.hpp"

namespace mt::noc {

struct PacketRecord {
  static constexpr uint64_t kNever = ~0ull;
  uint32_t src = 0;
  uint32_t dest = 0;
  uint32_t length = 0;
  uint32_t flits_arrived = 0;
  uint64_t created = 0;         // cycle the packet was offered
  uint64_t head_sent = kNever;  // cycle the source endpoint sent its head flit
  uint64_t arrived = kNever;    // cycle its tail was usable at the destination
};

class PacketLog {
 public:
  // Packets created in cycles [window_begin, window_end) are measured.
  PacketLog(uint32_t nodes, uint64_t window_begin, uint64_t window_end);

  uint32_t nodes() const { return nodes_; }
  uint64_t window_begin() const { return begin_; }
  uint64_t window_end() const { return end_; }
  bool in_window(uint64_t cycle) const { return cycle >= begin_ && cycle < end_; }

  // A new packet offered by src in `cycle`; returns its id.
  uint64_t create(uint32_t src, uint32_t dest, uint32_t length, uint64_t cycle);
  void head_sent(uint64_t id, uint64_t cycle);
  // A flit usable at `node` in `cycle`. Checks it belongs there and arrives in order, intact
  // (data words carry the packet id and flit index); problems go to errors().
  void arrive(const Flit& flit, uint32_t node, uint64_t cycle);

  const PacketRecord& record(uint64_t id) const;
  bool known(uint64_t id) const;
  // Calls f for every packet, in id order per source.
  void for_each(const std::function<void(uint64_t id, const PacketRecord&)>& f) const;

  // Window counters.
  uint64_t measured_created() const { return measured_created_; }
  uint64_t measured_arrived() const { return measured_arrived_; }
  uint64_t flits_created_in_window() const { return flits_created_in_window_; }
  uint64_t flits_ejected_in_window() const { return flits_ejected_in_window_; }
  // Packets offered whose head has not left the source yet (source queue length, summed).
  uint64_t waiting_at_sources() const { return created_ - heads_sent_; }
  uint64_t created() const { return created_; }
  // Flits offered but not yet ejected: in source queues, endpoints and the network.
  uint64_t flits_in_system() const { return flits_created_ - flits_ejected_; }
  // The same per destination node.
  std::vector<uint64_t> flits_in_system_by_dest() const;
  // Per destination node: flits offered to it during the window, flits it ejected during
  // the window.
  const std::vector<uint64_t>& flits_created_in_window_by_dest() const { return window_to_; }
  const std::vector<uint64_t>& flits_ejected_in_window_by_dest() const { return window_at_; }
  // Per source node: its flits ejected (anywhere) during the window.
  const std::vector<uint64_t>& flits_ejected_in_window_by_src() const { return window_from_; }

  // After the window closes (no measured packet can be created any more), `on_drained` runs
  // once the last measured packet arrives (at once if it already has).
  void close_window(std::function<void()> on_drained);
  bool drained() const { return closed_ && measured_arrived_ == measured_created_; }

  // Records a protocol violation (a source's own checks use this too).
  void error(std::string what);
  // Protocol violations seen (at most 20 kept, plus a count).
  const std::vector<std::string>& errors() const { return errors_; }
  uint64_t error_count() const { return error_count_; }

  // The data words a source puts in flit `index` of packet `id`, checked on arrival.
  static std::array<uint32_t, 4> payload(uint64_t id, uint32_t index);

 private:
  PacketRecord* find(uint64_t id);

  uint32_t nodes_;
  uint64_t begin_, end_;
  std::vector<std::vector<PacketRecord>> by_src_;  // [src][seq]
  uint64_t created_ = 0, heads_sent_ = 0;
  uint64_t flits_created_ = 0, flits_ejected_ = 0;
  std::vector<uint64_t> created_to_, ejected_at_;  // all flits, per destination
  std::vector<uint64_t> window_to_, window_at_;    // window flits, per destination
  std::vector<uint64_t> window_from_;              // window flits ejected, per source
  uint64_t measured_created_ = 0, measured_arrived_ = 0;
  uint64_t flits_created_in_window_ = 0, flits_ejected_in_window_ = 0;
  bool closed_ = false;
  std::function<void()> on_drained_;
  std::vector<std::string> errors_;
  uint64_t error_count_ = 0;
};

}  // namespace mt::noc
