// What a DMA burst's flits need from its send, computed once per burst as the send channel
// asks for the burst (rtl/send_channel.sv keeps it with the burst's read, rtl/endpoint.sv with
// the burst's data): the head the burst starts, where its payload flits end and which of them
// are tails. The flit encoder (flit_encoder.sv) then
// makes each flit from these fields with no arithmetic on the send's size or offset. SystemC
// twin: the head and type rules of FlitEncoder::encode (systemc/ni/flit_encoder.cpp), which
// works from the send and the burst's offset.
//
// The burst is payload bytes [offset_i, offset_i + len_i) of a send with left_i bytes from
// offset_i on: offset_i a multiple of BURST_BYTES, len_i at most BURST_BYTES and short only at
// the end of the send (zero for a zero-byte send: one empty payload flit). PACKET_BYTES is a
// multiple of BURST_BYTES, so a burst lies in one packet and holds at most one head, at its
// first flit.
module burst_descriptor #(
  // Width of addresses.
  parameter int unsigned ADDR_W = 32,
  // Width of sizes and offsets.
  parameter int unsigned SIZE_W = 32,
  // Bytes of one DMA burst (a multiple of 16).
  parameter int unsigned BURST_BYTES = 256,
  // Payload bytes of a packet in packet-based flow control (a multiple of BURST_BYTES).
  parameter int unsigned PACKET_BYTES = 256,
  // Flits of a sub-packet, the message head counting in the first.
  parameter int unsigned SUBPACKET_FLITS = 16,
  localparam int unsigned BURST_FLITS = BURST_BYTES / 16,
  localparam int unsigned FLIT_W = BURST_FLITS > 1 ? $clog2(BURST_FLITS) : 1,
  localparam int unsigned PB_W = $clog2(PACKET_BYTES + 1),
  localparam int unsigned PF_W = $clog2(PACKET_BYTES / 16 + 2),
  localparam int unsigned SP_W = SUBPACKET_FLITS > 1 ? $clog2(SUBPACKET_FLITS) : 1
) (
  // 1: message-based (one head for the send); 0: packet-based (a head per PACKET_BYTES).
  input  logic              message_i,
  // The burst's address (its send's address plus offset_i).
  input  logic [ADDR_W-1:0] addr_i,
  // The send's bytes from offset_i on (its size less offset_i).
  input  logic [SIZE_W-1:0] left_i,
  input  logic [SIZE_W-1:0] offset_i,
  input  logic [SIZE_W-1:0] len_i,
  // The burst's flit 0 is the head of its message or packet.
  output logic              has_head_o,
  // The head's Addr (the payload's address) and, in a packet, its payload bytes and the
  // flits the packet takes (its head and payload flits).
  output logic [ADDR_W-1:0] head_addr_o,
  output logic [PB_W-1:0]   packet_bytes_o,
  output logic [PF_W-1:0]   packet_flits_o,
  // The burst's last payload flit (counted from 0), whether it ends its message (message
  // mode) or packet (packet mode), and its valid bytes (the rest are sent as zeros).
  output logic [FLIT_W-1:0] last_o,
  output logic              ends_o,
  output logic [4:0]        last_bytes_o,
  // Message mode: the payload flits k of the burst with k = phase_o modulo SUBPACKET_FLITS
  // end a sub-packet (SubTail), unless they end the message.
  output logic [SP_W-1:0]   phase_o
);

  localparam int unsigned BurstsPerPacket = PACKET_BYTES / BURST_BYTES;

  // Elaboration checks (Verilator and Yosys both stop on them).
  if (BURST_BYTES % 16 != 0 || BURST_BYTES == 0) begin : g_bad_burst
    $error("burst_descriptor: BURST_BYTES must be a positive multiple of 16");
  end
  if (PACKET_BYTES % BURST_BYTES != 0) begin : g_bad_packet
    $error("burst_descriptor: PACKET_BYTES must be a multiple of BURST_BYTES");
  end

  always_comb begin
    logic [SIZE_W:0] left, first, burst;
    logic            ends_send;
    logic [FLIT_W+4:0] len_low;
    left = {1'b0, left_i};
    first = {1'b0, offset_i} >> 4;              // the send's payload flit the burst starts at
    burst = {1'b0, offset_i} / (SIZE_W + 1)'(BURST_BYTES);
    ends_send = left <= {1'b0, len_i};
    has_head_o = message_i ? offset_i == '0 : burst % (SIZE_W + 1)'(BurstsPerPacket) == '0;
    head_addr_o = addr_i;
    packet_bytes_o = left > (SIZE_W + 1)'(PACKET_BYTES) ? PB_W'(PACKET_BYTES) : PB_W'(left);
    // A packet's flits: its head and at least one payload flit.
    packet_flits_o = PF_W'(((SIZE_W + 1)'(packet_bytes_o) + (SIZE_W + 1)'(15)) >> 4);
    if (packet_flits_o == '0) packet_flits_o = PF_W'(1);
    packet_flits_o = packet_flits_o + PF_W'(1);
    // Only len_i's low bits: the burst is at most BURST_BYTES.
    len_low = (FLIT_W + 5)'(len_i);
    last_o = len_i == '0 ? '0 : FLIT_W'((len_low - (FLIT_W + 5)'(1)) >> 4);
    last_bytes_o = len_i == '0 ? 5'd0 : 5'(len_low - (FLIT_W + 5)'({last_o, 4'b0}));
    ends_o = message_i ? ends_send
                       : ends_send || (32'(len_i) == BURST_BYTES &&
                                       (burst + (SIZE_W + 1)'(1)) %
                                       (SIZE_W + 1)'(BurstsPerPacket) == '0);
    // Payload flit j of the send is flit j + 1 of its message; flit i ends a sub-packet when
    // i + 1 is a multiple of SUBPACKET_FLITS: k = -(first + 2) modulo SUBPACKET_FLITS.
    phase_o = SP_W'(((SIZE_W + 1)'(SUBPACKET_FLITS) -
                     (first + (SIZE_W + 1)'(2)) % (SIZE_W + 1)'(SUBPACKET_FLITS)) %
                    (SIZE_W + 1)'(SUBPACKET_FLITS));
  end

endmodule
