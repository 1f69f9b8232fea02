// IEEE-754 binary32 adder, sum_o = a_i + b_i: one lane of the reduction unit's fp32 mode.
// SystemC twin: the fp32 addition in systemc/ni/reduction_unit.cpp (ReductionUnit::reduce),
// which is the host CPU's float addition with the canonical NaN below.
//
// Timing: STAGES = 1, combinational (clk_i and en_i unused); STAGES = 2, a register after the
// significand addition and the leading-one search, so sum_o is the sum of the operands of the
// last cycle with en_i set, from the next cycle on (normalisation and rounding after the
// register); STAGES = 3, a register after the alignment as well, so sum_o is that sum two
// cycles later (a new pair may come every cycle). rtl/reduction_unit.sv puts the other pipeline
// registers around it.
//
// Arithmetic: round to nearest, ties to even; subnormal operands and results are kept (no
// flush to zero); a sum too large for the format is an infinity of its sign; an exact zero
// sum of two operands of opposite signs is +0 (-0 + -0 = -0). Every NaN result (a NaN
// operand, quiet or signalling, or inf + -inf) is the one canonical NaN 32'h7FC00000
// (positive quiet NaN, as RISC-V); no payload is propagated and no flags are raised. Every
// other result is bit-identical to the host CPU's float addition (tb/fp32_adder_test.cpp).
//
// Datapath: the operand of larger magnitude is `big_op`; the other one's significand is
// shifted right by the exponent difference into a 27-bit field (24 significand bits, guard,
// round, sticky), added to or subtracted from big_op's, normalised by at most one right shift
// or any number of left shifts (never below the smallest exponent: subnormal results), and
// rounded by incrementing the packed exponent and fraction (a carry out of the fraction rounds
// into the exponent, and max finite rounds to infinity).
//
// Depth: every stage is a handful of log-depth structures, written as whole-vector operations
// (a simulator evaluates each as a few machine words, and synthesis maps each to a tree). The
// exponent difference is computed both ways beside the magnitude comparison that picks one;
// the sticky bit is the shifted-out bits under a mask made from the difference, not a second
// shift. The left shift is counted beside the addition as the leading zeros of the sum with a
// marker bit at the smallest exponent's position, so the count is already clamped to it. The
// rounding increment's carries are a prefix AND of the packed bits.
module fp32_adder #(
  // Pipeline stages, 1 to 3: 1 combinational; 2 a register after the addition; 3 another after
  // the alignment.
  parameter int unsigned STAGES = 1
) (
  input  logic        clk_i,
  input  logic        en_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] sum_o
);

  `include "ni_formats.svh"

  // The canonical NaN (format/ni_formats.json): every NaN result, whatever the operands'
  // payloads and signs.
  localparam logic [31:0] CANONICAL_NAN = 32'(FP32_CANONICAL_NAN);
  // The positive infinity; its sign bit is set from the operands.
  localparam logic [30:0] INF_MAGNITUDE = 31'h7F80_0000;
  // Bits of the aligned significands: 24 significand bits, then guard, round and sticky.
  localparam int unsigned SIG_W = 27;

  // Leading zeros of v (32 when v is zero is never asked: callers keep a set bit), as a binary
  // search whose every step picks a precomputed "this part is not zero" bit: nz1[2j] says
  // v[2j+1:2j] is not zero, nz2[4j] the nibble, nz3[8j] the byte.
  function automatic logic [4:0] leading_zeros(input logic [31:0] v);
    logic [31:0] nz1, nz2, nz3;
    logic [4:0]  n;
    nz1 = v | (v >> 1);
    nz2 = nz1 | (nz1 >> 2);
    nz3 = nz2 | (nz2 >> 4);
    n[4] = v[31:16] == '0;
    n[3] = !nz3[{!n[4], 4'b1000}];
    n[2] = !nz2[{!n[4], !n[3], 3'b100}];
    n[1] = !nz1[{!n[4], !n[3], !n[2], 2'b10}];
    n[0] = !v[{!n[4], !n[3], !n[2], !n[1], 1'b1}];
    leading_zeros = n;
  endfunction

  // Bit i: every bit of v below i is set (bit 0 always), by doubling spans.
  function automatic logic [30:0] all_ones_below(input logic [29:0] v);
    logic [30:0] ones;
    ones = {v, 1'b1};
    ones = ones & ((ones << 1) | 31'h1);
    ones = ones & ((ones << 2) | 31'h3);
    ones = ones & ((ones << 4) | 31'hF);
    ones = ones & ((ones << 8) | 31'hFF);
    ones = ones & ((ones << 16) | 31'hFFFF);
    all_ones_below = ones;
  endfunction

  if (STAGES < 1 || STAGES > 3) begin : g_bad_stages
    $error("fp32_adder: STAGES must be 1, 2 or 3");
  end

  // Operand classes.
  logic       a_sign, b_sign;
  logic [7:0] a_exp, b_exp;
  logic       a_inf, b_inf, a_nan, b_nan;

  assign a_sign = a_i[31];
  assign b_sign = b_i[31];
  assign a_exp  = a_i[30:23];
  assign b_exp  = b_i[30:23];
  assign a_inf  = (a_exp == 8'hFF) && (a_i[22:0] == '0);
  assign b_inf  = (b_exp == 8'hFF) && (b_i[22:0] == '0);
  assign a_nan  = (a_exp == 8'hFF) && (a_i[22:0] != '0);
  assign b_nan  = (b_exp == 8'hFF) && (b_i[22:0] != '0);

  // Order by magnitude: |big_op| >= |small_op| (compare exponent and fraction as one number).
  logic        swap;
  logic [31:0] big_op;
  logic [30:0] small_op;  // its sign is not needed
  logic        eff_sub;   // the magnitudes are subtracted

  assign swap     = b_i[30:0] > a_i[30:0];
  assign big_op   = swap ? b_i : a_i;
  assign small_op = swap ? a_i[30:0] : b_i[30:0];
  assign eff_sub  = a_sign ^ b_sign;

  // Significands with the hidden bit, and exponents with a subnormal's exponent as 1. The
  // exponent difference is taken both ways beside the comparison, which then picks one.
  logic [7:0]  a_exp1, b_exp1, big_exp, exp_diff;
  logic [23:0] big_sig, small_sig;

  assign a_exp1    = (a_exp == '0) ? 8'd1 : a_exp;
  assign b_exp1    = (b_exp == '0) ? 8'd1 : b_exp;
  assign big_exp   = swap ? b_exp1 : a_exp1;
  assign exp_diff  = swap ? b_exp1 - a_exp1 : a_exp1 - b_exp1;  // >= 0: |big_op| >= |small_op|
  assign big_sig   = {big_op[30:23] != '0, big_op[22:0]};
  assign small_sig = {small_op[30:23] != '0, small_op[22:0]};

  // Alignment: small_op's significand shifted right by exp_diff (all of it out from 27 on), the
  // bits shifted out ORed into the sticky bit (bit 0). Exact for exp_diff <= 3; beyond that the
  // result needs at most one left shift, and guard, round and sticky keep every rounding
  // decision exact.
  logic [SIG_W-1:0] big_ext, small_ext, small_shifted, lost_mask, small_aligned;

  assign big_ext       = {big_sig, 3'b000};
  assign small_ext     = {small_sig, 3'b000};
  assign small_shifted = small_ext >> exp_diff;
  assign lost_mask     = ~({SIG_W{1'b1}} << exp_diff);
  assign small_aligned = {small_shifted[SIG_W-1:1],
                          small_shifted[0] | ((small_ext & lost_mask) != '0)};

  // What the addition and the result need besides the significands: big_op's exponent and
  // sign, whether both operands are negative (the sign of an exact zero), and a special
  // result: a NaN, or an infinity of a sign.
  localparam logic [1:0] SPECIAL_NONE = 2'd0, SPECIAL_NAN = 2'd1, SPECIAL_INF = 2'd2;
  localparam int unsigned TAG_W = 8 + 1 + 1 + 2 + 1;
  localparam int unsigned ALIGNED_W = SIG_W + SIG_W + 1 + TAG_W;
  logic [1:0]     special;
  logic           special_sign;
  logic [TAG_W-1:0] tag;

  always_comb begin
    special = SPECIAL_NONE;
    special_sign = 1'b0;
    if (a_nan || b_nan || (a_inf && b_inf && eff_sub)) begin
      special = SPECIAL_NAN;
    end else if (a_inf || b_inf) begin
      special = SPECIAL_INF;
      special_sign = a_inf ? a_sign : b_sign;
    end
  end
  assign tag = {big_exp, big_op[31], a_sign && b_sign, special, special_sign};

  // ---- cut A (STAGES = 3): the aligned operands -------------------------------------------------
  logic [ALIGNED_W-1:0] aligned, aligned_s2;
  logic                 en_s2;  // a pair is in the second stage
  assign aligned = {big_ext, small_aligned, eff_sub, tag};

  if (STAGES == 3) begin : g_cut_a
    logic [ALIGNED_W-1:0] aligned_q;
    logic                 en_q;
    always_ff @(posedge clk_i) begin
      en_q <= en_i;
      if (en_i) aligned_q <= aligned;
    end
    assign aligned_s2 = aligned_q;
    assign en_s2 = en_q;
  end else begin : g_no_cut_a
    assign aligned_s2 = aligned;
    assign en_s2 = en_i;
  end

  // ---- the addition and the left shift ----------------------------------------------------
  // The left shift that normalises the sum without going below exponent 1: the leading zeros
  // of the sum's 27 low bits with a marker bit ORed in where a shift of add_exp - 1 would put
  // the hidden bit (no marker from add_exp 28 on), so the count stops there. A sum of zero
  // with no marker counts 27 (the shifted sum is zero either way).
  logic [SIG_W-1:0] add_big, add_small, limit_marker;
  logic             add_sub;
  logic [TAG_W-1:0] add_tag;
  logic [7:0]       add_exp;
  logic [SIG_W:0]   mag_sum;
  logic [4:0]       sum_shift;
  assign {add_big, add_small, add_sub, add_tag} = aligned_s2;
  assign add_exp      = add_tag[TAG_W-1 -: 8];
  assign mag_sum      = add_sub ? {1'b0, add_big} - {1'b0, add_small}
                                : {1'b0, add_big} + {1'b0, add_small};
  assign limit_marker = {1'b1, {(SIG_W - 1){1'b0}}} >> (add_exp - 8'd1);
  assign sum_shift    = leading_zeros({mag_sum[SIG_W-1:0] | limit_marker, 5'b10000});

  // ---- cut B (STAGES >= 2): the magnitude sum ---------------------------------------------------
  localparam int unsigned SUM_W = SIG_W + 1 + 5 + TAG_W;
  logic [SUM_W-1:0] summed, summed_s3;
  assign summed = {mag_sum, sum_shift, add_tag};

  if (STAGES >= 2) begin : g_cut_b
    logic [SUM_W-1:0] summed_q;
    always_ff @(posedge clk_i) begin
      if (en_s2) summed_q <= summed;
    end
    assign summed_s3 = summed_q;
  end else begin : g_no_cut_b
    logic unused_clk;
    assign unused_clk = ^{clk_i, en_s2};
    assign summed_s3 = summed;
  end

  // ---- last stage: normalisation and rounding ----------------------------------------------
  logic [SIG_W:0] mag;
  logic [7:0]     mag_exp;
  logic           mag_sign, both_neg, out_special_sign;
  logic [1:0]     out_special;
  logic [4:0]     left_shift;  // clamped: never below exponent 1
  assign {mag, left_shift, mag_exp, mag_sign, both_neg, out_special, out_special_sign} = summed_s3;

  // Normalisation: a carry out of an addition shifts right once (the lost bit kept in the
  // sticky bit); otherwise the left shift puts the leading one at bit 26, or stops at exponent
  // 1 (a subnormal result, no hidden bit).
  logic             carry, overflow;
  logic [SIG_W-1:0] norm_sig;
  logic [7:0]       norm_exp;  // biased exponent of norm_sig's bit 26 when it is set

  assign carry    = mag[SIG_W];
  assign overflow = carry && (mag_exp == 8'd254);  // the sum is too large for the format
  assign norm_sig = carry ? {mag[SIG_W:2], mag[1] | mag[0]} : mag[SIG_W-1:0] << left_shift;
  assign norm_exp = carry ? mag_exp + 8'd1 : mag_exp - {3'b000, left_shift};

  // Rounding to nearest even on the packed exponent and fraction: a carry out of the fraction
  // increments the exponent (a subnormal becomes the smallest normal, max finite becomes inf).
  // Bit i flips when rounding up and every packed bit below it is set (a prefix AND).
  logic        round_up;
  logic [30:0] packed_mag, ones_below, rounded_mag;

  assign round_up    = norm_sig[2] && (norm_sig[1] || norm_sig[0] || norm_sig[3]);
  assign packed_mag  = {norm_sig[SIG_W-1] ? norm_exp : 8'h00, norm_sig[25:3]};
  assign ones_below  = all_ones_below(packed_mag[29:0]);
  assign rounded_mag = packed_mag ^ (ones_below & {31{round_up}});

  // Result selection.
  logic        result_sign;
  logic [31:0] finite_sum;

  // An exact zero is +0 unless both operands are -0 (round to nearest); otherwise big_op's sign.
  assign result_sign = (mag == '0) ? both_neg : mag_sign;
  assign finite_sum  = overflow ? {result_sign, INF_MAGNITUDE} : {result_sign, rounded_mag};

  always_comb begin
    unique case (out_special)
      SPECIAL_NAN: sum_o = CANONICAL_NAN;
      SPECIAL_INF: sum_o = {out_special_sign, INF_MAGNITUDE};
      default:     sum_o = finite_sum;
    endcase
  end

endmodule
