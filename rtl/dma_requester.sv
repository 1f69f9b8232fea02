// The NI's DMA requester (paper Fig. 6): the queue of accelerator-memory accesses. SystemC
// twin: systemc/ni/dma_requester.hpp, as the SystemC NI calls it (network_interface.cpp).
//
// The NI asks for several accesses in one cycle (blocks of several ejection ports, a
// write-back, released Reduce reads, bursts of several injection ports); the SystemC NI makes
// them as blocking calls in that order, and the memory serves them in call order on one
// channel. This queue takes them in the same order (push lane 0 first) and hands them to the
// memory one per cycle, the oldest first, in the cycle they are pushed if nothing older waits.
// A non-empty access never starts before the channel is free and holds it at least one cycle,
// so each access starts in the same cycle as in SystemC (rtl/README.md). Every access is
// non-empty (table images refuse empty sends).
//
// The memory answers every access in order (read data, or the write's completion) with
// mem_rsp_valid_i; the queue entry is retired then and its kind and tag come out on done_*_o
// in that cycle. An entry lives from push to retirement, so DEPTH bounds the accesses queued
// or outstanding; a push into a full queue sets overflow_o (the SystemC NI checks the same
// bound, NiConfig::memory_requests).
module dma_requester #(
  // Accesses queued or outstanding at once.
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
  localparam int unsigned PTR_W = DEPTH > 1 ? $clog2(DEPTH) : 1
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
  output logic [KIND_W-1:0]          mem_req_kind_o,
  output logic [TAG_W-1:0]           mem_req_tag_o,
  output logic [ADDR_W-1:0]          mem_req_addr_o,
  output logic [LEN_W-1:0]           mem_req_len_o,
  input  logic                       mem_rsp_valid_i,
  // The access the memory completes in this cycle.
  output logic                       done_o,
  output logic [KIND_W-1:0]          done_kind_o,
  output logic [TAG_W-1:0]           done_tag_o,
  output logic                       overflow_o
);

  localparam int unsigned EntryW = 1 + KIND_W + TAG_W + ADDR_W + LEN_W;

  logic [EntryW-1:0] entry_q [DEPTH];
  // push_q: next free entry; issue_q: oldest not yet handed to the memory; retire_q: oldest
  // not yet complete.
  logic [PTR_W-1:0]  push_q, issue_q, retire_q;
  logic [PTR_W:0]    used_q, waiting_q;  // entries live; of those, not yet handed over
  logic              overflow_q;

  function automatic logic [PTR_W-1:0] wrap(input logic [PTR_W:0] p);
    wrap = 32'(p) >= DEPTH ? PTR_W'(32'(p) - DEPTH) : p[PTR_W-1:0];
  endfunction

  function automatic logic [EntryW-1:0] lane(input int unsigned i);
    lane = {push_write_i[i], push_kind_i[i*KIND_W +: KIND_W], push_tag_i[i*TAG_W +: TAG_W],
            push_addr_i[i*ADDR_W +: ADDR_W], push_len_i[i*LEN_W +: LEN_W]};
  endfunction

  // The request handed over: the oldest waiting entry, or this cycle's first push.
  logic [EntryW-1:0] req;
  logic              req_valid;
  logic [PTR_W:0]    pushes;

  always_comb begin
    pushes = '0;
    for (int i = 0; i < PUSHES; i++) pushes = pushes + (PTR_W + 1)'(push_i[i]);
    req = entry_q[issue_q];
    req_valid = waiting_q != '0;
    if (!req_valid) begin
      for (int i = PUSHES - 1; i >= 0; i--) begin
        if (push_i[i]) begin
          req = lane(i);
          req_valid = 1'b1;
        end
      end
    end
  end

  assign {mem_req_write_o, mem_req_kind_o, mem_req_tag_o, mem_req_addr_o, mem_req_len_o} = req;
  assign mem_req_valid_o = req_valid;
  assign {done_kind_o, done_tag_o} = entry_q[retire_q][EntryW-2 -: KIND_W + TAG_W];
  assign done_o = mem_rsp_valid_i;
  assign overflow_o = overflow_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      push_q <= '0;
      issue_q <= '0;
      retire_q <= '0;
      used_q <= '0;
      waiting_q <= '0;
      overflow_q <= 1'b0;
    end else begin
      logic issued;
      issued = req_valid && mem_req_ready_i;
      if (32'(used_q) + 32'(pushes) - 32'(mem_rsp_valid_i) > DEPTH) overflow_q <= 1'b1;
      push_q <= wrap((PTR_W + 1)'(push_q) + pushes);
      if (issued) issue_q <= wrap((PTR_W + 1)'(issue_q) + (PTR_W + 1)'(1));
      if (mem_rsp_valid_i) retire_q <= wrap((PTR_W + 1)'(retire_q) + (PTR_W + 1)'(1));
      used_q <= used_q + pushes - (PTR_W + 1)'(mem_rsp_valid_i);
      waiting_q <= waiting_q + pushes - (PTR_W + 1)'(issued);
    end
  end

  always_ff @(posedge clk_i) begin
    logic [PTR_W:0] at;
    at = (PTR_W + 1)'(push_q);
    for (int i = 0; i < PUSHES; i++) begin
      if (push_i[i]) begin
        entry_q[wrap(at)] <= lane(i);
        at = at + (PTR_W + 1)'(1);
      end
    end
  end

endmodule
