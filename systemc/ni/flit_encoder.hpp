// The NI's flit encoder (paper §IV-B, Table II, Fig. 7-8): turns the data of a send, burst by
// burst as the DMA delivers it, into flits.
//
// Message-based (a neighbour, source routed): the whole chunk is one message with one head
// flit (SubHead: Next, Eject, Tree ID); flits are grouped in sub-packets of subpacket_flits,
// the head counting in the first; a sub-packet ends with a SubTail, the last with the
// message Tail. Packet-based (the baseline, and any partner that is not a neighbour): every
// packet_payload_bytes get a Head (Dest, Src, Tree ID) and end with a Tail.
//
// Every head also carries Op, the payload's address, the message's size in bytes and, in a
// packet, the packet's payload bytes: the spare Packet Info bits of Fig. 8 (the receiver needs
// them to place data and to know when a message is complete; systemc/ni/README.md).
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

#include "flit/flit.hpp"
#include "flit/flit_sink.hpp"
#include "ni/decoder.hpp"
#include "ni/ni_config.hpp"
#include "noc/noc_config.hpp"

namespace mt::noc {

struct SendRoute {
  bool source_routed = false;  // message-based to a neighbour
  uint8_t next = 0;            // output port at this node's router
  uint8_t eject = 0;           // ejection port at the neighbour's router
  uint32_t route = 0;          // switch networks: the Route field (flit/source_route.hpp)
  uint32_t port_index = 0;     // NI injection port (local port index) it leaves by
};

struct SendJob {
  SendRequest request;
  SendRoute route;
  uint64_t id = 0;  // unique per NI run; flits' bookkeeping packet ids derive from it
};

class FlitEncoder : public sc_core::sc_module {
 public:
  FlitEncoder(sc_core::sc_module_name name, uint32_t node, const NocConfig& noc,
              const NiConfig& ni);

  // Flits the whole send takes, and those encode() appends for bytes [offset, offset + len).
  uint64_t flits(const SendJob& job) const;
  uint64_t flits(const SendJob& job, uint64_t offset, uint64_t len) const;
  // Appends the flits that carry payload bytes [offset, offset + len) of the send, each
  // preceded by the head of the message or packet it starts. `offset` is a multiple of 16
  // and of the packet payload where packets are used; `len` is too unless the range reaches
  // the end of the send (a zero-byte send is one empty payload flit: offset 0, len 0).
  // Returns the number of flits appended.
  uint64_t encode(const SendJob& job, uint64_t offset, const uint8_t* data, uint64_t len,
                  FlitSink& out) const;
  uint64_t encode(const SendJob& job, uint64_t offset, const uint8_t* data, uint64_t len,
                  std::vector<Flit>& out) const;

 private:
  uint32_t node_;
  uint32_t subpacket_flits_;
  uint32_t packet_payload_;
};

}  // namespace mt::noc
