// The NI's dependency tracking (paper Fig. 6 (5)(6)): a scoreboard of the messages that have
// arrived in full, and whether the table's head entry still waits for one. SystemC twin:
// systemc/ni/dependency_tracker.hpp, which states the wait rules.
//
// The scoreboard has one row per (Op, flow), Reduce rows and Gather rows, each holding up to
// SLOTS senders. An arrival takes the first free slot of its row (arrival ports in index
// order); a full row, or a flow id beyond FLOWS, sets overflow_o, sticky until start_i, as the
// SystemC model's arrival_slots check throws. Arrivals recorded in a cycle count for the head entry in the same
// cycle (ready_o sees them), as the SystemC NI records completions before it looks at the head.
// issue_i with a Reduce head marks the flow reduced from the next cycle on (a root Gather of a
// reduced flow waits for nothing more).
module dependency_tracker #(
  // Width of node and flow ids; nil is all ones.
  parameter int unsigned NODE_W = 8,
  // Children slots per entry.
  parameter int unsigned K = 4,
  // Flows the scoreboard has rows for (flow ids 0..FLOWS-1).
  parameter int unsigned FLOWS = 64,
  // Senders a row holds.
  parameter int unsigned SLOTS = 4,
  // Arrivals that can be recorded in one cycle.
  parameter int unsigned ARRIVALS = 1,
  localparam int unsigned FLOW_IDX_W = FLOWS > 1 ? $clog2(FLOWS) : 1
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       start_i,
  // Messages now wholly in memory: op code (format op codes), flow and sender.
  input  logic [ARRIVALS-1:0]        arrive_i,
  input  logic [ARRIVALS*2-1:0]      arrive_op_i,
  input  logic [ARRIVALS*NODE_W-1:0] arrive_flow_i,
  input  logic [ARRIVALS*NODE_W-1:0] arrive_sender_i,
  // The table's head entry, and whether it issues in this cycle.
  input  logic [1:0]                 op_i,
  input  logic [NODE_W-1:0]          flow_i,
  input  logic [NODE_W-1:0]          parent_i,
  input  logic [K*NODE_W-1:0]        children_i,
  input  logic                       issue_i,
  // The head waits for nothing; otherwise the first message it waits for.
  output logic                       ready_o,
  output logic [1:0]                 wait_op_o,
  output logic [NODE_W-1:0]          wait_node_o,
  output logic                       overflow_o
);

  `include "ni_formats.svh"

  localparam logic [NODE_W-1:0] Nil = '1;
  localparam int unsigned Rows = 2 * FLOWS;  // Reduce rows first, then Gather rows
  localparam int unsigned ROW_W = $clog2(Rows);

  function automatic logic [ROW_W-1:0] row_of(input logic [1:0] op,
                                               input logic [FLOW_IDX_W-1:0] flow);
    row_of = (32'(op) == OP_GATHER ? ROW_W'(FLOWS) : '0) + ROW_W'(flow);
  endfunction

  // The row the head entry reads: its flow's Gather row when it waits for its parent (a
  // non-root Gather), else its flow's Reduce row (a Reduce, or a root Gather waiting for its
  // children's Reduce messages).
  logic [ROW_W-1:0] head_row;
  assign head_row = row_of(32'(op_i) == OP_GATHER && parent_i != Nil ? 2'(OP_GATHER) :
                           2'(OP_REDUCE), flow_i[FLOW_IDX_W-1:0]);

  // Valid bits of every slot (flip-flops, cleared by start_i); the senders live in a memory of
  // a row per (op, flow), a lane per slot (one write and one read port), read only where valid.
  logic [Rows*SLOTS-1:0]      valid_q, valid_d;   // row r: bits [r*SLOTS +: SLOTS]
  logic [FLOWS-1:0]           reduced_q, reduced_d;
  logic                       overflow_q, overflow_d;
  logic [ARRIVALS*ROW_W-1:0]    arrive_row;     // arrival a: [a*ROW_W +: ROW_W]
  logic [SLOTS*ARRIVALS-1:0]    slot_write;     // bit s*ARRIVALS + a: arrival a takes slot s
  logic [SLOTS*NODE_W-1:0]      head_sender;    // the head's row, by slot
  logic [ARRIVALS*SLOTS-1:0]    lane_write;     // arrival a's write mask: [a*SLOTS +: SLOTS]
  logic [ARRIVALS*SLOTS*NODE_W-1:0] senders_wide;  // arrival a's sender in every lane

  always_comb begin
    for (int a = 0; a < ARRIVALS; a++) begin
      for (int s = 0; s < SLOTS; s++) begin
        lane_write[a*SLOTS + s] = slot_write[s*ARRIVALS + a];
        senders_wide[(a*SLOTS + s)*NODE_W +: NODE_W] = arrive_sender_i[NODE_W*a +: NODE_W];
      end
    end
  end

  storage_array #(
    .WIDTH(SLOTS * NODE_W), .DEPTH(Rows), .WRITES(ARRIVALS), .READS(1), .LANE_W(NODE_W)
  ) u_senders (
    .clk_i, .we_i(arrive_i), .waddr_i(arrive_row), .wmask_i(lane_write),
    .wdata_i(senders_wide), .raddr_i(head_row), .rdata_o(head_sender)
  );

  // Record this cycle's arrivals: each takes the first free slot of its row.
  always_comb begin
    logic placed;
    valid_d = valid_q;
    overflow_d = overflow_q;
    reduced_d = reduced_q;
    slot_write = '0;
    placed = 1'b0;
    for (int a = 0; a < ARRIVALS; a++) begin
      arrive_row[a*ROW_W +: ROW_W] = row_of(arrive_op_i[2*a +: 2],
                                            arrive_flow_i[NODE_W*a +: FLOW_IDX_W]);
      if (arrive_i[a]) begin
        placed = 1'b0;
        for (int s = 0; s < SLOTS; s++) begin
          if (!placed && !valid_d[32'(arrive_row[a*ROW_W +: ROW_W])*SLOTS + s]) begin
            valid_d[32'(arrive_row[a*ROW_W +: ROW_W])*SLOTS + s] = 1'b1;
            slot_write[s*ARRIVALS + a] = 1'b1;
            placed = 1'b1;
          end
        end
        if (!placed) overflow_d = 1'b1;
      end
    end
    if (issue_i && 32'(op_i) == OP_REDUCE) reduced_d[flow_i[FLOW_IDX_W-1:0]] = 1'b1;
    // A flow beyond the rows cannot be tracked (the table loader refuses such images).
    if (32'(flow_i) >= FLOWS && 32'(op_i) != OP_NOP) overflow_d = 1'b1;
    for (int a = 0; a < ARRIVALS; a++) begin
      if (arrive_i[a] && 32'(arrive_flow_i[NODE_W*a +: NODE_W]) >= FLOWS) overflow_d = 1'b1;
    end
    if (start_i) begin
      valid_d = '0;
      reduced_d = '0;
      overflow_d = 1'b0;
    end
  end

  // Whether `node` is among a row's senders: the stored ones, or an arrival of this cycle.
  function automatic logic has(input logic [ROW_W-1:0] row, input logic [SLOTS-1:0] valid,
                               input logic [SLOTS*NODE_W-1:0] stored,
                               input logic [NODE_W-1:0] node,
                               input logic [ARRIVALS-1:0] arrive,
                               input logic [ARRIVALS*ROW_W-1:0] arrive_row_in,
                               input logic [ARRIVALS*NODE_W-1:0] arrive_sender);
    has = 1'b0;
    for (int s = 0; s < SLOTS; s++) begin
      if (valid[s] && stored[s*NODE_W +: NODE_W] == node) has = 1'b1;
    end
    for (int a = 0; a < ARRIVALS; a++) begin
      if (arrive[a] && arrive_row_in[a*ROW_W +: ROW_W] == row &&
          arrive_sender[NODE_W*a +: NODE_W] == node) begin
        has = 1'b1;
      end
    end
  endfunction

  // The wait rules, for the head entry.
  always_comb begin
    logic wait_children;
    logic [NODE_W-1:0] child;
    child = Nil;
    ready_o = 1'b1;
    wait_op_o = 2'(OP_NOP);
    wait_node_o = Nil;
    wait_children = 32'(op_i) == OP_REDUCE ||
                    (32'(op_i) == OP_GATHER && parent_i == Nil &&
                     !reduced_q[flow_i[FLOW_IDX_W-1:0]]);
    if (32'(op_i) == OP_GATHER && parent_i != Nil) begin
      if (!has(head_row, valid_q[32'(head_row)*SLOTS +: SLOTS], head_sender, parent_i, arrive_i,
               arrive_row, arrive_sender_i)) begin
        ready_o = 1'b0;
        wait_op_o = 2'(OP_GATHER);
        wait_node_o = parent_i;
      end
    end else if (wait_children) begin
      for (int k = K - 1; k >= 0; k--) begin  // the first missing child is reported
        child = children_i[NODE_W*k +: NODE_W];
        if (child != Nil && !has(head_row, valid_q[32'(head_row)*SLOTS +: SLOTS], head_sender,
                                 child, arrive_i, arrive_row, arrive_sender_i)) begin
          ready_o = 1'b0;
          wait_op_o = 2'(OP_REDUCE);
          wait_node_o = child;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q <= '0;
      reduced_q <= '0;
      overflow_q <= 1'b0;
    end else begin
      valid_q <= valid_d;
      reduced_q <= reduced_d;
      overflow_q <= overflow_d;
    end
  end

  assign overflow_o = overflow_q;

endmodule
