// The NI's dependency tracking (paper Fig. 6 (5)(6)): a scoreboard of the messages that have
// arrived in full, and whether the table's head entry still waits for one. SystemC twin:
// systemc/ni/dependency_tracker.hpp, which states the wait rules.
//
// The scoreboard has one row per (Op, flow), Reduce rows and Gather rows, each holding up to
// SLOTS senders. Senders are only added (start_i empties every row), so a row is its senders
// in arrival order and its fill count: an arrival takes slot `count` of its row. A full row, or
// a flow id beyond FLOWS, sets overflow_o, sticky until start_i, as the SystemC model's
// arrival_slots check throws. An arrival recorded in a cycle counts for the head entry in the
// same cycle (ready_o sees it), as the SystemC NI records completions before it looks at the
// head. issue_i with a Reduce head marks the flow reduced from the next cycle on (a root Gather
// of a reduced flow waits for nothing more).
//
// Storage: the senders are a memory of a row per (op, flow) and a lane per slot (one write
// port, one read port: the head's row); the fill counts a memory of a count per row (one write
// port, two read ports: the head's row and the arriving message's row). A flip-flop per row
// says whether the row was written since start_i, so start_i empties every row in one cycle
// without writing the memories.
module dependency_tracker #(
  // Width of node and flow ids; nil is all ones.
  parameter int unsigned NODE_W = 8,
  // Children slots per entry.
  parameter int unsigned K = 4,
  // Flows the scoreboard has rows for (flow ids 0..FLOWS-1).
  parameter int unsigned FLOWS = 64,
  // Senders a row holds.
  parameter int unsigned SLOTS = 4,
  localparam int unsigned FLOW_IDX_W = FLOWS > 1 ? $clog2(FLOWS) : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              start_i,
  // A message now wholly in memory: op code (format op codes), flow and sender.
  input  logic              arrive_i,
  input  logic [1:0]        arrive_op_i,
  input  logic [NODE_W-1:0] arrive_flow_i,
  input  logic [NODE_W-1:0] arrive_sender_i,
  // The table's head entry, and whether it issues in this cycle.
  input  logic [1:0]        op_i,
  input  logic [NODE_W-1:0] flow_i,
  input  logic [NODE_W-1:0] parent_i,
  input  logic [K*NODE_W-1:0] children_i,
  input  logic              issue_i,
  // The head waits for nothing; otherwise the first message it waits for.
  output logic              ready_o,
  output logic [1:0]        wait_op_o,
  output logic [NODE_W-1:0] wait_node_o,
  output logic              overflow_o
);

  `include "ni_formats.svh"

  localparam logic [NODE_W-1:0] Nil = '1;
  localparam int unsigned Rows = 2 * FLOWS;  // Reduce rows first, then Gather (and Put) rows
  localparam int unsigned ROW_W = $clog2(Rows);
  localparam int unsigned CNT_W = $clog2(SLOTS + 1);

  // A Gather or a Put: the receiver writes it (both share their flow's Gather row).
  function automatic logic written(input logic [1:0] op);
    written = 32'(op) == OP_GATHER || 32'(op) == OP_PUT;
  endfunction

  function automatic logic [ROW_W-1:0] row_of(input logic [1:0] op,
                                               input logic [FLOW_IDX_W-1:0] flow);
    row_of = (written(op) ? ROW_W'(FLOWS) : '0) + ROW_W'(flow);
  endfunction

  // The row the head entry reads: its flow's Gather row when it waits for its parent (a
  // non-root Gather), else its flow's Reduce row (a Reduce, or a root Gather waiting for its
  // children's Reduce messages). The row an arrival goes to.
  logic [ROW_W-1:0] head_row, arrive_row;
  assign head_row = row_of(written(op_i) && parent_i != Nil ? 2'(OP_GATHER) :
                           2'(OP_REDUCE), flow_i[FLOW_IDX_W-1:0]);
  assign arrive_row = row_of(arrive_op_i, arrive_flow_i[FLOW_IDX_W-1:0]);

  logic [Rows-1:0]  used_q, used_d;  // the row was written since start_i
  logic [FLOWS-1:0] reduced_q, reduced_d;
  logic             overflow_q, overflow_d;

  // ---- the fill counts ----------------------------------------------------------------------
  logic [2*CNT_W-1:0] count_rd;  // [0]: the head's row, [1]: the arrival's row
  logic [CNT_W-1:0]   head_count, arrive_count;
  logic               arrive_fits, record;
  assign head_count = used_q[head_row] ? count_rd[0 +: CNT_W] : '0;
  assign arrive_count = used_q[arrive_row] ? count_rd[CNT_W +: CNT_W] : '0;
  assign arrive_fits = 32'(arrive_count) < SLOTS && 32'(arrive_flow_i) < FLOWS;
  assign record = arrive_i && arrive_fits;

  storage_array #(.WIDTH(CNT_W), .DEPTH(Rows), .WRITES(1), .READS(2)) u_counts (
    .clk_i, .we_i(record), .waddr_i(arrive_row), .wmask_i(1'b1),
    .wdata_i(arrive_count + CNT_W'(1)), .raddr_i({arrive_row, head_row}), .rdata_o(count_rd)
  );

  // ---- the senders: an arrival writes the lane of its slot ---------------------------------
  logic [SLOTS-1:0]        lane_write;
  logic [SLOTS*NODE_W-1:0] head_sender;  // the head's row, by slot
  always_comb begin
    for (int s = 0; s < SLOTS; s++) lane_write[s] = 32'(arrive_count) == s;
  end

  storage_array #(
    .WIDTH(SLOTS * NODE_W), .DEPTH(Rows), .WRITES(1), .READS(1), .LANE_W(NODE_W)
  ) u_senders (
    .clk_i, .we_i(record), .waddr_i(arrive_row), .wmask_i(lane_write),
    .wdata_i({SLOTS{arrive_sender_i}}), .raddr_i(head_row), .rdata_o(head_sender)
  );

  // ---- state: rows written, flows reduced, overflow ---------------------------------------
  always_comb begin
    used_d = used_q;
    reduced_d = reduced_q;
    overflow_d = overflow_q;
    if (record) used_d[arrive_row] = 1'b1;
    if (arrive_i && !arrive_fits) overflow_d = 1'b1;
    if (issue_i && 32'(op_i) == OP_REDUCE) reduced_d[flow_i[FLOW_IDX_W-1:0]] = 1'b1;
    // A flow beyond the rows cannot be tracked (the table loader refuses such images).
    if (32'(flow_i) >= FLOWS && 32'(op_i) != OP_NOP) overflow_d = 1'b1;
    if (start_i) begin
      used_d = '0;
      reduced_d = '0;
      overflow_d = 1'b0;
    end
  end

  // Whether `node` is among the head row's senders: a stored one, or this cycle's arrival.
  function automatic logic has(input logic [NODE_W-1:0] node, input logic [CNT_W-1:0] count,
                               input logic [SLOTS*NODE_W-1:0] stored, input logic arrives);
    has = arrives && arrive_sender_i == node;
    for (int s = 0; s < SLOTS; s++) begin
      if (s < 32'(count) && stored[s*NODE_W +: NODE_W] == node) has = 1'b1;
    end
  endfunction

  // The wait rules, for the head entry.
  always_comb begin
    logic wait_children, arrives;
    logic [NODE_W-1:0] child;
    child = Nil;
    ready_o = 1'b1;
    wait_op_o = 2'(OP_NOP);
    wait_node_o = Nil;
    // An arrival that overflows its row stops the run in this cycle (overflow_o), so this
    // need not wait for the row's count.
    arrives = arrive_i && arrive_row == head_row;
    wait_children = 32'(op_i) == OP_REDUCE ||
                    (written(op_i) && parent_i == Nil &&
                     !reduced_q[flow_i[FLOW_IDX_W-1:0]]);
    if (written(op_i) && parent_i != Nil) begin
      if (!has(parent_i, head_count, head_sender, arrives)) begin
        ready_o = 1'b0;
        wait_op_o = 2'(OP_GATHER);
        wait_node_o = parent_i;
      end
    end else if (wait_children) begin
      for (int k = K - 1; k >= 0; k--) begin  // the first missing child is reported
        child = children_i[NODE_W*k +: NODE_W];
        if (child != Nil && !has(child, head_count, head_sender, arrives)) begin
          ready_o = 1'b0;
          wait_op_o = 2'(OP_REDUCE);
          wait_node_o = child;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      used_q <= '0;
      reduced_q <= '0;
      overflow_q <= 1'b0;
    end else begin
      used_q <= used_d;
      reduced_q <= reduced_d;
      overflow_q <= overflow_d;
    end
  end

  assign overflow_o = overflow_q;

endmodule
