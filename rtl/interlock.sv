// The read-after-write interlock of Reduce blocks: a Reduce block must not read the local
// partial sum while a block of overlapping bytes is being reduced (read issued, write-back not
// yet issued) or waits before it. SystemC twin: systemc/ni/interlock.hpp, which states the
// rule; tb/interlock_test.cpp checks the two every cycle.
//
// One block a cycle. A cycle's Reduce blocks (port order) join a queue, and the interlock
// takes its head each cycle (a block of this cycle when the queue is empty). The queue is a
// FIFO of QUEUE places in BANKS banks (the power of two at or above K): place n lives in bank
// n mod BANKS, row n / BANKS, so a cycle's pushes fall in distinct banks and each bank is a
// storage_array of one write and one read port. Every queued block holds a block slot, so a
// queue of as many places as slots never overflows.
//
// The rule kept as counts. The block taken counts the blocks it overlaps: those being reduced
// and those waiting. Each write-back takes one off the count of every waiting block it
// overlaps (and of the block taken in its cycle). The block taken reads now if its count is
// zero; otherwise it waits, and the oldest waiting block whose count is zero reads after the
// cycle's write-back, one a cycle. Ranges, not start addresses: the plans give a node
// partially overlapping Reduce blocks (systemc/ni/README.md).
//
// Per cycle one block is compared with the entries held (REDUCING + WAITS range compares) and
// the write-back with the waiting blocks; a waiting block is never compared with every block
// again. Blocks being reduced form a FIFO: reads issue, complete, are summed and written back
// in one order, so the write-back is always its head. The waiting list is kept oldest first;
// the one leaving a cycle closes its gap.
//
// Overflows raise reducing_full_o and waiting_full_o, counted as the SystemC model counts
// them (NiConfig::reducing_blocks, waiting_blocks): the block taken if it reads now before the
// write-back's pop, the released one after it; the waiting list after the cycle.
module interlock #(
  // New blocks per cycle (NI ports).
  parameter int unsigned K = 4,
  // Width of an address.
  parameter int unsigned ADDR_W = 32,
  // Width of a block's length in bytes.
  parameter int unsigned LEN_W = 9,
  // Width of a block slot id.
  parameter int unsigned SLOT_W = 7,
  // Places of the queue (a power of two of at least two rows of its banks; the block slots).
  parameter int unsigned QUEUE = 128,
  // Blocks being reduced at once (a power of two; NiConfig::reducing_blocks).
  parameter int unsigned REDUCING = 64,
  // Blocks waiting at once (NiConfig::waiting_blocks).
  parameter int unsigned WAITS = 32,
  localparam int unsigned R_W = REDUCING > 1 ? $clog2(REDUCING) : 1,
  localparam int unsigned CNT_W = $clog2(REDUCING + WAITS + 1),
  localparam int unsigned END_W = ADDR_W + 1,
  localparam int unsigned Q_W = $clog2(QUEUE),
  localparam int unsigned BANK_W = K > 1 ? $clog2(K) : 1,
  localparam int unsigned BANKS = 1 << BANK_W,
  localparam int unsigned ROWS = QUEUE / BANKS,
  localparam int unsigned ROW_W = ROWS > 1 ? $clog2(ROWS) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // This cycle's Reduce blocks, port order: slot, address, length (not zero).
  input  logic [K-1:0]        new_i,
  input  logic [K*SLOT_W-1:0] new_slot_i,
  input  logic [K*ADDR_W-1:0] new_addr_i,
  input  logic [K*LEN_W-1:0]  new_len_i,
  // The block taken from the queue reads now (otherwise it waits, or none was taken).
  output logic                issue_o,
  output logic [SLOT_W-1:0]   issue_slot_o,
  output logic [ADDR_W-1:0]   issue_addr_o,
  output logic [LEN_W-1:0]    issue_len_o,
  // The write-back of the oldest block being reduced issues (its slot for a check only).
  input  logic                wb_i,
  input  logic [SLOT_W-1:0]   wb_slot_i,
  // The waiting block that reads after it.
  output logic                release_o,
  output logic [SLOT_W-1:0]   release_slot_o,
  output logic [ADDR_W-1:0]   release_addr_o,
  output logic [LEN_W-1:0]    release_len_o,
  output logic                reducing_full_o,
  output logic                waiting_full_o
);

  if ((REDUCING & (REDUCING - 1)) != 0) begin : g_bad_reducing
    $error("interlock: REDUCING must be a power of two");
  end
  if (ROWS < 2 || (QUEUE & (QUEUE - 1)) != 0) begin : g_bad_queue
    $error("interlock: QUEUE must be a power of two of at least two rows of the banks");
  end

  localparam int unsigned LIST = WAITS + 1;  // the waiting list with this cycle's block
  localparam int unsigned LIST_W = $clog2(LIST + 1);
  // A queued block: slot, address, length.
  localparam int unsigned REC_W = SLOT_W + ADDR_W + LEN_W;
  // A range: slot, start and stop (start + length: a range may end at 2^ADDR_W), packed
  // {slot, start, stop}; a waiting block: a range and the count of blocks it waits for.
  localparam int unsigned RANGE_W = SLOT_W + ADDR_W + END_W;
  localparam int unsigned WAITER_W = RANGE_W + CNT_W;

  /* verilator lint_off UNUSEDSIGNAL */  // each takes one field of a range
  function automatic logic [SLOT_W-1:0] slot_of(input logic [RANGE_W-1:0] r);
    slot_of = r[RANGE_W-1 -: SLOT_W];
  endfunction
  function automatic logic [ADDR_W-1:0] start_of(input logic [RANGE_W-1:0] r);
    start_of = r[END_W +: ADDR_W];
  endfunction
  function automatic logic [END_W-1:0] stop_of(input logic [RANGE_W-1:0] r);
    stop_of = r[END_W-1:0];
  endfunction
  function automatic logic overlap(input logic [RANGE_W-1:0] a, input logic [RANGE_W-1:0] b);
    overlap = END_W'(start_of(a)) < stop_of(b) && END_W'(start_of(b)) < stop_of(a);
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- the queue: this cycle's blocks join at the tail, the head is taken ------------------
  logic [Q_W-1:0]         q_head_q;
  logic [Q_W:0]           q_count_q;
  logic [BANKS-1:0]       q_we;
  logic [BANKS*ROW_W-1:0] q_waddr;
  logic [BANKS*REC_W-1:0] q_wdata, q_rdata;
  logic [Q_W:0]           q_pushes;
  logic                   take;
  logic [REC_W-1:0]       head_rec;

  always_comb begin
    logic [Q_W-1:0] at;
    q_we = '0;
    q_waddr = '0;
    q_wdata = '0;
    q_pushes = '0;
    for (int p = 0; p < K; p++) begin
      at = q_head_q + Q_W'(q_count_q) + Q_W'(q_pushes);
      if (new_i[p]) begin
        q_we[at[BANK_W-1:0]] = 1'b1;
        q_waddr[ROW_W*at[BANK_W-1:0] +: ROW_W] = ROW_W'(at >> BANK_W);
        q_wdata[REC_W*at[BANK_W-1:0] +: REC_W] = {new_slot_i[SLOT_W*p +: SLOT_W],
                                                  new_addr_i[ADDR_W*p +: ADDR_W],
                                                  new_len_i[LEN_W*p +: LEN_W]};
        q_pushes = q_pushes + (Q_W + 1)'(1);
      end
    end
    // An empty queue's head is this cycle's first block, being written at the head's place.
    take = q_count_q != '0 || new_i != '0;
    head_rec = q_count_q != '0 ? q_rdata[REC_W*q_head_q[BANK_W-1:0] +: REC_W]
                               : q_wdata[REC_W*q_head_q[BANK_W-1:0] +: REC_W];
  end

  for (genvar b = 0; b < BANKS; b++) begin : g_bank
    storage_array #(.WIDTH(REC_W), .DEPTH(ROWS), .WRITES(1), .READS(1)) u_queue (
      .clk_i, .we_i(q_we[b]), .waddr_i(q_waddr[ROW_W*b +: ROW_W]), .wmask_i(1'b1),
      .wdata_i(q_wdata[REC_W*b +: REC_W]), .raddr_i(ROW_W'(q_head_q >> BANK_W)),
      .rdata_o(q_rdata[REC_W*b +: REC_W])
    );
  end

  // The block taken, as a range.
  logic [RANGE_W-1:0] nb;
  assign nb = {head_rec[REC_W-1 -: SLOT_W], head_rec[LEN_W +: ADDR_W],
               END_W'(head_rec[LEN_W +: ADDR_W]) + END_W'(head_rec[LEN_W-1:0])};

  // The blocks being reduced (a FIFO) and the waiting list (oldest first).
  logic [RANGE_W-1:0]  red_q [REDUCING];
  logic [REDUCING-1:0] red_valid_q;
  logic [R_W-1:0]      red_head_q;
  logic [R_W:0]        red_n_q;
  logic [WAITER_W-1:0] wait_q [WAITS];
  logic [LIST_W-1:0]   wait_n_q;

  logic [RANGE_W-1:0] head;
  assign head = red_q[red_head_q];

  // ---- the block taken: its count ------------------------------------------------------------
  logic [CNT_W-1:0] nb_count;  // after this cycle's write-back
  logic             nb_wait;

  always_comb begin
    logic [CNT_W-1:0] n;
    n = '0;
    for (int r = 0; r < REDUCING; r++) begin
      if (red_valid_q[r] && overlap(nb, red_q[r])) n = n + CNT_W'(1);
    end
    for (int w = 0; w < WAITS; w++) begin
      if (w < 32'(wait_n_q) && overlap(nb, wait_q[w][WAITER_W-1 -: RANGE_W])) n = n + CNT_W'(1);
    end
    issue_o = take && n == '0;
    nb_wait = take && n != '0;
    nb_count = n - CNT_W'(wb_i && overlap(nb, head));
  end
  assign issue_slot_o = slot_of(nb);
  assign issue_addr_o = start_of(nb);
  assign issue_len_o = head_rec[LEN_W-1:0];

  // ---- the waiting list with the new waiting block appended, after the write-back -----------
  logic [LIST*WAITER_W-1:0] list;
  logic [LIST_W-1:0]        list_n;

  always_comb begin
    logic [WAITER_W-1:0] w;
    list = '0;
    for (int i = 0; i < WAITS; i++) begin
      w = wait_q[i];
      w[CNT_W-1:0] = w[CNT_W-1:0] - CNT_W'(wb_i && overlap(w[WAITER_W-1 -: RANGE_W], head));
      list[WAITER_W*i +: WAITER_W] = w;
    end
    list_n = wait_n_q;
    if (nb_wait) begin
      list[WAITER_W*wait_n_q +: WAITER_W] = {nb, nb_count};
      list_n = wait_n_q + LIST_W'(1);
    end
  end

  // The oldest whose count is zero reads now.
  logic [LIST_W-1:0]   rel_idx;
  logic [RANGE_W-1:0]  rel;
  always_comb begin
    release_o = 1'b0;
    rel_idx = '0;
    for (int i = LIST - 1; i >= 0; i--) begin
      if (i < 32'(list_n) && list[WAITER_W*i +: CNT_W] == '0) begin
        release_o = 1'b1;
        rel_idx = LIST_W'(i);
      end
    end
    rel = list[WAITER_W*rel_idx + CNT_W +: RANGE_W];
  end
  assign release_slot_o = slot_of(rel);
  assign release_addr_o = start_of(rel);
  assign release_len_o = LEN_W'(stop_of(rel) - END_W'(start_of(rel)));

  // ---- overflows, counted as the SystemC model counts ---------------------------------------
  logic [R_W:0]      issued;
  logic [LIST_W-1:0] waiting_after;
  always_comb begin
    issued = (R_W + 1)'(issue_o);
    waiting_after = list_n - LIST_W'(release_o);
    reducing_full_o = 32'(red_n_q) + 32'(issued) > REDUCING ||
                      32'(red_n_q) + 32'(issued) - 32'(wb_i) + 32'(release_o) > REDUCING;
    waiting_full_o = 32'(waiting_after) > WAITS;
  end

  // Where this cycle's blocks that read join the FIFO: after its last entry, the block taken,
  // then the released one.
  logic [R_W-1:0] issue_at, release_at;
  assign issue_at = red_head_q + R_W'(red_n_q);
  assign release_at = issue_at + R_W'(issue_o);

  // ---- state ---------------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      q_head_q <= '0;
      q_count_q <= '0;
      red_valid_q <= '0;
      red_head_q <= '0;
      red_n_q <= '0;
      wait_n_q <= '0;
    end else begin
      if (wb_i) begin
        red_valid_q[red_head_q] <= 1'b0;
        red_head_q <= red_head_q + R_W'(1);
      end
      if (issue_o) red_valid_q[issue_at] <= 1'b1;
      if (release_o) red_valid_q[release_at] <= 1'b1;
      red_n_q <= red_n_q + issued - (R_W + 1)'(wb_i) + (R_W + 1)'(release_o);
      wait_n_q <= waiting_after > LIST_W'(WAITS) ? LIST_W'(WAITS) : waiting_after;
      q_head_q <= q_head_q + Q_W'(take);
      q_count_q <= q_count_q + q_pushes - (Q_W + 1)'(take);
    end
  end

  // Entry contents (no reset: read only where red_valid_q and wait_n_q say so). The waiting
  // list closes the released block's gap.
  always_ff @(posedge clk_i) begin
    if (issue_o) red_q[issue_at] <= nb;
    if (release_o) red_q[release_at] <= rel;
    for (int i = 0; i < WAITS; i++) begin
      wait_q[i] <= release_o && i >= 32'(rel_idx) ? list[WAITER_W*(i+1) +: WAITER_W]
                                                 : list[WAITER_W*i +: WAITER_W];
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && 32'(q_count_q) + 32'(q_pushes) > QUEUE) begin
      $error("interlock: more Reduce blocks queued than QUEUE places");
    end
    if (rst_ni && wb_i && (red_n_q == '0 || slot_of(head) != wb_slot_i)) begin
      $error("interlock: write-back of block %0d, which is not the oldest being reduced",
             wb_slot_i);
    end
  end
`endif

endmodule
