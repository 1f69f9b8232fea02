// The endpoint as the send channel feeds it (simulation only): a burst's descriptor
// (rtl/burst_descriptor.sv) made from its send, offset and length, then the endpoint
// (rtl/endpoint.sv) with it. tb/endpoint_test.cpp drives it burst by burst.
module endpoint_tb #(
  parameter int unsigned NODE_W = 8,
  parameter int unsigned ADDR_W = 32,
  parameter int unsigned SIZE_W = 32,
  parameter int unsigned VCS = 4,
  parameter int unsigned VC_DEPTH = 318,
  parameter int unsigned SUBPACKET_FLITS = 16,
  parameter bit WORMHOLE = 1'b0,
  parameter int unsigned BURST_BYTES = 256,
  parameter int unsigned PACKET_BYTES = 256,
  parameter int unsigned LINES = 20,
  localparam int unsigned VC_W = VCS > 1 ? $clog2(VCS) : 1,
  localparam int unsigned LINES_W = (LINES > 1 ? $clog2(LINES) : 1) + 1,
  localparam int unsigned FLIT_W = BURST_BYTES / 16 > 1 ? $clog2(BURST_BYTES / 16) : 1,
  localparam int unsigned PB_W = $clog2(PACKET_BYTES + 1),
  localparam int unsigned PF_W = $clog2(PACKET_BYTES / 16 + 2),
  localparam int unsigned SP_W = SUBPACKET_FLITS > 1 ? $clog2(SUBPACKET_FLITS) : 1
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic [NODE_W-1:0]        node_id_i,
  input  logic                     line_i,
  input  logic                     message_i,
  input  logic [2:0]               next_i,
  input  logic [2:0]               eject_i,
  input  logic [NODE_W-1:0]        dest_i,
  input  logic [NODE_W-1:0]        tree_i,
  input  logic [1:0]               op_i,
  input  logic [ADDR_W-1:0]        addr_i,
  input  logic [SIZE_W-1:0]        bytes_i,
  input  logic [SIZE_W-1:0]        offset_i,
  input  logic [SIZE_W-1:0]        len_i,
  input  logic [BURST_BYTES*8-1:0] data_i,
  input  logic                     credit_i,
  input  logic [VC_W-1:0]          credit_vc_i,
  output logic                     tx_o,
  output logic [ni_formats_pkg::FLIT_TYPE_BITS-1:0] tx_type_o,
  output logic [VC_W-1:0]          tx_vc_o,
  output logic [ni_formats_pkg::FLIT_DATA_BITS-1:0] tx_data_o,
  output logic                     empty_o,
  output logic [LINES_W-1:0]       lines_o,
  output logic                     overflow_o
);

  logic              has_head, ends;
  logic [ADDR_W-1:0] head_addr;
  logic [PB_W-1:0]   packet_bytes;
  logic [PF_W-1:0]   packet_flits;
  logic [FLIT_W-1:0] last;
  logic [4:0]        last_bytes;
  logic [SP_W-1:0]   phase;

  burst_descriptor #(
    .ADDR_W(ADDR_W), .SIZE_W(SIZE_W), .BURST_BYTES(BURST_BYTES), .PACKET_BYTES(PACKET_BYTES),
    .SUBPACKET_FLITS(SUBPACKET_FLITS)
  ) u_descriptor (
    .message_i, .addr_i(addr_i + offset_i), .left_i(bytes_i - offset_i), .offset_i, .len_i,
    .has_head_o(has_head),
    .head_addr_o(head_addr), .packet_bytes_o(packet_bytes), .packet_flits_o(packet_flits),
    .last_o(last), .ends_o(ends), .last_bytes_o(last_bytes), .phase_o(phase)
  );

  endpoint #(
    .NODE_W(NODE_W), .ADDR_W(ADDR_W), .SIZE_W(SIZE_W), .VCS(VCS), .VC_DEPTH(VC_DEPTH),
    .SUBPACKET_FLITS(SUBPACKET_FLITS), .WORMHOLE(WORMHOLE), .BURST_BYTES(BURST_BYTES),
    .PACKET_BYTES(PACKET_BYTES), .LINES(LINES)
  ) u_endpoint (
    .clk_i, .rst_ni, .node_id_i, .line_i, .message_i, .next_i, .eject_i, .dest_i, .tree_i,
    .op_i, .bytes_i, .has_head_i(has_head), .head_addr_i(head_addr),
    .packet_bytes_i(packet_bytes), .packet_flits_i(packet_flits), .last_i(last), .ends_i(ends),
    .last_bytes_i(last_bytes), .phase_i(phase), .data_i, .credit_i, .credit_vc_i, .tx_o,
    .tx_type_o, .tx_vc_o, .tx_data_o, .empty_o, .lines_o, .overflow_o
  );

endmodule
