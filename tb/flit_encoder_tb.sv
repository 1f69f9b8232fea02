// The flit encoder as the NI buffer uses it (simulation only): a burst's descriptor
// (rtl/burst_descriptor.sv) computed from its send, offset and length, then its flits
// (rtl/flit_encoder.sv). tb/flit_encoder_test.cpp drives it with the send's fields and the
// burst, flit index by flit index.
module flit_encoder_tb #(
  parameter int unsigned NODE_W = 8,
  parameter int unsigned ADDR_W = 32,
  parameter int unsigned SIZE_W = 32,
  parameter int unsigned BURST_BYTES = 256,
  parameter int unsigned PACKET_BYTES = 256,
  parameter int unsigned SUBPACKET_FLITS = 16,
  localparam int unsigned BURST_FLITS = BURST_BYTES / 16,
  localparam int unsigned FLIT_W = BURST_FLITS > 1 ? $clog2(BURST_FLITS) : 1,
  localparam int unsigned PB_W = $clog2(PACKET_BYTES + 1),
  localparam int unsigned PF_W = $clog2(PACKET_BYTES / 16 + 2),
  localparam int unsigned SP_W = SUBPACKET_FLITS > 1 ? $clog2(SUBPACKET_FLITS) : 1,
  localparam int unsigned COUNT_W = $clog2(BURST_FLITS + 2)
) (
  input  logic                     message_i,
  input  logic [2:0]               next_i,
  input  logic [2:0]               eject_i,
  input  logic [NODE_W-1:0]        dest_i,
  input  logic [NODE_W-1:0]        src_i,
  input  logic [NODE_W-1:0]        tree_i,
  input  logic [1:0]               op_i,
  input  logic [ADDR_W-1:0]        addr_i,
  input  logic [SIZE_W-1:0]        bytes_i,
  input  logic [SIZE_W-1:0]        offset_i,
  input  logic [SIZE_W-1:0]        len_i,
  input  logic [BURST_BYTES*8-1:0] data_i,
  input  logic [COUNT_W-1:0]       index_i,
  output logic [COUNT_W-1:0]       count_o,
  // flit_count.sv's count, which the send channel asks before it reads the burst.
  output logic [COUNT_W-1:0]       fetch_count_o,
  // The flits a packet-mode head reserves (the endpoint's cut-through check).
  output logic [PF_W-1:0]          packet_flits_o,
  output logic [ni_formats_pkg::FLIT_TYPE_BITS-1:0] type_o,
  output logic [ni_formats_pkg::FLIT_DATA_BITS-1:0] data_o
);

  logic              has_head, ends;
  logic [ADDR_W-1:0] head_addr;
  logic [PB_W-1:0]   packet_bytes;
  logic [FLIT_W-1:0] last;
  logic [4:0]        last_bytes;
  logic [SP_W-1:0]   phase;

  flit_count #(
    .SIZE_W(SIZE_W), .BURST_BYTES(BURST_BYTES), .PACKET_BYTES(PACKET_BYTES)
  ) u_count (
    .message_i, .start_i(offset_i == '0), .offset_i, .len_i, .count_o(fetch_count_o)
  );

  burst_descriptor #(
    .ADDR_W(ADDR_W), .SIZE_W(SIZE_W), .BURST_BYTES(BURST_BYTES), .PACKET_BYTES(PACKET_BYTES),
    .SUBPACKET_FLITS(SUBPACKET_FLITS)
  ) u_descriptor (
    .message_i, .addr_i(addr_i + offset_i), .left_i(bytes_i - offset_i), .offset_i, .len_i,
    .has_head_o(has_head),
    .head_addr_o(head_addr), .packet_bytes_o(packet_bytes), .packet_flits_o,
    .last_o(last), .ends_o(ends), .last_bytes_o(last_bytes), .phase_o(phase)
  );

  flit_encoder #(
    .NODE_W(NODE_W), .ADDR_W(ADDR_W), .SIZE_W(SIZE_W), .BURST_BYTES(BURST_BYTES),
    .PACKET_BYTES(PACKET_BYTES), .SUBPACKET_FLITS(SUBPACKET_FLITS)
  ) u_encoder (
    .message_i, .next_i, .eject_i, .dest_i, .src_i, .tree_i, .op_i, .bytes_i,
    .has_head_i(has_head), .head_addr_i(head_addr), .packet_bytes_i(packet_bytes),
    .last_i(last), .ends_i(ends), .last_bytes_i(last_bytes), .phase_i(phase), .data_i,
    .index_i, .count_o, .type_o, .data_o
  );

endmodule
