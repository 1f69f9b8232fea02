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
// The wait check is made a cycle ahead: the verdict on the head is a register of the senders
// it still lacks (missing), less this cycle's arrival, with no storage read on its path.
// Senders are only added, so what a head lacks at the end of a cycle is what it lacked less
// that cycle's arrival, and so it is registered for the next cycle when the head stays; when
// it issues, the next cycle's head is the table's next entry (next_*_i), whose row this cycle
// reads and checks (counting this cycle's arrival). After start_i (empty rows) the head lacks
// every sender it needs.
//
// Storage: the senders are a memory of a row per (op, flow) and a lane per slot (one write
// port, one read port: the next entry's row); the fill counts a memory of a count per row (one
// write port, two read ports: the next entry's row and the arriving message's row). A
// flip-flop per row says whether the row was written since start_i, so start_i empties every
// row in one cycle without writing the memories.
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
  // The table's next entry: the head of the next cycle if this one issues.
  input  logic [1:0]        next_op_i,
  input  logic [NODE_W-1:0] next_flow_i,
  input  logic [NODE_W-1:0] next_parent_i,
  input  logic [K*NODE_W-1:0] next_children_i,
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

  // The row an entry waits on: its flow's Gather row when it waits for its parent (a non-root
  // Gather or Put), else its flow's Reduce row (a Reduce, or a root Gather waiting for its
  // children's Reduce messages).
  function automatic logic [ROW_W-1:0] wait_row(input logic [1:0] op,
                                                input logic [FLOW_IDX_W-1:0] flow,
                                                input logic [NODE_W-1:0] parent);
    wait_row = row_of(written(op) && parent != Nil ? 2'(OP_GATHER) : 2'(OP_REDUCE), flow);
  endfunction

  logic [ROW_W-1:0] head_row, next_row, arrive_row;
  assign head_row = wait_row(op_i, flow_i[FLOW_IDX_W-1:0], parent_i);
  assign next_row = wait_row(next_op_i, next_flow_i[FLOW_IDX_W-1:0], next_parent_i);
  assign arrive_row = row_of(arrive_op_i, arrive_flow_i[FLOW_IDX_W-1:0]);

  logic [Rows-1:0]  used_q, used_d;  // the row was written since start_i
  logic [FLOWS-1:0] reduced_q, reduced_d;
  logic             overflow_q, overflow_d;

  // ---- the fill counts ----------------------------------------------------------------------
  logic [2*CNT_W-1:0] count_rd;  // [0]: the next entry's row, [1]: the arrival's row
  logic [CNT_W-1:0]   next_count, arrive_count;
  logic               arrive_fits, record;
  assign next_count = used_q[next_row] ? count_rd[0 +: CNT_W] : '0;
  assign arrive_count = used_q[arrive_row] ? count_rd[CNT_W +: CNT_W] : '0;
  assign arrive_fits = 32'(arrive_count) < SLOTS && 32'(arrive_flow_i) < FLOWS;
  assign record = arrive_i && arrive_fits;

  storage_array #(.WIDTH(CNT_W), .DEPTH(Rows), .WRITES(1), .READS(2)) u_counts (
    .clk_i, .we_i(record), .waddr_i(arrive_row), .wmask_i(1'b1),
    .wdata_i(arrive_count + CNT_W'(1)), .raddr_i({arrive_row, next_row}), .re_i('1),
    .rdata_o(count_rd)
  );

  // ---- the senders: an arrival writes the lane of its slot ---------------------------------
  logic [SLOTS-1:0]        lane_write;
  logic [SLOTS*NODE_W-1:0] next_sender;  // the next entry's row, by slot
  always_comb begin
    for (int s = 0; s < SLOTS; s++) lane_write[s] = 32'(arrive_count) == s;
  end

  storage_array #(
    .WIDTH(SLOTS * NODE_W), .DEPTH(Rows), .WRITES(1), .READS(1), .LANE_W(NODE_W)
  ) u_senders (
    .clk_i, .we_i(record), .waddr_i(arrive_row), .wmask_i(lane_write),
    .wdata_i({SLOTS{arrive_sender_i}}), .raddr_i(next_row), .re_i('1), .rdata_o(next_sender)
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

  // Whether `node` is among a row's senders: a stored one, or this cycle's arrival.
  function automatic logic has(input logic [NODE_W-1:0] node, input logic [CNT_W-1:0] count,
                               input logic [SLOTS*NODE_W-1:0] stored, input logic arrives);
    has = arrives && arrive_sender_i == node;
    for (int s = 0; s < SLOTS; s++) begin
      if (s < 32'(count) && stored[s*NODE_W +: NODE_W] == node) has = 1'b1;
    end
  endfunction

  // What an entry waits for: its parent (slot K; a non-root Gather or Put), or its children
  // (slots 0..K-1; a Reduce, or a root Gather or Put of a flow not yet reduced).
  function automatic logic [K:0] needs(input logic [1:0] op, input logic [NODE_W-1:0] parent,
                                       input logic [K*NODE_W-1:0] children,
                                       input logic reduced);
    logic wait_children;
    needs = '0;
    wait_children = 32'(op) == OP_REDUCE || (written(op) && parent == Nil && !reduced);
    if (written(op) && parent != Nil) begin
      needs[K] = 1'b1;
    end else if (wait_children) begin
      for (int k = 0; k < K; k++) needs[k] = children[NODE_W*k +: NODE_W] != Nil;
    end
  endfunction

  // The head's verdict: what it lacked at the end of the last cycle (after start_i: every
  // sender it needs), less this cycle's arrival; also what it lacks at the end of this one.
  logic [K:0]       missing_q, missing;
  logic             fresh_q;  // start_i was last cycle: what the head lacks is not registered
  always_comb begin
    logic arrives;
    arrives = arrive_i && arrive_row == head_row;
    missing = fresh_q ? needs(op_i, parent_i, children_i, 1'b0) : missing_q;
    for (int k = 0; k <= K; k++) begin
      if (arrives && arrive_sender_i == (k == K ? parent_i : children_i[NODE_W*k +: NODE_W])) begin
        missing[k] = 1'b0;
      end
    end
    ready_o = missing == '0;
    wait_op_o = 2'(OP_NOP);
    wait_node_o = Nil;
    if (missing[K]) begin
      wait_op_o = 2'(OP_GATHER);
      wait_node_o = parent_i;
    end else begin
      for (int k = K - 1; k >= 0; k--) begin  // the first missing child is reported
        if (missing[k]) begin
          wait_op_o = 2'(OP_REDUCE);
          wait_node_o = children_i[NODE_W*k +: NODE_W];
        end
      end
    end
  end

  // What the next entry lacks at the end of this cycle, from its row and this cycle's arrival.
  // Its flow counts as reduced if the head, a Reduce of that flow, issues (it is the head of
  // the next cycle only then).
  logic [K:0] next_missing;
  always_comb begin
    logic reduced, arrives;
    logic [K:0] need;
    reduced = reduced_q[next_flow_i[FLOW_IDX_W-1:0]] ||
              (32'(op_i) == OP_REDUCE && flow_i == next_flow_i);
    arrives = arrive_i && arrive_row == next_row;
    need = needs(next_op_i, next_parent_i, next_children_i, reduced);
    for (int k = 0; k <= K; k++) begin
      next_missing[k] = need[k] &&
          !has(k == K ? next_parent_i : next_children_i[NODE_W*k +: NODE_W], next_count,
               next_sender, arrives);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      used_q <= '0;
      reduced_q <= '0;
      overflow_q <= 1'b0;
      fresh_q <= 1'b1;
    end else begin
      used_q <= used_d;
      reduced_q <= reduced_d;
      overflow_q <= overflow_d;
      fresh_q <= start_i;
    end
  end
  always_ff @(posedge clk_i) missing_q <= issue_i ? next_missing : missing;

  assign overflow_o = overflow_q;

endmodule
