// The flits one DMA burst of a send takes (paper §IV-B, Table II): its payload flits and, where
// it starts a message or a packet, that head. The send channel asks it before it reads a burst
// (room in the NI buffer), the flit encoder (flit_encoder.sv) when it makes the burst's flits.
// SystemC twin: FlitEncoder::flits(job, offset, len) (systemc/ni/flit_encoder.hpp).
//
// The burst is payload bytes [offset_i, offset_i + len_i) of a send of bytes_i bytes: offset_i
// a multiple of 16 (and of PACKET_BYTES in packet mode), len_i at most BURST_BYTES and short
// only at the send's end. A zero-byte send is one empty payload flit.
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
  input  logic [SIZE_W-1:0] bytes_i,
  input  logic [SIZE_W-1:0] offset_i,
  input  logic [SIZE_W-1:0] len_i,
  // Payload flits of the whole send, and the send's payload flit the burst starts at.
  output logic [SIZE_W:0]   total_o,
  output logic [SIZE_W:0]   first_o,
  // The burst starts a message or a packet: its flit 0 is that head.
  output logic              has_head_o,
  output logic [COUNT_W-1:0] count_o
);

  localparam int unsigned PerPacket = PACKET_BYTES / 16;  // payload flits of a full packet

  // The burst's payload flits: ceil(len_i / 16), as offset_i is on a flit (the send's last
  // flit, where the burst ends, is its ceil(bytes_i / 16)-th), and one for a zero-byte send.
  // Only len_i's low bits reach the count: no carry runs through the send's size or offset.
  always_comb begin
    logic [COUNT_W+3:0] len_low;
    total_o = ({1'b0, bytes_i} + (SIZE_W + 1)'(15)) >> 4;
    if (total_o == '0) total_o = (SIZE_W + 1)'(1);
    first_o = {1'b0, offset_i} >> 4;
    has_head_o = message_i ? first_o == '0 : first_o % (SIZE_W + 1)'(PerPacket) == '0;
    len_low = (COUNT_W + 4)'(len_i);
    count_o = len_i == '0 ? COUNT_W'(1) : COUNT_W'((len_low + (COUNT_W + 4)'(15)) >> 4);
    count_o = count_o + COUNT_W'(has_head_o);
  end

endmodule
