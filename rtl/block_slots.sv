// The NI's block slots: a received block holds one from its first payload flit (the ejection
// decoder writes each flit into the slot as it arrives) until its memory write completes (the
// write of a Gather block, or the write-back of a Reduce block's sum), and the records that
// tell when a message is in memory. SystemC twin: systemc/ni/block_slots.hpp,
// whose bounds are NiConfig::block_slots and NiConfig::open_messages.
//
// Allocation: each port has its own BLOCKS slots (port p's are p * BLOCKS onwards: the port's
// number above the slot's place), so the NI writes a port's blocks into a data bank of
// one write port. A port's free slots are a free list (rtl/free_list.sv) of one request a
// cycle: its new block (at its first payload flit) takes the slot at the head, and a completed
// write returns its slot at the tail of its port's list. A new block that finds no free slot
// of its port sets full_o (the SystemC NI stops there with an error naming block_slots).
//
// Message completion: a message is in memory when its last block has been decoded and every
// block of it has completed. A message has a record from its first block's first payload flit
// until then, taken from a second free list of MESSAGES records: the count of its live blocks
// (each counted from its first payload flit, as it holds its slot) and whether its last block
// has been decoded, and the message's key (op, flow, sender), written when the record is
// taken. The ejection decoder keeps a message's record with the message (its VC's context, or
// its packet-table entry) and gives it with each later block's flits (msg_rec_i); the record
// travels with the block to its write's completion (done_rec_i), which counts it down and,
// when the message is in memory, reads its key. So per cycle each record is counted up by at
// most one new block and down by the completion: no search. Records are taken with the slots,
// from the decoders' context registers: the decode of a block (late in the cycle) is only
// registered, to set its record's last flag.
// A first block that finds no free record sets no_record_o (the SystemC NI stops there with an
// error naming open_messages).
module block_slots #(
  // Ports that decode a block per cycle.
  parameter int unsigned K = 4,
  // Slots of a port (a power of two of at least 4: two rows of a free list's banks;
  // NiConfig::block_slots).
  parameter int unsigned BLOCKS = 64,
  // Records of open messages (a power of two, at least two rows of the free list's banks;
  // NiConfig::open_messages).
  parameter int unsigned MESSAGES = 32,
  // Width of a message's key (op, flow, sender).
  parameter int unsigned KEY_W = 18,
  localparam int unsigned ID_W = $clog2(BLOCKS),  // a slot's place among its port's
  localparam int unsigned SLOT_W = $clog2(K * BLOCKS),
  localparam int unsigned MSG_W = MESSAGES > 1 ? $clog2(MESSAGES) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Blocks whose first payload flit arrives in this cycle, port order: the slot each took
  // (take_o), and whether one found no free slot (full_o).
  input  logic [K-1:0]          want_i,
  output logic [K-1:0]          take_o,
  output logic [K*SLOT_W-1:0]   slot_o,
  output logic                  full_o,
  // Of those, the blocks that are their message's first (each takes a record), their
  // messages' keys, and the records of the others' messages.
  input  logic [K-1:0]          first_i,
  input  logic [K*KEY_W-1:0]    key_i,
  input  logic [K*MSG_W-1:0]    msg_rec_i,
  // Each port's flit's message's record (taken in this cycle, or msg_rec_i), and whether a
  // first block found no free record (no_record_o).
  output logic [K*MSG_W-1:0]    rec_o,
  output logic                  no_record_o,
  // Blocks decoded (their last flit arrived) in this cycle that are their message's last, port
  // order (their records are rec_o).
  input  logic [K-1:0]          last_i,
  // A block's memory write completes in this cycle: its slot and its message's record.
  input  logic                  done_i,
  input  logic [SLOT_W-1:0]     done_slot_i,
  input  logic [MSG_W-1:0]      done_rec_i,
  // Its message is in memory with it; the message.
  output logic                  arrive_o,
  output logic [KEY_W-1:0]      arrive_key_o,
  // No slot is live after this cycle's completion, leaving aside the slots taken in this cycle.
  output logic                  empty_o
);

  // ---- slots: a free list per port ---------------------------------------------------------
  localparam int unsigned PORT_W = SLOT_W - ID_W;  // the port's number above the place

  if (BLOCKS < 4 || (1 << ID_W) != BLOCKS) begin : g_bad_blocks
    $error("block_slots: BLOCKS must be a power of two of at least 4");
  end

  logic [K-1:0] short, empty;
  for (genvar p = 0; p < K; p++) begin : g_port
    logic           put;
    logic [ID_W-1:0] id;
    logic [ID_W:0]  free;
    /* verilator lint_off UNUSEDSIGNAL */  // one request: its id is id_o
    logic [ID_W-1:0] head;
    /* verilator lint_on UNUSEDSIGNAL */
    if (PORT_W == 0) begin : g_one
      assign put = done_i;
      assign slot_o[SLOT_W*p +: SLOT_W] = SLOT_W'(id);
    end else begin : g_many
      assign put = done_i && done_slot_i[SLOT_W-1 -: PORT_W] == PORT_W'(p);
      assign slot_o[SLOT_W*p +: SLOT_W] = {PORT_W'(p), id};
    end
    free_list #(.K(1), .ENTRIES(BLOCKS)) u_slots (
      .clk_i, .rst_ni, .want_i(want_i[p]), .take_o(take_o[p]), .id_o(id), .short_o(short[p]),
      .head_ids_o(head), .put_i(put), .put_id_i(done_slot_i[ID_W-1:0]), .free_o(free)
    );
    // Every slot of the port not in its free list is live.
    assign empty[p] = free + (ID_W + 1)'(put) == (ID_W + 1)'(BLOCKS);
  end
  assign full_o = |short;
  assign empty_o = &empty;

  // ---- message records ---------------------------------------------------------------------
  localparam int unsigned COUNT_W = SLOT_W + 1;  // a message's live blocks: at most K * BLOCKS
  logic [K-1:0]        first, joining, alloc;
  logic [K*MSG_W-1:0]  fresh;      // the records first blocks take, by lane
  logic [K*MSG_W-1:0]  heads;      // and in order: the n-th first block takes heads' n-th
  logic                rec_short;
  logic [COUNT_W-1:0]  count_q [MESSAGES];
  logic [MESSAGES-1:0] last_q;
  logic [KEY_W-1:0]    key_q [MESSAGES];
  /* verilator lint_off UNUSEDSIGNAL */  // the records need no count of their own
  logic [MSG_W:0]      records_free;
  /* verilator lint_on UNUSEDSIGNAL */

  assign first = want_i & first_i;
  assign joining = want_i & ~first_i;
  free_list #(.K(K), .ENTRIES(MESSAGES)) u_records (
    .clk_i, .rst_ni, .want_i(first), .take_o(alloc), .id_o(fresh), .short_o(rec_short),
    .head_ids_o(heads),
    .put_i(arrive_o), .put_id_i(done_rec_i), .free_o(records_free)
  );
  assign no_record_o = rec_short;

  always_comb begin
    for (int p = 0; p < K; p++) begin
      rec_o[MSG_W*p +: MSG_W] = first[p] ? fresh[MSG_W*p +: MSG_W] : msg_rec_i[MSG_W*p +: MSG_W];
    end
  end

  // The completing block's message is in memory when it was its last live block and its last
  // block has been decoded. (No block of the message starts after its last block's decode, so
  // none joins in the completion's cycle then.)
  // (Which records would be in memory with their block's completion is a vector from the
  // registers: the completion only picks a bit.)
  // A decode's last flag is registered with its record (pend_q) and joins the record's flag
  // a cycle later; the completion reads both, so it sees the flag from the cycle after the
  // decode, as it would see the record's flag itself.
  logic [K-1:0]        pend_q;
  logic [K*MSG_W-1:0]  pend_rec_q;
  logic [MESSAGES-1:0] pend, closing;
  always_comb begin
    pend = '0;
    for (int p = 0; p < K; p++) begin
      if (pend_q[p]) pend |= MESSAGES'(1) << pend_rec_q[MSG_W*p +: MSG_W];
    end
    for (int r = 0; r < MESSAGES; r++) begin
      closing[r] = count_q[r] == COUNT_W'(1) && (last_q[r] || pend[r]);
    end
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) pend_q <= '0;
    else pend_q <= last_i;
    pend_rec_q <= rec_o;
  end
  assign arrive_o = done_i && closing[done_rec_i];
  assign arrive_key_o = key_q[done_rec_i];

  // A count one up and one down, from the register alone, as bit logic: bit i flips where
  // every bit below it is one (up) or zero (down). (Written as adders, synthesis shares the
  // two through the choice between them, which the late blocks make.)
  function automatic logic [COUNT_W-1:0] plus_one(input logic [COUNT_W-1:0] c);
    logic carry;
    carry = 1'b1;
    for (int i = 0; i < COUNT_W; i++) begin
      plus_one[i] = c[i] ^ carry;
      carry = carry & c[i];
    end
  endfunction
  function automatic logic [COUNT_W-1:0] minus_one(input logic [COUNT_W-1:0] c);
    logic borrow;
    borrow = 1'b1;
    for (int i = 0; i < COUNT_W; i++) begin
      minus_one[i] = c[i] ^ borrow;
      borrow = borrow & !c[i];
    end
  endfunction

  logic [COUNT_W-1:0] count_up [MESSAGES], count_down [MESSAGES];
  always_comb begin
    for (int r = 0; r < MESSAGES; r++) begin
      count_up[r] = plus_one(count_q[r]);
      count_down[r] = minus_one(count_q[r]);
    end
  end

  // Counts, last flags and keys (no reset: a record is written when a first block takes it).
  // Which records this cycle's blocks count up is a vector over the records. A first block's
  // record is a free-list register decoded before the blocks arrive: the n-th first block of
  // the cycle takes the n-th head, so a head is taken when more than n ports start a first
  // block, and its key is that port's. A later block's record comes with it. A record's next
  // count is picked by the completion's count down before the blocks' count up; a last flag
  // is set from the decode registered a cycle before (pend).
  always_ff @(posedge clk_i) begin
    logic [MESSAGES-1:0] up, fresh_r, down;
    logic [K*KEY_W-1:0]  first_key;   // the n-th first block's key at [KEY_W*n]
    logic [K-1:0]        taken;       // the n-th head is taken
    logic [K:0]          rank;        // one-hot: first blocks in the lanes before p
    rank = (K + 1)'(1);
    fresh_r = '0;
    up = '0;
    first_key = '0;
    taken = '0;
    for (int p = 0; p < K; p++) begin
      for (int h = 0; h < K; h++) begin
        if (first[p] && rank[h]) begin
          first_key[KEY_W*h +: KEY_W] |= key_i[KEY_W*p +: KEY_W];
          taken[h] = 1'b1;
        end
      end
      if (joining[p]) up |= MESSAGES'(1) << msg_rec_i[MSG_W*p +: MSG_W];
      if (first[p]) rank = rank << 1;
    end
    for (int h = 0; h < K; h++) begin
      if (taken[h]) begin
        fresh_r |= MESSAGES'(1) << heads[MSG_W*h +: MSG_W];
        key_q[heads[MSG_W*h +: MSG_W]] <= first_key[KEY_W*h +: KEY_W];
      end
    end
    down = done_i ? MESSAGES'(1) << done_rec_i : '0;
    for (int r = 0; r < MESSAGES; r++) begin
      if (fresh_r[r]) begin
        count_q[r] <= COUNT_W'(1);
      end else if (up[r] || down[r]) begin
        count_q[r] <= up[r] ? (down[r] ? count_q[r] : count_up[r]) : count_down[r];
      end
      last_q[r] <= !fresh_r[r] && (last_q[r] || pend[r]);
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    for (int p = 0; p < K; p++) begin
      if (rst_ni && first[p] && !alloc[p] && !rec_short) begin
        $error("block_slots: a first block took no record");
      end
    end
  end
`endif

endmodule
