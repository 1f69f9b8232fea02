// The NI's flit encoder (paper §IV-B, Table II, Fig. 7-8): the flits that carry one DMA burst
// of a send. Combinational: the port asks for flit index_i of the burst and gets its type and
// its 128 data bits (format/ni_formats.json's head fields, or payload). SystemC twin:
// systemc/ni/flit_encoder.hpp (FlitEncoder::flits and FlitEncoder::encode, in the same order).
//
// Message-based (message_i: a neighbour, source routed): the send is one message with one
// SubHead (op, tree, next, eject, addr, message_bytes) before its first payload flit; payload
// flits are grouped in sub-packets of SUBPACKET_FLITS flits, the head counting in the first;
// a sub-packet ends with a SubTail, the last with the message Tail. Packet-based: every
// PACKET_BYTES of payload get a Head (op, tree, dest, src, addr, message_bytes,
// packet_bytes) and end with a Tail. A zero-byte send is a head and one empty payload flit.
//
// The burst is payload bytes [offset_i, offset_i + len_i) of the send: offset_i a multiple of
// BURST_BYTES, len_i at most BURST_BYTES and short only at the end of the send. PACKET_BYTES
// is a multiple of BURST_BYTES, so a burst holds at most one packet start, at its first flit.
module flit_encoder #(
  // Width of node ids and of the Tree ID.
  parameter int unsigned NODE_W = 8,
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
  // Flits of a burst at most: its payload and one head.
  localparam int unsigned COUNT_W = $clog2(BURST_FLITS + 2)
) (
  // The send.
  input  logic                     message_i,
  input  logic [2:0]               next_i,
  input  logic [2:0]               eject_i,
  input  logic [NODE_W-1:0]        dest_i,
  input  logic [NODE_W-1:0]        src_i,
  input  logic [NODE_W-1:0]        tree_i,
  input  logic [1:0]               op_i,
  input  logic [ADDR_W-1:0]        addr_i,
  input  logic [SIZE_W-1:0]        bytes_i,
  // The burst and its payload (byte b of the burst at bits [8b +: 8]).
  input  logic [SIZE_W-1:0]        offset_i,
  input  logic [SIZE_W-1:0]        len_i,
  input  logic [BURST_BYTES*8-1:0] data_i,
  // Which of the burst's flits.
  input  logic [COUNT_W-1:0]       index_i,
  output logic [COUNT_W-1:0]       count_o,
  output logic [ni_formats_pkg::FLIT_TYPE_BITS-1:0] type_o,
  output logic [ni_formats_pkg::FLIT_DATA_BITS-1:0] data_o
);

  `include "ni_formats.svh"

  localparam int unsigned PerPacket = PACKET_BYTES / 16;  // payload flits of a full packet

  // Elaboration checks (Verilator and Yosys both stop on them).
  if (BURST_BYTES % 16 != 0 || BURST_BYTES == 0) begin : g_bad_burst
    $error("flit_encoder: BURST_BYTES must be a positive multiple of 16");
  end
  if (PACKET_BYTES % BURST_BYTES != 0) begin : g_bad_packet
    $error("flit_encoder: PACKET_BYTES must be a multiple of BURST_BYTES");
  end

  localparam int unsigned FLIT_W = BURST_FLITS > 1 ? $clog2(BURST_FLITS) : 1;

  logic [SIZE_W:0]  total, first;    // payload flits of the send; the burst's first
  logic             has_head;        // the burst starts a message or packet
  logic [SIZE_W:0]  j;               // payload flit of the send at index_i
                                     // (for a head: the one it precedes)
  logic [FLIT_W-1:0] in_burst;       // payload flit of the burst at index_i
  logic [SIZE_W:0]  packet;          // packet of flit j (packet mode)

  flit_count #(
    .SIZE_W(SIZE_W), .BURST_BYTES(BURST_BYTES), .PACKET_BYTES(PACKET_BYTES)
  ) u_count (
    .message_i, .bytes_i, .offset_i, .len_i,
    .total_o(total), .first_o(first), .has_head_o(has_head), .count_o
  );

  always_comb begin
    // The head (index 0 of a burst that has one) belongs to the burst's first payload flit.
    in_burst = FLIT_W'(index_i);
    if (has_head && index_i != '0) in_burst = in_burst - FLIT_W'(1);
    j = first + (SIZE_W + 1)'(in_burst);
    packet = j / (SIZE_W + 1)'(PerPacket);
  end

  // The flit at index_i.
  always_comb begin
    logic [SIZE_W:0] in_packet, at, left;
    logic [127:0] payload;
    type_o = 3'(FLIT_TYPE_SUB_BODY);
    data_o = '0;
    in_packet = '0;
    at = j << 4;  // the payload flit's first byte in the send
    left = {1'b0, bytes_i} > at ? {1'b0, bytes_i} - at : '0;
    payload = data_i[128 * in_burst +: 128];  // offsets are whole flits
    for (int b = 0; b < 16; b++) begin
      if ((SIZE_W + 1)'(b) >= left) payload[8*b +: 8] = 8'h00;  // beyond the send's end
    end
    if (has_head && index_i == '0) begin
      data_o[HEAD_OP_LSB +: HEAD_OP_BITS] = HEAD_OP_BITS'(op_i);
      data_o[HEAD_TREE_LSB +: HEAD_TREE_BITS] = HEAD_TREE_BITS'(tree_i);
      data_o[HEAD_MESSAGE_BYTES_LSB +: HEAD_MESSAGE_BYTES_BITS] = HEAD_MESSAGE_BYTES_BITS'(bytes_i);
      if (message_i) begin
        type_o = 3'(FLIT_TYPE_SUB_HEAD);
        data_o[HEAD_NEXT_LSB +: HEAD_NEXT_BITS] = HEAD_NEXT_BITS'(next_i);
        data_o[HEAD_EJECT_LSB +: HEAD_EJECT_BITS] = HEAD_EJECT_BITS'(eject_i);
        data_o[HEAD_ADDR_LSB +: HEAD_ADDR_BITS] = HEAD_ADDR_BITS'(addr_i);
      end else begin
        type_o = 3'(FLIT_TYPE_HEAD);
        data_o[HEAD_DEST_LSB +: HEAD_DEST_BITS] = HEAD_DEST_BITS'(dest_i);
        data_o[HEAD_SRC_LSB +: HEAD_SRC_BITS] = HEAD_SRC_BITS'(src_i);
        data_o[HEAD_ADDR_LSB +: HEAD_ADDR_BITS] =
            HEAD_ADDR_BITS'((SIZE_W + 1)'(addr_i) + packet * (SIZE_W + 1)'(PACKET_BYTES));
        in_packet = {1'b0, bytes_i} - packet * (SIZE_W + 1)'(PACKET_BYTES);
        if (in_packet > (SIZE_W + 1)'(PACKET_BYTES)) in_packet = (SIZE_W + 1)'(PACKET_BYTES);
        data_o[HEAD_PACKET_BYTES_LSB +: HEAD_PACKET_BYTES_BITS] = HEAD_PACKET_BYTES_BITS'(in_packet);
      end
    end else if (message_i) begin
      // Position j + 1 of the 1 + total flits of the message.
      data_o = payload;
      if (j + (SIZE_W + 1)'(2) == total + (SIZE_W + 1)'(1)) begin
        type_o = 3'(FLIT_TYPE_SUB_MESSAGE_TAIL);
      end else if ((j + (SIZE_W + 1)'(2)) % (SIZE_W + 1)'(SUBPACKET_FLITS) == '0) begin
        type_o = 3'(FLIT_TYPE_SUB_TAIL);
      end else begin
        type_o = 3'(FLIT_TYPE_SUB_BODY);
      end
    end else begin
      data_o = payload;
      in_packet = total - packet * (SIZE_W + 1)'(PerPacket);
      if (in_packet > (SIZE_W + 1)'(PerPacket)) in_packet = (SIZE_W + 1)'(PerPacket);
      type_o = j % (SIZE_W + 1)'(PerPacket) + (SIZE_W + 1)'(1) == in_packet ?
               3'(FLIT_TYPE_TAIL) : 3'(FLIT_TYPE_BODY);
    end
  end

endmodule
