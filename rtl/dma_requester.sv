// The NI's DMA requester (paper Fig. 6): the queue of accelerator-memory accesses. SystemC
// twin: systemc/ni/dma_requester.hpp, as the SystemC NI calls it (network_interface.cpp).
//
// The NI asks for several accesses in one cycle (blocks of several ejection ports, a
// write-back, a released Reduce read, bursts of several injection ports); the SystemC NI makes
// them as blocking calls in that order, and the memory serves them in call order on one
// channel. The accesses asked for in a cycle are registered (the push lanes' input register,
// so no path runs from the blocks that ask through the queue), and the queue takes them in the
// next cycle in the same order (push lane 0 first) and hands them to the memory one per cycle,
// the oldest first, in the cycle they enter if nothing older waits: an access reaches the
// memory a cycle after it is asked for at the earliest, as the SystemC DmaRequester counts it.
// A non-empty access never starts before the channel is free and holds it at least one cycle,
// so each access starts in the same cycle as in SystemC (rtl/README.md). Every access is
// non-empty (table images refuse empty sends).
//
// Storage as memory macros: entry n of the queue (its sequence number modulo DEPTH) lives in
// bank n mod BANKS, row n / BANKS, with BANKS the power of two at or above PUSHES. A cycle's
// pushes have consecutive sequence numbers, so they fall in distinct banks: every bank is a
// storage_array of one write port and one read port (the entry handed over next, a cycle
// ahead, for the register that holds the oldest waiting one). The memory answers every access
// in order (read data, or the write's completion) with mem_rsp_valid_i; the kind, tag,
// address and length of each access handed over wait in a second FIFO of one write and one
// registered read port, read a cycle ahead, and come out on done_*_o in the cycle it
// completes. An entry lives from the cycle it enters to its completion, so DEPTH bounds the
// accesses queued or outstanding; accesses entering a full queue raise overflow_o in that
// cycle (the SystemC NI checks the same bound, NiConfig::memory_requests).
module dma_requester #(
  // Accesses queued or outstanding at once (a power of two, at least 2 x BANKS).
  parameter int unsigned DEPTH = 256,
  // Accesses that can be asked for in one cycle.
  parameter int unsigned PUSHES = 8,
  // Width of the tag the NI gets back at completion (which block or port).
  parameter int unsigned TAG_W = 8,
  // Width of the access kind the NI gets back at completion.
  parameter int unsigned KIND_W = 2,
  // Width of addresses.
  parameter int unsigned ADDR_W = 32,
  // Width of an access's length in bytes.
  parameter int unsigned LEN_W = 9,
  localparam int unsigned PTR_W = DEPTH > 1 ? $clog2(DEPTH) : 1,
  localparam int unsigned BANK_W = PUSHES > 1 ? $clog2(PUSHES) : 1,
  localparam int unsigned BANKS = 1 << BANK_W,
  localparam int unsigned ROWS = DEPTH / BANKS,
  localparam int unsigned ROW_W = ROWS > 1 ? $clog2(ROWS) : 1
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // Accesses asked for in this cycle, lane 0 first.
  input  logic [PUSHES-1:0]          push_i,
  input  logic [PUSHES-1:0]          push_write_i,
  input  logic [PUSHES*KIND_W-1:0]   push_kind_i,
  input  logic [PUSHES*TAG_W-1:0]    push_tag_i,
  input  logic [PUSHES*ADDR_W-1:0]   push_addr_i,
  input  logic [PUSHES*LEN_W-1:0]    push_len_i,
  // To the memory (the NI adds the write data for mem_req_tag_o).
  output logic                       mem_req_valid_o,
  input  logic                       mem_req_ready_i,
  output logic                       mem_req_write_o,
  // The access's kind (the NI picks a write's data by it).
  output logic [KIND_W-1:0]          mem_req_kind_o,
  output logic [TAG_W-1:0]           mem_req_tag_o,
  output logic [ADDR_W-1:0]          mem_req_addr_o,
  output logic [LEN_W-1:0]           mem_req_len_o,
  input  logic                       mem_rsp_valid_i,
  // The access the memory completes in this cycle.
  output logic                       done_o,
  output logic [KIND_W-1:0]          done_kind_o,
  output logic [TAG_W-1:0]           done_tag_o,
  output logic [ADDR_W-1:0]          done_addr_o,
  output logic [LEN_W-1:0]           done_len_o,
  output logic                       overflow_o
);

  // A bank of one row would be registers, not a memory.
  if (ROWS < 2 || DEPTH % BANKS != 0 || (DEPTH & (DEPTH - 1)) != 0) begin : g_bad_depth
    $error("dma_requester: DEPTH must be a power of two of at least two rows of the banks");
  end

  localparam int unsigned EntryW = 1 + KIND_W + TAG_W + ADDR_W + LEN_W;
  localparam int unsigned DoneW = EntryW - 1;  // all but the write flag

  // tail_q: sequence number of the next push; issue_q: of the oldest not yet handed to the
  // memory, and issue_next_q the one after it (the hand-over only picks between the two for
  // the banks' read address: no incrementer on the way). Sequence numbers wrap at DEPTH (a
  // power of two).
  logic [PTR_W-1:0]  tail_q, issue_q, issue_next_q;
  logic [PTR_W:0]    free_q, waiting_q;  // entries not live; live, not yet handed over

  // ---- the input register: the accesses asked for in the previous cycle --------------------
  logic [PUSHES-1:0]        push_q;
  logic [PUSHES*EntryW-1:0] lane_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) push_q <= '0;
    else push_q <= push_i;
    for (int i = 0; i < PUSHES; i++) begin
      lane_q[i*EntryW +: EntryW] <= {push_write_i[i], push_kind_i[i*KIND_W +: KIND_W],
                                     push_tag_i[i*TAG_W +: TAG_W], push_addr_i[i*ADDR_W +: ADDR_W],
                                     push_len_i[i*LEN_W +: LEN_W]};
    end
  end

  function automatic logic [EntryW-1:0] lane(input int unsigned i);
    lane = lane_q[i*EntryW +: EntryW];
  endfunction

  // ---- the pushes: lane i takes sequence number tail_q + (pushes on lanes before it) --------
  logic [PTR_W:0]              pushes;
  logic [BANKS-1:0]            bank_we;
  logic [BANKS*ROW_W-1:0]      bank_waddr;
  logic [BANKS*EntryW-1:0]     bank_wdata;

  // Each lane's place counts the lanes before it that push, all lanes at once (no chain from
  // lane to lane); a bank takes the one lane placed in it (an OR of the lanes it selects).
  always_comb begin
    logic [PTR_W-1:0] at;
    pushes = (PTR_W + 1)'($countones(push_q));
    bank_we = '0;
    bank_waddr = '0;
    bank_wdata = '0;
    for (int i = 0; i < PUSHES; i++) begin
      at = tail_q + PTR_W'($countones(push_q & PUSHES'((1 << i) - 1)));
      for (int b = 0; b < BANKS; b++) begin
        if (push_q[i] && at[BANK_W-1:0] == BANK_W'(b)) begin
          bank_we[b] = 1'b1;
          bank_waddr[ROW_W*b +: ROW_W] |= ROW_W'(at >> BANK_W);
          bank_wdata[EntryW*b +: EntryW] |= lane(i);
        end
      end
    end
  end

  // The request to the memory (below), and the entry handed over after this cycle's: the
  // banks are read there.
  logic [EntryW-1:0] req, held_req_q, held_req_d;
  logic              req_valid, held_q, held_d;
  logic              issued;
  logic [PTR_W-1:0]  next_issue;
  assign issued = req_valid && mem_req_ready_i;
  assign next_issue = issued ? issue_next_q : issue_q;

  logic [BANKS*EntryW-1:0] bank_rdata;
  for (genvar b = 0; b < BANKS; b++) begin : g_bank
    storage_array #(.WIDTH(EntryW), .DEPTH(ROWS), .WRITES(1), .READS(1)) u_rows (
      .clk_i, .we_i(bank_we[b]), .waddr_i(bank_waddr[ROW_W*b +: ROW_W]), .wmask_i(1'b1),
      .wdata_i(bank_wdata[EntryW*b +: EntryW]), .raddr_i(ROW_W'(next_issue >> BANK_W)), .re_i('1),
      .rdata_o(bank_rdata[EntryW*b +: EntryW])
    );
  end

  // The request handed over: the oldest waiting entry, held in a register (held_q: the banks'
  // read and its select stay off the memory's request and the block data's read address the
  // NI derives from its tag), or, with nothing waiting, the first access entering now (from
  // the input register, through one AND-OR). The register takes the oldest entry left after
  // this cycle's hand-over: one entered before this cycle (a bank read; at most one entry
  // leaves), else the first or second of this cycle's entering accesses.
  // The lowest lane of a set that asks: each lane's selection from the lanes below it (an OR
  // of them), the lanes then ORed, no chain of selects from lane to lane.
  function automatic logic [EntryW-1:0] first_of(logic [PUSHES-1:0] asks,
                                                 logic [PUSHES*EntryW-1:0] lanes);
    first_of = '0;
    for (int i = 0; i < PUSHES; i++) begin
      if (asks[i] && (asks & PUSHES'((1 << i) - 1)) == '0) begin
        first_of |= lanes[i*EntryW +: EntryW];
      end
    end
  endfunction

  always_comb begin
    logic [PUSHES-1:0] entering;  // this cycle's entering accesses not handed over
    // With nothing older waiting, a hand-over took the first entering access.
    entering = issued && !held_q ? push_q & (push_q - PUSHES'(1)) : push_q;
    held_d = 1'b1;
    if (waiting_q > (PTR_W + 1)'(issued)) begin
      held_req_d = bank_rdata[EntryW*next_issue[BANK_W-1:0] +: EntryW];
    end else begin
      held_req_d = first_of(entering, lane_q);
      held_d = entering != '0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) held_q <= 1'b0;
    else held_q <= held_d;
    held_req_q <= held_req_d;
  end
  assign req = held_q ? held_req_q : first_of(push_q, lane_q);
  assign req_valid = held_q || push_q != '0;

`ifndef SYNTHESIS
  // The register holds a request exactly when an entry waits.
  always_ff @(posedge clk_i) begin
    if (rst_ni && held_q != (waiting_q != '0)) begin
      $error("dma_requester: the held request does not match the waiting entries");
    end
  end
`endif

  assign {mem_req_write_o, mem_req_kind_o, mem_req_tag_o, mem_req_addr_o, mem_req_len_o} = req;
  assign mem_req_valid_o = req_valid;

  // ---- completions: each access handed over, in order ----------------------------------------
  logic [PTR_W-1:0] retire_q;  // sequence number of the oldest access not yet complete

  // The oldest access not yet complete is read a cycle ahead (a registered read of the next
  // retire_q), or taken from the request as it is handed over when that is the one.
  logic [PTR_W-1:0] retire_d;
  logic [DoneW-1:0] done_rd, handed_q;
  logic             handed_now, handed_q_sel;
  assign retire_d = retire_q + PTR_W'(mem_rsp_valid_i);
  assign handed_now = issued && issue_q == retire_d;

  storage_array #(
    .WIDTH(DoneW), .DEPTH(DEPTH), .WRITES(1), .READS(1), .SYNC_READ(1'b1), .WRITE_REG(1'b1)
  ) u_done (
    .clk_i, .we_i(issued), .waddr_i(issue_q), .wmask_i(1'b1),
    .wdata_i(req[DoneW-1:0]), .raddr_i(retire_d), .re_i('1), .rdata_o(done_rd)
  );
  always_ff @(posedge clk_i) begin
    handed_q_sel <= handed_now;
    if (handed_now) handed_q <= req[DoneW-1:0];
  end
  assign {done_kind_o, done_tag_o, done_addr_o, done_len_o} = handed_q_sel ? handed_q : done_rd;
  assign done_o = mem_rsp_valid_i;
  // In the cycle the accesses enter (the NI registers it as a run error).
  assign overflow_o = 32'(pushes) > 32'(free_q) + 32'(mem_rsp_valid_i);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      tail_q <= '0;
      issue_q <= '0;
      issue_next_q <= PTR_W'(1);
      retire_q <= '0;
      free_q <= (PTR_W + 1)'(DEPTH);
      waiting_q <= '0;
    end else begin
      tail_q <= tail_q + PTR_W'(pushes);
      if (issued) begin
        issue_q <= issue_next_q;
        issue_next_q <= issue_next_q + PTR_W'(1);
      end
      if (mem_rsp_valid_i) retire_q <= retire_q + PTR_W'(1);
      free_q <= free_q - pushes + (PTR_W + 1)'(mem_rsp_valid_i);
      waiting_q <= waiting_q + pushes - (PTR_W + 1)'(issued);
    end
  end

endmodule
