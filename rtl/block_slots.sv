// The NI's block slots: a received block holds one from its decode until its memory write
// completes (the write of a Gather block, or the write-back of a Reduce block's sum). SystemC
// twin: systemc/ni/block_slots.hpp, whose bound is NiConfig::block_slots.
//
// Allocation: the free slots are a FIFO, so a cycle's new blocks (port order) take
// consecutive places at its head and a completed write returns its slot at the tail. Place n
// lives in bank n mod BANKS, row n / BANKS, with BANKS the power of two at or above K: the
// pops of a cycle fall in distinct banks, and every bank is a storage_array of one write and
// one read port. At reset place n holds slot n without being written: until the head first
// wraps, a place is read as its own number. A new block that finds no free slot sets full_o
// (the SystemC NI stops there with an error naming block_slots).
//
// Message completion: a message is in memory when its last block has been decoded and no
// other block of it is live. A completing write compares its block's message (op, flow,
// sender) with the live blocks and this cycle's new ones; if others are live, the last flag
// passes to them.
module block_slots #(
  // Ports that decode a block per cycle.
  parameter int unsigned K = 4,
  // Slots (a power of two, at least two rows of the free FIFO's banks).
  parameter int unsigned BLOCKS = 128,
  // Width of a block's message key (op, flow, sender).
  parameter int unsigned KEY_W = 18,
  localparam int unsigned SLOT_W = BLOCKS > 1 ? $clog2(BLOCKS) : 1,
  localparam int unsigned BANK_W = K > 1 ? $clog2(K) : 1,
  localparam int unsigned BANKS = 1 << BANK_W,
  localparam int unsigned ROWS = BLOCKS / BANKS,
  localparam int unsigned ROW_W = ROWS > 1 ? $clog2(ROWS) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Blocks decoded in this cycle, port order: their message and whether it is its last.
  input  logic [K-1:0]          new_i,
  input  logic [K*KEY_W-1:0]    new_key_i,
  input  logic [K-1:0]          new_last_i,
  // The slot each took (take_o), and whether one found none.
  output logic [K-1:0]          take_o,
  output logic [K*SLOT_W-1:0]   slot_o,
  output logic                  full_o,
  // A block's memory write completes in this cycle.
  input  logic                  done_i,
  input  logic [SLOT_W-1:0]     done_slot_i,
  // Its message is in memory with it; the message.
  output logic                  arrive_o,
  output logic [KEY_W-1:0]      arrive_key_o,
  // No slot is live after this cycle's completion, leaving aside this cycle's new blocks.
  output logic                  empty_o
);

  if (ROWS < 2 || BLOCKS % BANKS != 0 || (BLOCKS & (BLOCKS - 1)) != 0) begin : g_bad_blocks
    $error("block_slots: BLOCKS must be a power of two of at least two rows of the banks");
  end

  logic [BLOCKS-1:0]  live_q, last_q;
  logic [KEY_W-1:0]   key_q [BLOCKS];

  // ---- allocation: pops at the free FIFO's head ----------------------------------------
  // The words at the K places from the head are held in registers (next_q), so a new block's
  // slot is a register picked by how many ports before it take one: no memory read between
  // the decoders and the slot. Each cycle the registers move on by the cycle's takes and fill
  // from the K places after them, read from the banks at addresses the head alone gives.
  logic [SLOT_W-1:0]       head_q;
  logic                    lap_q;   // the head has wrapped: every place was written
  logic [SLOT_W:0]         free_q;  // slots in the FIFO
  logic [K*SLOT_W-1:0]     next_q;  // the words at places head_q .. head_q + K - 1
  logic [SLOT_W:0]         takes;
  logic [BANKS*ROW_W-1:0]  bank_raddr;
  logic [BANKS*SLOT_W-1:0] bank_rdata;
  logic [K*SLOT_W-1:0]     ahead;   // the words at places head_q + K .. head_q + 2K - 1

  always_comb begin
    takes = '0;
    take_o = '0;
    full_o = 1'b0;
    slot_o = '0;
    for (int p = 0; p < K; p++) begin
      if (new_i[p]) begin
        if (takes < free_q) begin
          take_o[p] = 1'b1;
          slot_o[SLOT_W*p +: SLOT_W] = next_q[SLOT_W*takes[BANK_W-1:0] +: SLOT_W];
          takes = takes + (SLOT_W + 1)'(1);
        end else begin
          full_o = 1'b1;
        end
      end
    end
  end

  // The K places after the registered ones fall in distinct banks; until the head first wraps,
  // a place not yet written is read as its own number.
  logic [K*(SLOT_W+1)-1:0] ahead_at;  // their places, with the wrap as the top bit
  always_comb begin
    bank_raddr = '0;
    for (int j = 0; j < K; j++) begin
      logic [SLOT_W:0] at;
      at = {1'b0, head_q} + (SLOT_W + 1)'(K + j);
      ahead_at[(SLOT_W+1)*j +: SLOT_W+1] = at;
      bank_raddr[ROW_W*at[BANK_W-1:0] +: ROW_W] = ROW_W'(at[SLOT_W-1:0] >> BANK_W);
    end
  end
  always_comb begin
    for (int j = 0; j < K; j++) begin
      logic [SLOT_W:0] at;
      at = ahead_at[(SLOT_W+1)*j +: SLOT_W+1];
      ahead[SLOT_W*j +: SLOT_W] = lap_q || at[SLOT_W] ?
          bank_rdata[SLOT_W*at[BANK_W-1:0] +: SLOT_W] : at[SLOT_W-1:0];
    end
  end

  // ---- the free FIFO's banks: a completed write's slot joins at the tail ----------------
  logic [SLOT_W-1:0] tail;
  assign tail = head_q + SLOT_W'(free_q);

  for (genvar b = 0; b < BANKS; b++) begin : g_bank
    storage_array #(.WIDTH(SLOT_W), .DEPTH(ROWS), .WRITES(1), .READS(1)) u_free (
      .clk_i, .we_i(done_i && tail[BANK_W-1:0] == BANK_W'(b)),
      .waddr_i(ROW_W'(tail >> BANK_W)), .wmask_i(1'b1), .wdata_i(done_slot_i),
      .raddr_i(bank_raddr[ROW_W*b +: ROW_W]), .rdata_o(bank_rdata[SLOT_W*b +: SLOT_W])
    );
  end

  // The registers after this cycle: the words at the K places from the new head, the slot
  // returned this cycle where it lands among them.
  logic [K*SLOT_W-1:0] next_d;
  always_comb begin
    for (int j = 0; j < K; j++) begin
      logic [SLOT_W:0] from;
      from = takes + (SLOT_W + 1)'(j);  // the place's offset from head_q
      next_d[SLOT_W*j +: SLOT_W] = 32'(from) < K ? next_q[SLOT_W*from[BANK_W-1:0] +: SLOT_W]
                                               : ahead[SLOT_W*(32'(from) - K) +: SLOT_W];
      if (done_i && head_q + SLOT_W'(from) == tail) next_d[SLOT_W*j +: SLOT_W] = done_slot_i;
    end
  end

  // ---- message completion --------------------------------------------------------------
  logic [BLOCKS-1:0] pass_last;
  logic [K-1:0]      pass_last_new;
  logic [KEY_W-1:0]  done_key;

  assign done_key = key_q[done_slot_i];
  always_comb begin
    logic others;
    others = 1'b0;
    pass_last = '0;
    pass_last_new = '0;
    for (int s = 0; s < BLOCKS; s++) begin
      if (done_i && live_q[s] && SLOT_W'(s) != done_slot_i && key_q[s] == done_key) begin
        others = 1'b1;
        pass_last[s] = last_q[done_slot_i];
      end
    end
    for (int p = 0; p < K; p++) begin
      if (done_i && take_o[p] && new_key_i[KEY_W*p +: KEY_W] == done_key) begin
        others = 1'b1;
        pass_last_new[p] = last_q[done_slot_i];
      end
    end
    arrive_o = done_i && !others && last_q[done_slot_i];
  end
  assign arrive_key_o = done_key;

  // Every slot not in the FIFO is live.
  assign empty_o = free_q + (SLOT_W + 1)'(done_i) == (SLOT_W + 1)'(BLOCKS);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      head_q <= '0;
      lap_q <= 1'b0;
      for (int j = 0; j < K; j++) next_q[SLOT_W*j +: SLOT_W] <= SLOT_W'(j);
      free_q <= (SLOT_W + 1)'(BLOCKS);
      live_q <= '0;
      last_q <= '0;
    end else begin
      logic [SLOT_W:0] next;
      next = {1'b0, head_q} + takes;
      head_q <= next[SLOT_W-1:0];
      next_q <= next_d;
      if (next[SLOT_W]) lap_q <= 1'b1;
      free_q <= free_q - takes + (SLOT_W + 1)'(done_i);
      for (int s = 0; s < BLOCKS; s++) begin
        if (pass_last[s]) last_q[s] <= 1'b1;
      end
      if (done_i) live_q[done_slot_i] <= 1'b0;
      for (int p = 0; p < K; p++) begin
        if (take_o[p]) begin
          live_q[slot_o[SLOT_W*p +: SLOT_W]] <= 1'b1;
          last_q[slot_o[SLOT_W*p +: SLOT_W]] <= new_last_i[p] || pass_last_new[p];
        end
      end
    end
  end

  // Message keys (no reset: read only where a live bit says so).
  always_ff @(posedge clk_i) begin
    for (int p = 0; p < K; p++) begin
      if (take_o[p]) key_q[slot_o[SLOT_W*p +: SLOT_W]] <= new_key_i[KEY_W*p +: KEY_W];
    end
  end

endmodule
