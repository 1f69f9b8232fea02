// The NI's flit encoder (paper §IV-B, Table II, Fig. 7-8): the flits that carry one DMA burst
// of a send. Combinational: the port asks for flit index_i of the burst and gets its type and
// its 128 data bits (format/ni_formats.json's head fields, or payload). It works from the
// burst's descriptor (burst_descriptor.sv, computed once as the burst entered the NI buffer):
// no arithmetic on the send's size or offset per flit. SystemC twin:
// systemc/ni/flit_encoder.hpp (FlitEncoder::flits and FlitEncoder::encode, in the same order).
//
// Message-based (message_i: a neighbour, source routed): the send is one message with one
// SubHead (op, tree, next, eject, addr, message_bytes) before its first payload flit; payload
// flits are grouped in sub-packets of SUBPACKET_FLITS flits, the head counting in the first;
// a sub-packet ends with a SubTail, the last with the message Tail. Packet-based: every
// PACKET_BYTES of payload get a Head (op, tree, dest, src, addr, message_bytes,
// packet_bytes) and end with a Tail. A zero-byte send is a head and one empty payload flit.
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
  localparam int unsigned FLIT_W = BURST_FLITS > 1 ? $clog2(BURST_FLITS) : 1,
  localparam int unsigned PB_W = $clog2(PACKET_BYTES + 1),
  localparam int unsigned SP_W = SUBPACKET_FLITS > 1 ? $clog2(SUBPACKET_FLITS) : 1,
  // Flits of a burst at most: its payload and one head.
  localparam int unsigned COUNT_W = $clog2(BURST_FLITS + 2)
) (
  // The send's head fields.
  input  logic                     message_i,
  input  logic [2:0]               next_i,
  input  logic [2:0]               eject_i,
  input  logic [NODE_W-1:0]        dest_i,
  input  logic [NODE_W-1:0]        src_i,
  input  logic [NODE_W-1:0]        tree_i,
  input  logic [1:0]               op_i,
  input  logic [SIZE_W-1:0]        bytes_i,
  // The burst's descriptor (burst_descriptor.sv).
  input  logic                     has_head_i,
  input  logic [ADDR_W-1:0]        head_addr_i,
  input  logic [PB_W-1:0]          packet_bytes_i,
  input  logic [FLIT_W-1:0]        last_i,
  input  logic                     ends_i,
  input  logic [4:0]               last_bytes_i,
  input  logic [SP_W-1:0]          phase_i,
  // The burst's payload (byte b of the burst at bits [8b +: 8]).
  input  logic [BURST_BYTES*8-1:0] data_i,
  // Which of the burst's flits.
  input  logic [COUNT_W-1:0]       index_i,
  output logic [COUNT_W-1:0]       count_o,
  output logic [ni_formats_pkg::FLIT_TYPE_BITS-1:0] type_o,
  output logic [ni_formats_pkg::FLIT_DATA_BITS-1:0] data_o
);

  `include "ni_formats.svh"

  logic              head;   // index_i is the burst's head
  logic [FLIT_W-1:0] k;      // the payload flit of the burst at index_i
  logic              last;   // k is the burst's last payload flit
  logic              sub_tail;

  always_comb begin
    logic [FLIT_W-1:0] from_phase;
    count_o = COUNT_W'(last_i) + COUNT_W'(1) + COUNT_W'(has_head_i);
    head = has_head_i && index_i == '0;
    // The head (index 0 of a burst that has one) belongs to the burst's first payload flit.
    k = FLIT_W'(index_i);
    if (has_head_i && index_i != '0) k = k - FLIT_W'(1);
    last = k == last_i;
    from_phase = k - FLIT_W'(phase_i);
    sub_tail = 32'(k) >= 32'(phase_i) && 32'(from_phase) % SUBPACKET_FLITS == 0;
  end

  // The flit at index_i.
  always_comb begin
    logic [127:0] payload;
    payload = data_i[128 * k +: 128];  // offsets are whole flits
    for (int b = 0; b < 16; b++) begin
      if (last && 5'(b) >= last_bytes_i) payload[8*b +: 8] = 8'h00;  // beyond the burst's end
    end
    data_o = payload;
    if (head) begin
      data_o = '0;
      data_o[HEAD_OP_LSB +: HEAD_OP_BITS] = HEAD_OP_BITS'(op_i);
      data_o[HEAD_TREE_LSB +: HEAD_TREE_BITS] = HEAD_TREE_BITS'(tree_i);
      data_o[HEAD_MESSAGE_BYTES_LSB +: HEAD_MESSAGE_BYTES_BITS] = HEAD_MESSAGE_BYTES_BITS'(bytes_i);
      data_o[HEAD_ADDR_LSB +: HEAD_ADDR_BITS] = HEAD_ADDR_BITS'(head_addr_i);
      if (message_i) begin
        type_o = 3'(FLIT_TYPE_SUB_HEAD);
        data_o[HEAD_NEXT_LSB +: HEAD_NEXT_BITS] = HEAD_NEXT_BITS'(next_i);
        data_o[HEAD_EJECT_LSB +: HEAD_EJECT_BITS] = HEAD_EJECT_BITS'(eject_i);
      end else begin
        type_o = 3'(FLIT_TYPE_HEAD);
        data_o[HEAD_DEST_LSB +: HEAD_DEST_BITS] = HEAD_DEST_BITS'(dest_i);
        data_o[HEAD_SRC_LSB +: HEAD_SRC_BITS] = HEAD_SRC_BITS'(src_i);
        data_o[HEAD_PACKET_BYTES_LSB +: HEAD_PACKET_BYTES_BITS] =
            HEAD_PACKET_BYTES_BITS'(packet_bytes_i);
      end
    end else if (message_i) begin
      type_o = last && ends_i ? 3'(FLIT_TYPE_SUB_MESSAGE_TAIL)
             : sub_tail       ? 3'(FLIT_TYPE_SUB_TAIL)
                              : 3'(FLIT_TYPE_SUB_BODY);
    end else begin
      type_o = last && ends_i ? 3'(FLIT_TYPE_TAIL) : 3'(FLIT_TYPE_BODY);
    end
  end

endmodule
