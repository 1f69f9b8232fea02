#include "ni/flit_encoder.hpp"

#include <algorithm>
#include <cstring>

namespace mt::noc {
namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Payload flits of a send (at least one: a zero-byte send still ends its message).
uint64_t payload_flits(uint64_t bytes) {
  return std::max<uint64_t>(1, ceil_div(bytes, kFlitPayloadBytes));
}

}  // namespace

FlitEncoder::FlitEncoder(sc_core::sc_module_name name, uint32_t node, const NocConfig& noc,
                         const NiConfig& ni)
    : sc_module(name),
      node_(node),
      subpacket_flits_(noc.subpacket_flits),
      packet_payload_(ni.packet_payload_bytes) {}

uint64_t FlitEncoder::flits(const SendJob& job) const {
  const uint64_t payload = payload_flits(job.request.bytes);
  if (job.route.source_routed) return 1 + payload;
  return std::max<uint64_t>(1, ceil_div(job.request.bytes, packet_payload_)) + payload;
}

uint64_t FlitEncoder::flits(const SendJob& job, uint64_t offset, uint64_t len) const {
  const uint64_t bytes = job.request.bytes;
  const uint64_t first = offset / kFlitPayloadBytes;
  const uint64_t last = offset + len >= bytes ? payload_flits(bytes)
                                              : ceil_div(offset + len, kFlitPayloadBytes);
  if (job.route.source_routed) return last - first + (first == 0 ? 1 : 0);
  // One head for every packet whose first payload flit is in the range.
  const uint64_t per_packet = packet_payload_ / kFlitPayloadBytes;
  return last - first + ceil_div(last, per_packet) - ceil_div(first, per_packet);
}

uint64_t FlitEncoder::encode(const SendJob& job, uint64_t offset, const uint8_t* data,
                             uint64_t len, std::vector<Flit>& out) const {
  out.reserve(out.size() + flits(job, offset, len));
  FlitVectorSink sink(out);
  return encode(job, offset, data, len, sink);
}

uint64_t FlitEncoder::encode(const SendJob& job, uint64_t offset, const uint8_t* data,
                             uint64_t len, FlitSink& out) const {
  const SendRequest& r = job.request;
  const uint64_t total = payload_flits(r.bytes);
  const uint64_t first = offset / kFlitPayloadBytes;
  const uint64_t last = offset + len >= r.bytes ? total : ceil_div(offset + len, kFlitPayloadBytes);
  const uint64_t per_packet = packet_payload_ / kFlitPayloadBytes;

  // Head fields in their wire widths (a value that does not fit throws, naming the field).
  namespace ff = format::flit;
  Flit proto;
  proto.src = head_field<uint16_t>(node_, ff::kHeadSrc);
  proto.dest = head_field<uint16_t>(r.dest, ff::kHeadDest);
  proto.tree = head_field<uint16_t>(r.flow, ff::kHeadTree);
  proto.op = head_field<uint8_t>(static_cast<uint8_t>(r.op), ff::kHeadOp);
  proto.message_bytes = r.bytes;
  proto.set_next(job.route.next);
  proto.set_eject(job.route.eject);
  proto.route = job.route.route;

  // Each flit is built in its place in `out` from the prototype: no flit is assembled on the
  // stack and copied (its 3-bit fields would be stored narrow and read back wide).
  uint64_t heads = 0;
  for (uint64_t j = first; j < last; ++j) {
    Flit* payload;  // the flit of payload j
    if (job.route.source_routed) {
      const uint64_t n = 1 + total;  // flits of the message
      if (j == 0) {
        Flit& head = out.append(proto);
        ++heads;
        head.type = FlitType::kSubHead;
        head.addr = r.addr;
        head.packet = job.id;
        head.length = static_cast<uint32_t>(n);
      }
      Flit& f = out.append(proto);
      const uint64_t i = j + 1;
      f.packet = job.id;
      f.length = static_cast<uint32_t>(n);
      f.index = static_cast<uint32_t>(i);
      f.type = i + 1 == n                      ? FlitType::kSubMessageTail
               : (i + 1) % subpacket_flits_ == 0 ? FlitType::kSubTail
                                                 : FlitType::kSubBody;
      payload = &f;
    } else {
      const uint64_t p = j / per_packet, k = j % per_packet;
      const uint64_t in_packet = std::min(per_packet, total - p * per_packet);
      if (k == 0) {
        Flit& head = out.append(proto);
        ++heads;
        head.type = FlitType::kHead;
        head.packet_bytes = head_field<uint16_t>(
            std::min<uint64_t>(packet_payload_, r.bytes - p * packet_payload_),
            ff::kHeadPacketBytes);
        head.addr = r.addr + p * packet_payload_;
        head.packet = (job.id << 24) | p;
        head.length = static_cast<uint32_t>(1 + in_packet);
      }
      Flit& f = out.append(proto);
      f.packet = (job.id << 24) | p;
      f.length = static_cast<uint32_t>(1 + in_packet);
      f.index = static_cast<uint32_t>(k + 1);
      f.type = k + 1 == in_packet ? FlitType::kTail : FlitType::kBody;
      payload = &f;
    }
    // Payload: the flit's 16 bytes of the range, zero beyond the end of the send.
    const uint64_t at = j * kFlitPayloadBytes;
    if (at + kFlitPayloadBytes <= r.bytes) {
      std::memcpy(payload->data.data(), data + (at - offset), kFlitPayloadBytes);
    } else if (at < r.bytes) {
      std::memcpy(payload->data.data(), data + (at - offset), r.bytes - at);
    }
  }
  return heads + (last - first);
}

}  // namespace mt::noc
