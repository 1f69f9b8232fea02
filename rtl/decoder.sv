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
  localparam int unsigned FlitsW = SIZE_W + 1;  // a flit count
  // Flit counts from 2^BufW on do not fit the NI buffer. A chunk of fewer than 2^BufW payload
  // flits has at most 2^(BufW + 1) flits (no more packets than payload flits): LowW bits.
  localparam int unsigned BufW = $clog2(BUFFER_FLITS + 1);
  localparam int unsigned LowW = BufW + 2;
  // The step time of a 0-byte chunk, whose message is a head and one payload flit.
  localparam int unsigned EmptyFlits = 2;
  localparam logic [COUNT_W-1:0] EmptyCycles =
      COUNT_W'(EmptyFlits <= BUFFER_FLITS ? EmptyFlits : EmptyFlits - BUFFER_FLITS);

  // A NOP's step time, for a nonzero size, from sums of the same three terms taken side by
  // side: the whole payload flits size / 16; the whole packets size / PACKET_BYTES, heads in
  // packet mode; and up, the flits that round both up (one for a part-filled payload flit, one
  // for a part-filled packet, or the message's one head).
  logic [FlitsW-1:0] payload, heads, flits, over;
  logic              payload_up, head_up, few, fits;
  logic [1:0]        up;
  logic [LowW-1:0]   low;

  always_comb begin
    payload = FlitsW'(size_i) >> PayloadShift;
    payload_up = size_i[PayloadShift-1:0] != '0;
    heads = packet_mode_i ? FlitsW'(size_i) >> PacketShift : '0;
    head_up = packet_mode_i ? size_i[PacketShift-1:0] != '0 : 1'b1;
    up = 2'(payload_up) + 2'(head_up);
    // The flits, and the flits less BUFFER_FLITS (up leads each sum, so the two share no
    // partial sum).
    flits = FlitsW'(up) + payload + heads;
    over = (FlitsW'(up) - FlitsW'(BUFFER_FLITS)) + payload + heads;
    // They fit the buffer only with fewer than 2^BufW payload flits (few), and then the same
    // sum on the low LowW bits is the whole count.
    few = (size_i >> (BufW + PayloadShift)) == '0;
    low = LowW'(up) + LowW'(payload) + LowW'(heads);
    fits = few && low <= LowW'(BUFFER_FLITS);
    lockstep_cycles_o = '0;
    if (32'(op_i) == OP_NOP) begin
      lockstep_cycles_o = size_i == '0 ? EmptyCycles : COUNT_W'(fits ? flits : over);
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
