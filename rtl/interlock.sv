// The read-after-write interlock of Reduce blocks: a Reduce block must not read the local
// partial sum while a block of the same 256-byte line is being reduced (read issued,
// write-back not yet issued) or waits before it. SystemC twin: systemc/ni/interlock.hpp, which
// states the rule; tb/interlock_test.cpp checks the two every cycle.
//
// One block a cycle. A cycle's Reduce blocks (port order) join a queue, and the interlock
// takes its head each cycle, from the cycle after a block joins. The queue is a
// FIFO of QUEUE places in BANKS banks (the power of two at or above K): place n lives in bank
// n mod BANKS, row n / BANKS, so a cycle's pushes fall in distinct banks and each bank is a
// storage_array of one write and one read port, written a cycle later from a register of the
// cycle's blocks (the input register of a macro's write port, ahead of the placement). The head is
// held in a register, refilled each cycle from the next place or this cycle's first block, so
// the block taken comes from a register. Every queued block holds a block slot, so a queue of
// a place per slot number never overflows.
//
// Keyed by line: every block lies within one line (the ejection decoder cuts blocks at lines),
// so blocks conflict exactly when their lines are equal. The blocks being reduced are a FIFO
// of REDUCING entries (reads issue, complete, are summed and written back in one order, so the
// write-back is always its head); an entry holds its block's line and the last block of the
// line's chain, the blocks of that line waiting behind it in arrival order. A waiting block is
// only a successor link: a word of the successor array, one per block slot, written at the
// chain's last block with the waiting block's slot, address and length; it needs no place
// beyond its block slot.
//   take: the block taken looks its line up in the entries' lines (an exact-match CAM, one
//     search a cycle); on a hit it waits, written as the successor of the entry's last block,
//     which it becomes; otherwise it reads now and its line gets an entry.
//   write-back: the head entry leaves; if its last block is not itself, its successor (one
//     read of the successor array, at the written-back slot) reads now, after the write-back,
//     and takes over the entry's line and last block.
// So per cycle: one CAM search, one successor write and one successor read (a storage_array of
// one write and one read port), no list searched or compacted.
//
// An overflow raises reducing_full_o, counted as the SystemC model counts it
// (NiConfig::reducing_blocks): the block taken if it reads now before the write-back's pop,
// the released one after it.
module interlock #(
  // New blocks per cycle (NI ports).
  parameter int unsigned K = 4,
  // Width of an address.
  parameter int unsigned ADDR_W = 32,
  // Width of a block's length in bytes.
  parameter int unsigned LEN_W = 9,
  // Width of a block slot id.
  parameter int unsigned SLOT_W = 7,
  // Width of what else travels with a block (the NI's message record), not looked at here.
  parameter int unsigned META_W = 1,
  // Places of the queue (a power of two of at least two rows of its banks; the block slots).
  parameter int unsigned QUEUE = 128,
  // Blocks being reduced at once (a power of two; NiConfig::reducing_blocks).
  parameter int unsigned REDUCING = 64,
  localparam int unsigned R_W = REDUCING > 1 ? $clog2(REDUCING) : 1,
  localparam int unsigned LINE_SHIFT = $clog2(ni_formats_pkg::FLIT_LINE_BYTES),
  localparam int unsigned LINE_W = ADDR_W - LINE_SHIFT,
  localparam int unsigned Q_W = $clog2(QUEUE),
  localparam int unsigned BANK_W = K > 1 ? $clog2(K) : 1,
  localparam int unsigned BANKS = 1 << BANK_W,
  localparam int unsigned ROWS = QUEUE / BANKS,
  localparam int unsigned ROW_W = ROWS > 1 ? $clog2(ROWS) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // This cycle's Reduce blocks, port order: slot, address, length (not zero, within a line).
  input  logic [K-1:0]        new_i,
  input  logic [K*SLOT_W-1:0] new_slot_i,
  input  logic [K*META_W-1:0] new_meta_i,
  input  logic [K*ADDR_W-1:0] new_addr_i,
  input  logic [K*LEN_W-1:0]  new_len_i,
  // The block taken from the queue reads now (otherwise it waits, or none was taken).
  output logic                issue_o,
  output logic [SLOT_W-1:0]   issue_slot_o,
  output logic [META_W-1:0]   issue_meta_o,
  output logic [ADDR_W-1:0]   issue_addr_o,
  output logic [LEN_W-1:0]    issue_len_o,
  // The write-back of the oldest block being reduced issues: its slot.
  input  logic                wb_i,
  input  logic [SLOT_W-1:0]   wb_slot_i,
  // The waiting block that reads after it.
  output logic                release_o,
  output logic [SLOT_W-1:0]   release_slot_o,
  output logic [META_W-1:0]   release_meta_o,
  output logic [ADDR_W-1:0]   release_addr_o,
  output logic [LEN_W-1:0]    release_len_o,
  output logic                reducing_full_o
);

  if ((REDUCING & (REDUCING - 1)) != 0) begin : g_bad_reducing
    $error("interlock: REDUCING must be a power of two");
  end
  if (ROWS < 2 || (QUEUE & (QUEUE - 1)) != 0) begin : g_bad_queue
    $error("interlock: QUEUE must be a power of two of at least two rows of the banks");
  end
  if (QUEUE > (1 << SLOT_W)) begin : g_bad_slots
    $error("interlock: QUEUE must not exceed the block slots SLOT_W can name");
  end

  // A queued block, and a successor word: slot, what travels with it, address, length.
  localparam int unsigned REC_W = SLOT_W + META_W + ADDR_W + LEN_W;

  // ---- the queue: this cycle's blocks join at the tail, the head is taken ------------------
  logic [Q_W-1:0]         q_head_q;
  logic [Q_W:0]           q_count_q;
  logic [BANKS-1:0]       q_we;
  logic [BANKS*ROW_W-1:0] q_waddr;
  logic [BANKS*REC_W-1:0] q_wdata, q_rdata;
  logic [Q_W:0]           q_pushes;
  logic                   take;
  logic [REC_W-1:0]       head_rec;

  // This cycle's blocks are registered as they come (new_q, rec_q, with the tail they join at)
  // and written into the banks in the next cycle, from those registers: the input register a
  // macro's registered write port would have, ahead of the placement rather than after it, so
  // the decoders' late verdicts only reach a register. The s-th block of a cycle goes to place
  // tail + s, so bank b takes block (b - tail) mod BANKS, at a row the registers alone give.
  // A read of a place in the cycle its block is written takes the block being written.
  logic [Q_W-1:0]     q_tail, tail_q;
  logic [K-1:0]       new_q, pushed;
  logic [K*REC_W-1:0] rec_q, pushed_rec;
  logic [REC_W-1:0]   first_rec;  // this cycle's first block, for the head
  assign q_tail = q_head_q + Q_W'(q_count_q);
  always_ff @(posedge clk_i) begin
    if (!rst_ni) new_q <= '0;
    else new_q <= new_i;
    tail_q <= q_tail;
    for (int p = 0; p < K; p++) begin
      rec_q[REC_W*p +: REC_W] <= {new_slot_i[SLOT_W*p +: SLOT_W], new_meta_i[META_W*p +: META_W],
                                  new_addr_i[ADDR_W*p +: ADDR_W], new_len_i[LEN_W*p +: LEN_W]};
    end
  end
  // The pushes of this cycle (counted, one-hot) and the first block.
  logic [K:0] n_pushed;  // one-hot: this cycle's pushes
  always_comb begin
    logic found;
    found = 1'b0;
    first_rec = '0;
    n_pushed = (K + 1)'(1);
    q_pushes = '0;
    for (int p = 0; p < K; p++) begin
      if (new_i[p] && !found) begin
        first_rec = {new_slot_i[SLOT_W*p +: SLOT_W], new_meta_i[META_W*p +: META_W],
                     new_addr_i[ADDR_W*p +: ADDR_W], new_len_i[LEN_W*p +: LEN_W]};
      end
      found = found || new_i[p];
      if (new_i[p]) n_pushed = n_pushed << 1;
      q_pushes = q_pushes + (Q_W + 1)'(new_i[p]);
    end
  end
  // The previous cycle's blocks packed in port order: the s-th is pushed_rec[s]. A port's
  // block is the s-th when s ports before it have one: a one-hot position shifted at each (at).
  always_comb begin
    logic [K-1:0] at;
    at = K'(1);
    pushed = '0;
    pushed_rec = '0;
    for (int p = 0; p < K; p++) begin
      for (int n = 0; n < K; n++) begin
        if (new_q[p] && at[n]) begin
          pushed[n] = 1'b1;
          pushed_rec[REC_W*n +: REC_W] |= rec_q[REC_W*p +: REC_W];
        end
      end
      if (new_q[p]) at = at << 1;
    end
  end
  always_comb begin
    for (int b = 0; b < BANKS; b++) begin
      logic [BANK_W-1:0] s;
      logic [Q_W-1:0]    at;
      s = BANK_W'(b) - tail_q[BANK_W-1:0];
      at = tail_q + Q_W'(s);
      q_we[b] = 32'(s) < K && pushed[s];
      q_waddr[ROW_W*b +: ROW_W] = ROW_W'(at >> BANK_W);
      q_wdata[REC_W*b +: REC_W] = 32'(s) < K ? pushed_rec[REC_W*s +: REC_W] : '0;
    end
  end

  // The head of the queue as it stood at the start of the cycle (a block joins in one cycle and
  // can be taken from the next: the queue is the register stage after the decoders), held in
  // a register: each cycle it becomes the record at the next place (read from the banks at an
  // address the head alone gives) or, where the queue holds no more, this cycle's first block.
  logic [REC_W-1:0] head_q;
  logic [Q_W-1:0]   q_next;
  assign take = q_count_q != '0;
  assign head_rec = head_q;
  assign q_next = q_head_q + Q_W'(1);

  for (genvar b = 0; b < BANKS; b++) begin : g_bank
    storage_array #(.WIDTH(REC_W), .DEPTH(ROWS), .WRITES(1), .READS(1)) u_queue (
      .clk_i, .we_i(q_we[b]), .waddr_i(q_waddr[ROW_W*b +: ROW_W]), .wmask_i(1'b1),
      .wdata_i(q_wdata[REC_W*b +: REC_W]), .raddr_i(ROW_W'(q_next >> BANK_W)), .re_i('1),
      .rdata_o(q_rdata[REC_W*b +: REC_W])
    );
  end

  // The next place, or its block as it is written in this cycle (the write's bypass: from
  // registers, as the address compare is).
  logic [REC_W-1:0] next_rec;
  always_comb begin
    logic [BANK_W-1:0] nb;
    nb = q_next[BANK_W-1:0];
    next_rec = q_we[nb] && q_waddr[ROW_W*nb +: ROW_W] == ROW_W'(q_next >> BANK_W)
             ? q_wdata[REC_W*nb +: REC_W] : q_rdata[REC_W*nb +: REC_W];
  end
  always_ff @(posedge clk_i) begin
    head_q <= q_count_q > (Q_W + 1)'(1) ? next_rec : first_rec;
  end

  logic [SLOT_W-1:0] nb_slot;
  logic [ADDR_W-1:0] nb_addr;
  logic [LINE_W-1:0] nb_line;
  assign nb_slot = head_rec[REC_W-1 -: SLOT_W];
  assign nb_addr = head_rec[LEN_W +: ADDR_W];
  assign nb_line = nb_addr[ADDR_W-1 -: LINE_W];

  // The blocks being reduced: a FIFO of their lines and their chains' last blocks.
  logic [LINE_W-1:0]   line_q [REDUCING];
  logic [SLOT_W-1:0]   last_q [REDUCING];
  logic [REDUCING-1:0] red_valid_q;
  logic [R_W-1:0]      red_head_q;
  logic [R_W:0]        red_n_q;
  // The head entry's line, held in a register beside line_q[red_head_q] (the CAM's search of
  // the head entry, which the write-back's release waits on, then starts from registers).
  logic [LINE_W-1:0]   head_line_q;

  // ---- take: the block taken looks its line up -----------------------------------------------
  // A line has at most one entry (a block of a line with an entry waits instead of taking one),
  // so the match is one-hot and its position is the OR of the matching entries' numbers.
  logic [REDUCING-1:0] line_match;
  logic                hit;
  logic [R_W-1:0]      hit_at;
  always_comb begin
    hit_at = '0;
    for (int r = 0; r < REDUCING; r++) begin
      line_match[r] = line_q[r] == nb_line;
      if (red_valid_q[r] && line_match[r]) hit_at = hit_at | R_W'(r);
    end
    hit = (red_valid_q & line_match) != '0;
  end

  logic nb_wait;
  assign issue_o = take && !hit;
  assign nb_wait = take && hit;
  assign issue_slot_o = nb_slot;
  assign issue_meta_o = head_rec[ADDR_W + LEN_W +: META_W];
  assign issue_addr_o = nb_addr;
  assign issue_len_o = head_rec[LEN_W-1:0];

  // The block taken waits on each entry whose line it matches (one at most), and on the head
  // entry in particular (its line compared alone: the head is a register's choice).
  logic [REDUCING-1:0] wait_on;
  logic                wait_on_head;
  assign wait_on = {REDUCING{take}} & red_valid_q & line_match;
  assign wait_on_head = take && red_valid_q[red_head_q] && head_line_q == nb_line;

  // ---- successors: written at the chain's last block, read at the written-back one -----------
  logic [SLOT_W-1:0] succ_waddr;
  logic [REC_W-1:0]  succ_rdata, rel_rec;
  assign succ_waddr = last_q[hit_at];

  storage_array #(
    .WIDTH(REC_W), .DEPTH(QUEUE), .WRITES(1), .READS(1), .WRITE_REG(1'b1)
  ) u_successor (
    .clk_i, .we_i(nb_wait), .waddr_i(Q_W'(succ_waddr)), .wmask_i(1'b1), .wdata_i(head_rec),
    .raddr_i(Q_W'(wb_slot_i)), .re_i('1), .rdata_o(succ_rdata)
  );

  // ---- write-back: the head entry leaves; its chain's next block reads now --------------------
  // The written-back block is the head entry's block being reduced, so it ends no other
  // entry's chain: this cycle's block became its successor exactly when it waits on the head
  // entry whose chain the written-back block ends.
  logic [SLOT_W-1:0] head_last;
  always_comb begin
    logic head_ends_wb;  // the head entry's chain ends at the written-back block
    head_ends_wb = last_q[red_head_q] == wb_slot_i;
    head_last = wait_on_head ? nb_slot : last_q[red_head_q];
    // (both compares made, the head's wait picking one)
    release_o = wb_i && (wait_on_head ? nb_slot != wb_slot_i : !head_ends_wb);
    rel_rec = wait_on_head && head_ends_wb ? head_rec : succ_rdata;
  end
  assign release_slot_o = rel_rec[REC_W-1 -: SLOT_W];
  assign release_meta_o = rel_rec[ADDR_W + LEN_W +: META_W];
  assign release_addr_o = rel_rec[LEN_W +: ADDR_W];
  assign release_len_o = rel_rec[LEN_W-1:0];

  // ---- overflows, counted as the SystemC model counts ---------------------------------------
  // The count against the bound for each change the cycle can make (from the register alone),
  // picked by the block taken and the released one.
  logic [R_W:0] issued;
  logic         over_m1, over_0, over_1, over_2;  // red_n_q - 1, + 0, 1, 2 > REDUCING
  assign issued = (R_W + 1)'(issue_o);
  // (red_n_q - 1 wraps at zero, as the unsigned count of the SystemC model does)
  assign over_m1 = red_n_q == '0 || 32'(red_n_q) > REDUCING + 1;
  assign over_0 = 32'(red_n_q) > REDUCING;
  assign over_1 = 32'(red_n_q) + 1 > REDUCING;
  assign over_2 = 32'(red_n_q) + 2 > REDUCING;
  always_comb begin
    logic after_issue, after_release;
    after_issue = issue_o ? over_1 : over_0;
    // red_n_q + issued - wb + released, by how much it moves from red_n_q.
    unique case ({issue_o, release_o, wb_i})
      3'b001:                  after_release = over_m1;
      3'b000, 3'b101, 3'b011:  after_release = over_0;
      3'b100, 3'b010, 3'b111:  after_release = over_1;
      default:                 after_release = over_2;  // 3'b110
    endcase
    reducing_full_o = after_issue || after_release;
  end

  // Where this cycle's blocks that read join the FIFO: after its last entry (issue_at) the
  // block taken, then the released one.
  logic [R_W-1:0] issue_at;
  assign issue_at = red_head_q + R_W'(red_n_q);

  // The queue's count after this cycle for each number of pushes (from the register), picked
  // by the pushes' one-hot: the blocks, late, only select.
  logic [Q_W:0] q_count_d;
  always_comb begin
    logic [Q_W:0] kept;
    kept = q_count_q - (Q_W + 1)'(take);
    q_count_d = '0;
    for (int n = 0; n <= K; n++) begin
      if (n_pushed[n]) q_count_d |= kept + (Q_W + 1)'(n);
    end
  end

  // ---- state ---------------------------------------------------------------------------------
  // Each entry's updates from its own conditions. Entry issue_at takes the block taken when it
  // reads, and the released block when only that reads; the entry after it takes the released
  // block when both read. The released block's line is the head entry's, its chain's last the
  // head's (head_last). The verdict on the block taken (issue_o, the CAM's) comes last: it sets
  // the valid bits and picks the entry's contents once (below). The entry the block taken
  // waits on gets it as its chain's last.
  logic [REDUCING-1:0] at_end, after_end;  // the entries at issue_at, and after it
  always_comb begin
    for (int r = 0; r < REDUCING; r++) begin
      at_end[r] = R_W'(r) == issue_at;
      after_end[r] = R_W'(r) == issue_at + R_W'(1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      q_head_q <= '0;
      q_count_q <= '0;
      red_valid_q <= '0;
      red_head_q <= '0;
      red_n_q <= '0;
    end else begin
      for (int r = 0; r < REDUCING; r++) begin
        if ((at_end[r] && (issue_o || release_o)) || (after_end[r] && issue_o && release_o)) begin
          red_valid_q[r] <= 1'b1;
        end else if (wb_i && R_W'(r) == red_head_q) begin
          red_valid_q[r] <= 1'b0;
        end
      end
      if (wb_i) red_head_q <= red_head_q + R_W'(1);
      red_n_q <= red_n_q + issued - (R_W + 1)'(wb_i) + (R_W + 1)'(release_o);
      q_head_q <= q_head_q + Q_W'(take);
      q_count_q <= q_count_d;
    end
  end

  // Entry contents (no reset: read only where red_valid_q says so). An entry the FIFO does not
  // hold (beyond a full FIFO's last) is never written: a block or release that finds it so is
  // the overflow reducing_full_o reports. A free entry may be written without joining the FIFO,
  // so the verdict on the block taken need not reach every entry's write enable: the entry at
  // issue_at is written whenever a block is taken or released, with the block taken unless
  // only the released block reads (the verdict's one pick, ahead of the entries), and the entry
  // after it with the released block whenever one is released; each joins the FIFO (its valid
  // bit) only if its block reads.
  logic [REDUCING-1:0] free_at;  // entries the FIFO does not hold at the cycle's start
  always_comb begin
    for (int r = 0; r < REDUCING; r++) begin
      free_at[r] = !red_valid_q[r] || (wb_i && R_W'(r) == red_head_q);
    end
  end
  logic              only_rel;
  logic [LINE_W-1:0] at_line;
  logic [SLOT_W-1:0] at_last;
  assign only_rel = release_o && !issue_o;
  assign at_line = only_rel ? head_line_q : nb_line;
  assign at_last = only_rel ? head_last : nb_slot;
  always_ff @(posedge clk_i) begin
    for (int r = 0; r < REDUCING; r++) begin
      if (at_end[r] && free_at[r] && (take || release_o)) begin
        line_q[r] <= at_line;
        last_q[r] <= at_last;
      end else if (after_end[r] && free_at[r] && release_o) begin
        line_q[r] <= head_line_q;
        last_q[r] <= head_last;
      end else if (wait_on[r]) begin
        last_q[r] <= nb_slot;
      end
    end
  end

  // The head entry after this edge, as its line will be: the next entry's after a write-back.
  // Whether this cycle writes it is a pick of the verdicts between register-made conditions.
  logic [R_W-1:0] h;
  logic           h_at, h_after;  // it is entry issue_at, the entry after it, and free
  assign h = wb_i ? red_head_q + R_W'(1) : red_head_q;
  assign h_at = h == issue_at && free_at[h];
  assign h_after = h == issue_at + R_W'(1) && free_at[h];
  always_ff @(posedge clk_i) begin
    if (issue_o && h_at) head_line_q <= nb_line;
    else if (release_o && (issue_o ? h_after : h_at)) head_line_q <= head_line_q;
    else head_line_q <= line_q[h];
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && red_n_q != '0 && head_line_q != line_q[red_head_q]) begin
      $error("interlock: the head entry's line register is not its line");
    end
    if (rst_ni && wb_i && nb_wait && succ_waddr == wb_slot_i && hit_at != red_head_q) begin
      $error("interlock: block %0d ends a chain but the head entry's", wb_slot_i);
    end
    if (rst_ni && 32'(q_count_q) + 32'(q_pushes) > QUEUE) begin
      $error("interlock: more Reduce blocks queued than QUEUE places");
    end
    if (rst_ni && take && $countones(red_valid_q & line_match) > 1) begin
      $error("interlock: line of block %0d has more than one entry", nb_slot);
    end
    if (rst_ni && wb_i && red_n_q == '0) begin
      $error("interlock: write-back of block %0d with no block being reduced", wb_slot_i);
    end
    if (rst_ni && take &&
        (nb_addr >> LINE_SHIFT) !=
        ((nb_addr + ADDR_W'(head_rec[LEN_W-1:0]) - ADDR_W'(1)) >> LINE_SHIFT)) begin
      $error("interlock: block %0d is not within one line", nb_slot);
    end
  end
`endif

endmodule
