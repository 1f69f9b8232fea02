// The NI's decoder (paper Fig. 6 (2)): turns the issued table entry into work for the
// lockstep counter (a NOP's step time) or for the DMA requester (one send per destination of
// a Reduce or Gather). Combinational. SystemC twin: systemc/ni/decoder.hpp, with footnote 4's
// estimate of systemc/ni/lockstep_counter.hpp (lockstep_estimate) and send_flits of
// systemc/ni/ni_config.hpp.
//
//   NOP     lockstep_cycles_o = the flits of a Size-byte chunk in the current flow control,
//           or those minus BUFFER_FLITS when they do not fit in the NI buffer
//   Reduce  send slot 0 to Parent (no send when Parent is nil)
//   Gather  send slot k to child k, for every child that is not nil
//   Put     the same as a Gather
module decoder #(
  // Width of a node id; nil is all ones.
  parameter int unsigned NODE_W = 8,
  // Children slots per entry.
  parameter int unsigned K = 4,
  // Width of an entry's size.
  parameter int unsigned SIZE_W = 32,
  // Payload bytes of a packet in packet-based flow control (a power of two, at least 16).
  parameter int unsigned PACKET_BYTES = 256,
  // Injection buffer of one NI port, in flits (footnote 4's NI buffer).
  parameter int unsigned BUFFER_FLITS = 318,
  // Width of the lockstep count.
  parameter int unsigned COUNT_W = 32
) (
  input  logic [1:0]          op_i,
  input  logic [NODE_W-1:0]   parent_i,
  input  logic [K*NODE_W-1:0] children_i,
  input  logic [SIZE_W-1:0]   size_i,
  // 1: packet-based flow control (every PACKET_BYTES get a head), 0: message-based.
  input  logic                packet_mode_i,
  output logic [COUNT_W-1:0]  lockstep_cycles_o,
  output logic [K-1:0]        send_o,
  output logic [K*NODE_W-1:0] dest_o
);

  `include "ni_formats.svh"

  localparam int unsigned PayloadShift = $clog2(FLIT_PAYLOAD_BYTES);
  localparam int unsigned PacketShift = $clog2(PACKET_BYTES);
  localparam logic [NODE_W-1:0] Nil = '1;

  logic [SIZE_W:0] payload_flits, packets, flits;

  always_comb begin
    // ceil(size / 16) payload flits, at least one; a head per message or per packet.
    payload_flits = ({1'b0, size_i} + (SIZE_W + 1)'(FLIT_PAYLOAD_BYTES - 1)) >> PayloadShift;
    if (payload_flits == '0) payload_flits = (SIZE_W + 1)'(1);
    packets = (({1'b0, size_i} + (SIZE_W + 1)'(PACKET_BYTES - 1)) >> PacketShift);
    if (packets == '0) packets = (SIZE_W + 1)'(1);
    flits = payload_flits + (packet_mode_i ? packets : (SIZE_W + 1)'(1));
    lockstep_cycles_o = '0;
    if (32'(op_i) == OP_NOP) begin
      lockstep_cycles_o = COUNT_W'(flits <= (SIZE_W + 1)'(BUFFER_FLITS) ?
                                   flits : flits - (SIZE_W + 1)'(BUFFER_FLITS));
    end
  end

  always_comb begin
    send_o = '0;
    dest_o = {K{Nil}};
    if (32'(op_i) == OP_REDUCE && parent_i != Nil) begin
      send_o[0] = 1'b1;
      dest_o[0 +: NODE_W] = parent_i;
    end else if (32'(op_i) == OP_GATHER || 32'(op_i) == OP_PUT) begin
      for (int k = 0; k < K; k++) begin
        send_o[k] = children_i[k*NODE_W +: NODE_W] != Nil;
        dest_o[k*NODE_W +: NODE_W] = children_i[k*NODE_W +: NODE_W];
      end
    end
  end

endmodule
