// One NI injection port: the NI buffer (a queue of DMA bursts), the flit encoder at its head,
// and the injection VCs and credits of the router's local input. SystemC twin: the injection
// side of systemc/endpoint/endpoint.hpp (Endpoint::send, try_inject), fed as the SystemC NI
// feeds it (systemc/ni/network_interface.cpp: a burst's flits are queued when its DMA read
// completes).
//
// Timing: a burst written with line_i in cycle c is queued from cycle c + 1 (SystemC:
// Endpoint::send in cycle c, flits may leave from c + 1). One flit leaves per cycle at most.
// A credit (credit_i, credit_vc_i) usable in cycle c counts for the flit of cycle c. Between
// packets, the next head takes the first VC, round robin from the one after the last packet's,
// with room for what it reserves: under virtual cut-through a sub-head reserves a sub-packet
// (SUBPACKET_FLITS), a normal head its whole packet (at most VC_DEPTH); the first flit after a
// SubTail reserves the next sub-packet; under wormhole every flit needs one credit.
module endpoint #(
  // Width of node ids and of the Tree ID.
  parameter int unsigned NODE_W = 8,
  // Width of addresses.
  parameter int unsigned ADDR_W = 32,
  // Width of sizes and offsets.
  parameter int unsigned SIZE_W = 32,
  // Virtual channels of the link.
  parameter int unsigned VCS = 4,
  // Flits of one VC buffer of the router's local input: the credits each VC starts with.
  parameter int unsigned VC_DEPTH = 318,
  // Flits of a sub-packet, the VCT reservation unit of all-reduce messages.
  parameter int unsigned SUBPACKET_FLITS = 16,
  // 1: wormhole flow control (one credit per flit); 0: virtual cut-through.
  parameter bit WORMHOLE = 1'b0,
  // Bytes of one DMA burst.
  parameter int unsigned BURST_BYTES = 256,
  // Payload bytes of a packet in packet-based flow control.
  parameter int unsigned PACKET_BYTES = 256,
  // Bursts the NI buffer holds.
  parameter int unsigned LINES = 20,
  localparam int unsigned VC_W = VCS > 1 ? $clog2(VCS) : 1,
  localparam int unsigned CREDIT_W = $clog2(VC_DEPTH + 1),
  localparam int unsigned LINES_W = (LINES > 1 ? $clog2(LINES) : 1) + 1,
  // Widths of the descriptor's fields (burst_descriptor.sv).
  localparam int unsigned FLIT_W = BURST_BYTES / 16 > 1 ? $clog2(BURST_BYTES / 16) : 1,
  localparam int unsigned PB_W = $clog2(PACKET_BYTES + 1),
  localparam int unsigned PF_W = $clog2(PACKET_BYTES / 16 + 2),
  localparam int unsigned SP_W = SUBPACKET_FLITS > 1 ? $clog2(SUBPACKET_FLITS) : 1
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // This node's id (the Src of its packets).
  input  logic [NODE_W-1:0]        node_id_i,
  // A burst of a send, read from memory in this cycle: the send, the burst and its payload.
  input  logic                     line_i,
  input  logic                     message_i,
  input  logic [2:0]               next_i,
  input  logic [2:0]               eject_i,
  input  logic [NODE_W-1:0]        dest_i,
  input  logic [NODE_W-1:0]        tree_i,
  input  logic [1:0]               op_i,
  input  logic [SIZE_W-1:0]        bytes_i,
  // The burst's descriptor (burst_descriptor.sv).
  input  logic                     has_head_i,
  input  logic [ADDR_W-1:0]        head_addr_i,
  input  logic [PB_W-1:0]          packet_bytes_i,
  input  logic [PF_W-1:0]          packet_flits_i,
  input  logic [FLIT_W-1:0]        last_i,
  input  logic                     ends_i,
  input  logic [4:0]               last_bytes_i,
  input  logic [SP_W-1:0]          phase_i,
  input  logic [BURST_BYTES*8-1:0] data_i,
  // A credit of the router's local input, usable in this cycle.
  input  logic                     credit_i,
  input  logic [VC_W-1:0]          credit_vc_i,
  // The flit injected in this cycle.
  output logic                     tx_o,
  output logic [ni_formats_pkg::FLIT_TYPE_BITS-1:0] tx_type_o,
  output logic [VC_W-1:0]          tx_vc_o,
  output logic [ni_formats_pkg::FLIT_DATA_BITS-1:0] tx_data_o,
  // The queue holds no burst (every flit it was given has left).
  output logic                     empty_o,
  // Bursts queued at the start of the cycle (one whose last flit leaves in it still counts).
  output logic [LINES_W-1:0]       lines_o,
  // A burst arrived when LINES were queued (the SystemC NI checks the same bound).
  output logic                     overflow_o
);

  `include "ni_formats.svh"

  localparam int unsigned BURST_FLITS = BURST_BYTES / 16;
  localparam int unsigned PTR_W = LINES > 1 ? $clog2(LINES) : 1;
  localparam int unsigned COUNT_W = $clog2(BURST_FLITS + 2);
  // A line: the send's head fields and the burst's descriptor (burst_descriptor.sv).
  localparam int unsigned SendW = 1 + 3 + 3 + 2 * NODE_W + 2 + SIZE_W;
  localparam int unsigned DescW = 1 + ADDR_W + PB_W + PF_W + FLIT_W + 1 + 5 + SP_W;
  localparam int unsigned MetaW = SendW + DescW;

  // The queue of bursts: each line holds a burst's fields and payload (storage arrays below).
  logic [MetaW-1:0]         h_meta;
  logic [BURST_BYTES*8-1:0] h_data;
  logic [PTR_W-1:0]         head_q, tail_q;
  logic [PTR_W:0]           count_q;
  logic [COUNT_W-1:0]       cursor_q;   // next flit of the head burst
  // Injection state.
  logic [VCS*CREDIT_W-1:0]  credits_q;
  logic                     in_packet_q;   // a packet or message holds a VC
  logic [VC_W-1:0]          cur_vc_q, next_vc_q;
  logic                     reserve_q;     // the next flit starts a sub-packet
  logic                     overflow_q;

  // The head burst's flit at the cursor.
  logic                     h_message;
  logic [2:0]               h_next, h_eject;
  logic [NODE_W-1:0]        h_dest, h_tree;
  logic [1:0]               h_op;
  logic [SIZE_W-1:0]        h_bytes;
  logic                     h_has_head, h_ends;
  logic [ADDR_W-1:0]        h_head_addr;
  logic [PB_W-1:0]          h_packet_bytes;
  logic [PF_W-1:0]          h_packet_flits;
  logic [FLIT_W-1:0]        h_last;
  logic [4:0]               h_last_bytes;
  logic [SP_W-1:0]          h_phase;
  logic [COUNT_W-1:0]       flits_in_line;
  logic [2:0]               f_type;
  logic [127:0]             f_data;

  // A line's fields and its payload in two storage arrays: the payload read at the head, the
  // fields at the line after it, into a register (meta_q) that holds the head line's fields,
  // so that the flit encoder and the credit check start from a register. When the head moves
  // (pop) the register takes the next line's fields, or the line entering now when that is
  // the next; with the queue empty, the line entering.
  logic [MetaW-1:0] line_meta, meta_rd, meta_q;
  logic [PTR_W-1:0] head_after;
  logic             pop;
  assign line_meta = {message_i, next_i, eject_i, dest_i, tree_i, op_i, bytes_i, has_head_i,
                      head_addr_i, packet_bytes_i, packet_flits_i, last_i, ends_i, last_bytes_i,
                      phase_i};
  assign head_after = head_q == PTR_W'(LINES - 1) ? '0 : head_q + PTR_W'(1);
  storage_array #(.WIDTH(MetaW), .DEPTH(LINES), .WRITES(1), .READS(1)) u_meta (
    .clk_i, .we_i(line_i), .waddr_i(tail_q), .wmask_i(1'b1), .wdata_i(line_meta),
    .raddr_i(head_after), .re_i('1), .rdata_o(meta_rd)
  );
  storage_array #(.WIDTH(BURST_BYTES * 8), .DEPTH(LINES), .WRITES(1), .READS(1)) u_data (
    .clk_i, .we_i(line_i), .waddr_i(tail_q), .wmask_i(1'b1), .wdata_i(data_i),
    .raddr_i(head_q), .re_i('1), .rdata_o(h_data)
  );
  always_ff @(posedge clk_i) begin
    if (pop) meta_q <= 32'(count_q) == 1 ? line_meta : meta_rd;
    else if (count_q == '0) meta_q <= line_meta;
  end
  assign h_meta = meta_q;

  assign {h_message, h_next, h_eject, h_dest, h_tree, h_op, h_bytes, h_has_head, h_head_addr,
          h_packet_bytes, h_packet_flits, h_last, h_ends, h_last_bytes, h_phase} = h_meta;

  flit_encoder #(
    .NODE_W(NODE_W), .ADDR_W(ADDR_W), .SIZE_W(SIZE_W), .BURST_BYTES(BURST_BYTES),
    .PACKET_BYTES(PACKET_BYTES), .SUBPACKET_FLITS(SUBPACKET_FLITS)
  ) u_encoder (
    .message_i(h_message), .next_i(h_next), .eject_i(h_eject), .dest_i(h_dest),
    .src_i(node_id_i), .tree_i(h_tree), .op_i(h_op), .bytes_i(h_bytes),
    .has_head_i(h_has_head), .head_addr_i(h_head_addr), .packet_bytes_i(h_packet_bytes),
    .last_i(h_last), .ends_i(h_ends), .last_bytes_i(h_last_bytes), .phase_i(h_phase),
    .data_i(h_data), .index_i(cursor_q), .count_o(flits_in_line), .type_o(f_type),
    .data_o(f_data)
  );

  // Credits a flit needs on its VC.
  logic            f_sub, f_tail;
  logic [CREDIT_W:0] need;
  logic [VCS*CREDIT_W-1:0] credits_now;
  logic [VCS-1:0]  fits;
  logic            send;
  logic [VC_W-1:0] vc;

  always_comb begin
    logic [VC_W-1:0] v;
    v = '0;
    f_sub = f_type[2];
    f_tail = 32'(f_type) == FLIT_TYPE_TAIL || 32'(f_type) == FLIT_TYPE_HEAD_TAIL ||
             32'(f_type) == FLIT_TYPE_SUB_MESSAGE_TAIL;
    credits_now = credits_q;
    if (credit_i) begin
      credits_now[CREDIT_W*credit_vc_i +: CREDIT_W] =
          credits_q[CREDIT_W*credit_vc_i +: CREDIT_W] + CREDIT_W'(1);
    end
    need = (CREDIT_W + 1)'(1);
    if (!WORMHOLE && !in_packet_q) begin
      if (f_sub) begin
        need = (CREDIT_W + 1)'(SUBPACKET_FLITS);
      end else begin
        need = 32'(h_packet_flits) > VC_DEPTH ? (CREDIT_W + 1)'(VC_DEPTH)
                                              : (CREDIT_W + 1)'(h_packet_flits);
      end
    end else if (!WORMHOLE && reserve_q) begin
      need = (CREDIT_W + 1)'(SUBPACKET_FLITS);
    end
    // Whether each VC has the credits the flit needs, this cycle's credit included: compared
    // against the register and the register plus one, the credit only picks (no adder after
    // the input).
    for (int u = 0; u < VCS; u++) begin
      logic [CREDIT_W:0] have;
      have = (CREDIT_W + 1)'(credits_q[CREDIT_W*u +: CREDIT_W]);
      fits[u] = have >= need ||
                (credit_i && credit_vc_i == VC_W'(u) && have + (CREDIT_W + 1)'(1) >= need);
    end
    send = 1'b0;
    vc = cur_vc_q;
    if (count_q != '0) begin
      if (in_packet_q) begin
        send = fits[cur_vc_q];
      end else begin
        for (int k = VCS - 1; k >= 0; k--) begin  // the first in round-robin order wins
          v = VC_W'((32'(next_vc_q) + 32'(k)) % VCS);
          if (fits[v]) begin
            send = 1'b1;
            vc = v;
          end
        end
      end
    end
  end

  // The head burst's last flit leaves.
  assign pop = send && cursor_q + COUNT_W'(1) == flits_in_line;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      head_q <= '0;
      tail_q <= '0;
      count_q <= '0;
      cursor_q <= '0;
      for (int v = 0; v < VCS; v++) credits_q[CREDIT_W*v +: CREDIT_W] <= CREDIT_W'(VC_DEPTH);
      in_packet_q <= 1'b0;
      cur_vc_q <= '0;
      next_vc_q <= '0;
      reserve_q <= 1'b0;
      overflow_q <= 1'b0;
    end else begin
      credits_q <= credits_now;
      if (send) begin
        credits_q[CREDIT_W*vc +: CREDIT_W] <= credits_now[CREDIT_W*vc +: CREDIT_W] - CREDIT_W'(1);
        reserve_q <= 32'(f_type) == FLIT_TYPE_SUB_TAIL;
        in_packet_q <= !f_tail;
        cur_vc_q <= vc;
        if (f_tail) next_vc_q <= VC_W'((32'(vc) + 1) % VCS);
        cursor_q <= pop ? '0 : cursor_q + COUNT_W'(1);
        if (pop) head_q <= head_after;
      end
      if (line_i) begin
        if (32'(count_q) == LINES) overflow_q <= 1'b1;
        tail_q <= tail_q == PTR_W'(LINES - 1) ? '0 : tail_q + PTR_W'(1);
      end
      count_q <= count_q + (PTR_W + 1)'(line_i) - (PTR_W + 1)'(pop);
    end
  end

  assign tx_o = send;
  assign tx_type_o = f_type;
  assign tx_vc_o = vc;
  assign tx_data_o = f_data;
  assign empty_o = count_q == '0;
  assign lines_o = count_q;
  assign overflow_o = overflow_q;

endmodule
