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
// The wait check is made a cycle ahead. The head of the next cycle is hold_* when this cycle's
// head does not issue and next_* when it does (or any entry after start_i); for both, this
// cycle reads their rows and registers which of the senders they need are still missing
// (counting this cycle's arrival). Since senders are only added, what was missing then is
// missing now unless this cycle's arrival brings it: ready_o is the registered verdict and one
// compare of the arrival against the head's nodes, with no storage read on its path. After
// start_i (empty rows) every sender the head needs is missing.
//
// Storage: the senders are a memory of a row per (op, flow) and a lane per slot (one write
// port; two read ports, the two candidates' rows); the fill counts a memory of a count per row
// (one write port, three read ports: the candidates' rows and the arriving message's row). A
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
  // The head entry of the next cycle if this one does not issue (the NI: the same entry) and
  // if it does (the table's next entry).
  input  logic [1:0]        hold_op_i,
  input  logic [NODE_W-1:0] hold_flow_i,
  input  logic [NODE_W-1:0] hold_parent_i,
  input  logic [K*NODE_W-1:0] hold_children_i,
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

  // The candidates for the next cycle's head: [0] hold, [1] next.
  logic [2*2-1:0]        cand_op;
  logic [2*NODE_W-1:0]   cand_flow, cand_parent;
  logic [2*K*NODE_W-1:0] cand_children;
  logic [2*ROW_W-1:0]    cand_row;
  logic [ROW_W-1:0]      arrive_row;
  assign cand_op = {next_op_i, hold_op_i};
  assign cand_flow = {next_flow_i, hold_flow_i};
  assign cand_parent = {next_parent_i, hold_parent_i};
  assign cand_children = {next_children_i, hold_children_i};
  for (genvar c = 0; c < 2; c++) begin : g_row
    assign cand_row[ROW_W*c +: ROW_W] =
        wait_row(cand_op[2*c +: 2], cand_flow[NODE_W*c +: FLOW_IDX_W],
                 cand_parent[NODE_W*c +: NODE_W]);
  end
  assign arrive_row = row_of(arrive_op_i, arrive_flow_i[FLOW_IDX_W-1:0]);

  logic [Rows-1:0]  used_q, used_d;  // the row was written since start_i
  logic [FLOWS-1:0] reduced_q, reduced_d;
  logic             overflow_q, overflow_d;

  // ---- the fill counts ----------------------------------------------------------------------
  logic [3*CNT_W-1:0] count_rd;  // [0], [1]: the candidates' rows, [2]: the arrival's row
  logic [2*CNT_W-1:0] cand_count;
  logic [CNT_W-1:0]   arrive_count;
  logic               arrive_fits, record;
  for (genvar c = 0; c < 2; c++) begin : g_count
    assign cand_count[CNT_W*c +: CNT_W] =
        used_q[cand_row[ROW_W*c +: ROW_W]] ? count_rd[CNT_W*c +: CNT_W] : '0;
  end
  assign arrive_count = used_q[arrive_row] ? count_rd[2*CNT_W +: CNT_W] : '0;
  assign arrive_fits = 32'(arrive_count) < SLOTS && 32'(arrive_flow_i) < FLOWS;
  assign record = arrive_i && arrive_fits;

  storage_array #(.WIDTH(CNT_W), .DEPTH(Rows), .WRITES(1), .READS(3)) u_counts (
    .clk_i, .we_i(record), .waddr_i(arrive_row), .wmask_i(1'b1),
    .wdata_i(arrive_count + CNT_W'(1)), .raddr_i({arrive_row, cand_row}), .rdata_o(count_rd)
  );

  // ---- the senders: an arrival writes the lane of its slot ---------------------------------
  logic [SLOTS-1:0]          lane_write;
  logic [2*SLOTS*NODE_W-1:0] cand_sender;  // the candidates' rows, by slot
  always_comb begin
    for (int s = 0; s < SLOTS; s++) lane_write[s] = 32'(arrive_count) == s;
  end

  storage_array #(
    .WIDTH(SLOTS * NODE_W), .DEPTH(Rows), .WRITES(1), .READS(2), .LANE_W(NODE_W)
  ) u_senders (
    .clk_i, .we_i(record), .waddr_i(arrive_row), .wmask_i(lane_write),
    .wdata_i({SLOTS{arrive_sender_i}}), .raddr_i(cand_row), .rdata_o(cand_sender)
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

  // The wait check a cycle ahead: for each candidate, the senders it needs that are missing
  // after this cycle's arrival. The next entry's flow counts as reduced if this head, a Reduce
  // of that flow, issues (it is the head only then).
  logic [2*(K+1)-1:0] cand_missing;
  logic [K:0]         missing_q, missing_d;
  logic               fresh_q;  // start_i was last cycle: the head's missing senders unknown
  logic [ROW_W-1:0]   row_q;    // the head's row
  always_comb begin
    for (int c = 0; c < 2; c++) begin
      logic [NODE_W-1:0] flow, parent;
      logic [K*NODE_W-1:0] children;
      logic reduced, arrives;
      logic [K:0] need;
      flow = cand_flow[NODE_W*c +: NODE_W];
      parent = cand_parent[NODE_W*c +: NODE_W];
      children = cand_children[K*NODE_W*c +: K*NODE_W];
      reduced = reduced_q[flow[FLOW_IDX_W-1:0]] ||
                (c == 1 && 32'(op_i) == OP_REDUCE && flow_i == flow);
      arrives = arrive_i && arrive_row == cand_row[ROW_W*c +: ROW_W];
      need = needs(cand_op[2*c +: 2], parent, children, reduced);
      for (int k = 0; k <= K; k++) begin
        cand_missing[(K+1)*c + k] = need[k] &&
            !has(k == K ? parent : children[NODE_W*k +: NODE_W], cand_count[CNT_W*c +: CNT_W],
                 cand_sender[SLOTS*NODE_W*c +: SLOTS*NODE_W], arrives);
      end
    end
    missing_d = issue_i ? cand_missing[K+1 +: K+1] : cand_missing[0 +: K+1];
  end

  // The head's verdict: what was missing at the end of the last cycle, less this cycle's
  // arrival (after start_i: everything it needs, less the arrival).
  always_comb begin
    logic [K:0] missing;
    logic       arrives;
    arrives = arrive_i && arrive_row == (fresh_q ? wait_row(op_i, flow_i[FLOW_IDX_W-1:0], parent_i) : row_q);
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
  always_ff @(posedge clk_i) begin
    missing_q <= missing_d;
    row_q <= issue_i ? cand_row[ROW_W +: ROW_W] : cand_row[0 +: ROW_W];
  end

  assign overflow_o = overflow_q;

endmodule
