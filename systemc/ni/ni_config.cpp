#include "ni/ni_config.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "ni_formats.hpp"

namespace mt::noc {

const char* flow_control_name(FlowControl f) {
  return f == FlowControl::kMessage ? "message" : "packet";
}

FlowControl parse_flow_control(const std::string& text) {
  if (text == "message") return FlowControl::kMessage;
  if (text == "packet") return FlowControl::kPacket;
  throw InputError(fmt::format("flow control '{}': expected message or packet", text));
}

void NiConfig::validate() const {
  auto bad = [](const char* field, uint64_t value, const char* want) {
    throw InputError(fmt::format("NI parameter {} = {}: {}", field, value, want));
  };
  if (packet_payload_bytes == 0 || packet_payload_bytes % kFlitPayloadBytes != 0) {
    bad("packet_payload_bytes", packet_payload_bytes, "must be a positive multiple of 16");
  }
  const auto& field = format::flit::kHeadPacketBytes;
  if (packet_payload_bytes >> field.bits != 0) {
    bad("packet_payload_bytes", packet_payload_bytes,
        fmt::format("must fit the head flit's {}-bit {} field", field.bits, field.name).c_str());
  }
  if (dma_burst_bytes == 0 || dma_burst_bytes % kFlitPayloadBytes != 0) {
    bad("dma_burst_bytes", dma_burst_bytes, "must be a positive multiple of 16");
  }
  if (arrival_slots == 0) bad("arrival_slots", arrival_slots, "must be at least 1");
  if (flows == 0) bad("flows", flows, "must be at least 1");
  if (table_entries == 0) bad("table_entries", table_entries, "must be at least 1");
  if (packet_messages == 0) bad("packet_messages", packet_messages, "must be at least 1");
  if (buffer_lines == 0) bad("buffer_lines", buffer_lines, "must be at least 1");
  if (send_queue < 4) bad("send_queue", send_queue, "must hold an entry's 4 sends");
  if (block_slots == 0) bad("block_slots", block_slots, "must be at least 1");
  if (open_messages == 0) bad("open_messages", open_messages, "must be at least 1");
  if (reducing_blocks == 0) bad("reducing_blocks", reducing_blocks, "must be at least 1");
  if (memory_requests == 0) bad("memory_requests", memory_requests, "must be at least 1");
  if (forward_prefix_bytes != 0 && !forward) {
    bad("forward_prefix_bytes", forward_prefix_bytes, "needs forward");
  }
  // A burst becomes at most one payload flit per 16 bytes plus a head per packet it starts.
  const uint64_t burst_flits = 2ull * dma_burst_bytes / kFlitPayloadBytes + 1;
  if (buffer_flits < burst_flits) {
    bad("buffer_flits", buffer_flits,
        fmt::format("must hold one DMA burst ({} flits)", burst_flits).c_str());
  }
}

std::string NiConfig::str() const {
  return fmt::format("flow control {}, packet payload {} B, NI buffer {} flits/port, DMA burst {} B{}",
                     flow_control_name(flow_control), packet_payload_bytes, buffer_flits,
                     dma_burst_bytes, forward ? ", reduced data forwarded" : "");
}

void NiPeaks::include(const NiPeaks& o) {
  for (auto [mine, theirs] : {std::pair{&block_slots, o.block_slots},
                              std::pair{&reducing_blocks, o.reducing_blocks},
                              std::pair{&waiting_blocks, o.waiting_blocks},
                              std::pair{&memory_requests, o.memory_requests},
                              std::pair{&flows, o.flows},
                              std::pair{&table_entries, o.table_entries},
                              std::pair{&packet_messages, o.packet_messages},
                              std::pair{&open_messages, o.open_messages}}) {
    *mine = std::max(*mine, theirs);
  }
}

uint64_t send_flits(uint64_t bytes, const NiConfig& cfg) {
  auto ceil_div = [](uint64_t a, uint64_t b) { return (a + b - 1) / b; };
  const uint64_t payload = std::max<uint64_t>(1, ceil_div(bytes, kFlitPayloadBytes));
  if (cfg.flow_control == FlowControl::kMessage) return 1 + payload;
  const uint64_t packets = std::max<uint64_t>(1, ceil_div(bytes, cfg.packet_payload_bytes));
  return packets + payload;
}

}  // namespace mt::noc
