// The flits one DMA burst of a send takes (paper §IV-B, Table II): its payload flits and, where
// it starts a message or a packet, that head. The send channel asks it before it reads a burst
// (room in the NI buffer).
// SystemC twin: FlitEncoder::flits(job, offset, len) (systemc/ni/flit_encoder.hpp).
//
// The burst is payload bytes [offset_i, offset_i + len_i) of a send: offset_i a multiple of
// BURST_BYTES (start_i: it is 0, the send's first burst), len_i at most BURST_BYTES and short
// only at the send's end. A zero-byte send is one empty payload flit. No carry runs through
// the send's size or offset: the count takes len_i's low bits, and offset_i only modulo
// PACKET_BYTES.
module flit_count #(
  // Width of sizes and offsets.
  parameter int unsigned SIZE_W = 32,
  // Bytes of one DMA burst (a multiple of 16).
  parameter int unsigned BURST_BYTES = 256,
  // Payload bytes of a packet in packet-based flow control (a multiple of BURST_BYTES).
  parameter int unsigned PACKET_BYTES = 256,
  // Flits of a burst at most: its payload and one head.
  localparam int unsigned COUNT_W = $clog2(BURST_BYTES / 16 + 2)
) (
  // 1: message-based (one head for the send); 0: packet-based (a head per PACKET_BYTES).
  input  logic              message_i,
  input  logic              start_i,
  input  logic [SIZE_W-1:0] offset_i,
  input  logic [SIZE_W-1:0] len_i,
  output logic [COUNT_W-1:0] count_o
);

  localparam int unsigned PerPacket = PACKET_BYTES / 16;  // payload flits of a full packet

  // The burst's payload flits, ceil(len_i / 16) (one for a zero-byte send), and its head: a
  // message's at its first burst, a packet's at every PACKET_BYTES.
  always_comb begin
    logic [COUNT_W+3:0] len_low;
    logic               has_head;
    has_head = message_i ? start_i : (offset_i >> 4) % SIZE_W'(PerPacket) == '0;
    len_low = (COUNT_W + 4)'(len_i);
    count_o = len_i == '0 ? COUNT_W'(1) : COUNT_W'((len_low + (COUNT_W + 4)'(15)) >> 4);
    count_o = count_o + COUNT_W'(has_head);
  end

endmodule
