// The NI's reduction sequencer: feeds Reduce blocks whose local read is in through the
// reduction unit (rtl/reduction_unit.sv), one block at a time in the order their reads
// complete, a beat of LANES elements a cycle, and asks for a block's write-back when the sum of
// its last beat leaves the unit. SystemC twin: systemc/ni/reduction_sequencer.hpp, whose timing
// contract this is; tb/reduction_sequencer_test.cpp checks the two every cycle.
//
// A block whose read completes while the unit is free and nothing waits sends its first beat in
// that cycle, its local partial sum taken from the memory's response (beat_bypass_o); otherwise
// it joins a queue of REDUCING places (a storage_array of one write and one read port) and
// its beats start in the first cycle the unit is free, the oldest block first. A block of e
// elements takes ceil(e / LANES) beats in consecutive cycles, and the unit is free again in the
// cycle after its last beat entered. The beat's operands are read by the NI at beat_slot_o
// (the block's data) and at beat_row_o (its local partial sum), and the sums leaving the unit
// LATENCY cycles later are written at sum_row_o, in the beat's place sum_idx_o. A block's row
// is its place in the order of the reads, modulo REDUCING: the NI keeps the local partial sums
// and the sums in arrays of REDUCING rows, as no more than REDUCING blocks lie between their
// read and their write-back (the interlock's bound). The write-back of a block is asked
// for (wb_o, a register) in the cycle after its last beat leaves the unit: the cycle
// ReductionSequencer::admit returns. The queue holds blocks between their read and their
// write-back, which the interlock bounds by REDUCING (rtl/interlock.sv, reducing_full_o).
module reduction_sequencer #(
  // Width of a block slot id.
  parameter int unsigned SLOT_W = 7,
  // Width of an address.
  parameter int unsigned ADDR_W = 32,
  // Width of a block's length in bytes (whole 32-bit elements, at most a line).
  parameter int unsigned LEN_W = 9,
  // Width of what else travels with a block to its write-back (the NI's message record and
  // key), not looked at here.
  parameter int unsigned META_W = 1,
  // Blocks between their read and their write-back (NiConfig::reducing_blocks).
  parameter int unsigned REDUCING = 64,
  // Elements the reduction unit adds per cycle.
  parameter int unsigned LANES = 16,
  // The reduction unit's depth in cycles.
  parameter int unsigned LATENCY = 4,
  localparam int unsigned BEATS = (ni_formats_pkg::FLIT_LINE_BYTES / 4 + LANES - 1) / LANES,
  localparam int unsigned BEAT_W = BEATS > 1 ? $clog2(BEATS) + 1 : 1,
  localparam int unsigned RQ_W = REDUCING > 1 ? $clog2(REDUCING) : 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // A Reduce block's local read completes in this cycle: its slot, address and length.
  input  logic               read_i,
  input  logic [SLOT_W-1:0]  read_slot_i,
  input  logic [ADDR_W-1:0]  read_addr_i,
  input  logic [LEN_W-1:0]   read_len_i,
  input  logic [META_W-1:0]  read_meta_i,
  // The beat entering the reduction unit: its block's slot, its place in the block, the lanes
  // holding elements, and whether its local partial sum is the read completing now (only
  // ever a block's first beat, beat_idx_o 0).
  output logic               beat_o,
  output logic [SLOT_W-1:0]  beat_slot_o,
  output logic [BEAT_W-1:0]  beat_idx_o,
  output logic [LANES-1:0]   beat_mask_o,
  output logic               beat_bypass_o,
  // The beat's block's place in the order of the reads, modulo REDUCING.
  output logic [RQ_W-1:0]    beat_row_o,
  // The reduction unit's valid_o: a beat's sums leave it in this cycle; their block and place.
  input  logic               unit_out_i,
  output logic [BEAT_W-1:0]  sum_idx_o,
  output logic [RQ_W-1:0]    sum_row_o,
  // A block's sum is complete: its write-back is asked for.
  output logic               wb_o,
  output logic [SLOT_W-1:0]  wb_slot_o,
  output logic [ADDR_W-1:0]  wb_addr_o,
  output logic [LEN_W-1:0]   wb_len_o,
  output logic [META_W-1:0]  wb_meta_o
);

  if ((REDUCING & (REDUCING - 1)) != 0 || LATENCY < 1) begin : g_bad_params
    $error("reduction_sequencer: REDUCING must be a power of two and LATENCY at least 1");
  end

  // A block: what travels with it, slot, address, length.
  localparam int unsigned REC_W = META_W + SLOT_W + ADDR_W + LEN_W;

  /* verilator lint_off UNUSEDSIGNAL */  // each takes one field of a block
  function automatic logic [SLOT_W-1:0] rec_slot(input logic [REC_W-1:0] r);
    rec_slot = r[ADDR_W + LEN_W +: SLOT_W];
  endfunction
  function automatic logic [ADDR_W-1:0] rec_addr(input logic [REC_W-1:0] r);
    rec_addr = r[LEN_W +: ADDR_W];
  endfunction
  function automatic logic [LEN_W-1:0] rec_len(input logic [REC_W-1:0] r);
    rec_len = r[LEN_W-1:0];
  endfunction
  function automatic logic [META_W-1:0] rec_meta(input logic [REC_W-1:0] r);
    rec_meta = r[SLOT_W + ADDR_W + LEN_W +: META_W];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  logic [RQ_W-1:0]   rq_head_q;
  logic [RQ_W-1:0]   beat_row_q;  // the place of the block whose beats enter next
  logic [RQ_W:0]     rq_count_q;
  logic [REC_W-1:0]  rq_head_rec, read_rec;
  logic              busy_q;     // a block's beats after its first are entering the unit
  logic [REC_W-1:0]  busy_rec_q;
  logic [BEAT_W-1:0] busy_beat_q;
  logic              take_queue, beat_last;
  logic [REC_W-1:0]  beat_rec;

  assign read_rec = {read_meta_i, read_slot_i, read_addr_i, read_len_i};

  storage_array #(.WIDTH(REC_W), .DEPTH(REDUCING), .WRITES(1), .READS(1)) u_queue (
    .clk_i, .we_i(read_i && !beat_bypass_o), .waddr_i(rq_head_q + RQ_W'(rq_count_q)),
    .wmask_i(1'b1), .wdata_i(read_rec), .raddr_i(rq_head_q), .re_i('1), .rdata_o(rq_head_rec)
  );

  // ---- the beat entering the unit --------------------------------------------------------
  always_comb begin
    logic [LEN_W-1:0] elems;
    take_queue = !busy_q && rq_count_q != '0;
    beat_bypass_o = !busy_q && rq_count_q == '0 && read_i;
    beat_o = busy_q || take_queue || beat_bypass_o;
    beat_rec = busy_q ? busy_rec_q : take_queue ? rq_head_rec : read_rec;
    beat_idx_o = busy_q ? busy_beat_q : '0;
    elems = rec_len(beat_rec) >> 2;
    for (int l = 0; l < LANES; l++) begin
      beat_mask_o[l] = 32'(beat_idx_o) * LANES + 32'(l) < 32'(elems);
    end
    beat_last = (32'(beat_idx_o) + 1) * LANES >= 32'(elems);
  end
  assign beat_slot_o = rec_slot(beat_rec);
  assign beat_row_o = beat_row_q;

  // ---- the beats in the unit: block, place and last flag of each, stage 0 first ------------
  logic [LATENCY-1:0] pipe_last;
  logic [REC_W-1:0]   pipe_rec [LATENCY];
  logic [BEAT_W-1:0]  pipe_beat [LATENCY];
  logic [RQ_W-1:0]    pipe_row [LATENCY];
  logic [REC_W-1:0]   wb_rec_q;

  assign sum_idx_o = pipe_beat[LATENCY-1];
  assign sum_row_o = pipe_row[LATENCY-1];
  assign wb_slot_o = rec_slot(wb_rec_q);
  assign wb_addr_o = rec_addr(wb_rec_q);
  assign wb_len_o = rec_len(wb_rec_q);
  assign wb_meta_o = rec_meta(wb_rec_q);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rq_head_q <= '0;
      beat_row_q <= '0;
      rq_count_q <= '0;
      busy_q <= 1'b0;
      wb_o <= 1'b0;
    end else begin
      rq_head_q <= rq_head_q + RQ_W'(take_queue);
      beat_row_q <= beat_row_q + RQ_W'(beat_o && beat_last);
      rq_count_q <= rq_count_q - (RQ_W + 1)'(take_queue) +
                    (RQ_W + 1)'(read_i && !beat_bypass_o);
      busy_q <= beat_o && !beat_last;
      wb_o <= unit_out_i && pipe_last[LATENCY-1];
    end
  end

  // Records of the beats (no reset: read only where busy_q, wb_o or the unit's valid say so).
  always_ff @(posedge clk_i) begin
    busy_rec_q <= beat_rec;
    busy_beat_q <= beat_idx_o + BEAT_W'(1);
    for (int i = LATENCY - 1; i > 0; i--) begin
      pipe_last[i] <= pipe_last[i-1];
      pipe_rec[i] <= pipe_rec[i-1];
      pipe_beat[i] <= pipe_beat[i-1];
      pipe_row[i] <= pipe_row[i-1];
    end
    pipe_last[0] <= beat_last;
    pipe_rec[0] <= beat_rec;
    pipe_beat[0] <= beat_idx_o;
    pipe_row[0] <= beat_row_q;
    wb_rec_q <= pipe_rec[LATENCY-1];
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && read_i && !beat_bypass_o && 32'(rq_count_q) >= REDUCING) begin
      $error("reduction_sequencer: more than REDUCING blocks wait for the reduction unit");
    end
  end
`endif

endmodule
