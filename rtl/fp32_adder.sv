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

  // Significands with the hidden bit, and exponents with a subnormal's exponent as 1.
  logic [23:0] big_sig, small_sig;
  logic [7:0]  big_exp, small_exp;
  logic [7:0]  exp_diff;

  assign big_sig   = {big_op[30:23] != '0, big_op[22:0]};
  assign small_sig = {small_op[30:23] != '0, small_op[22:0]};
  assign big_exp   = (big_op[30:23] == '0) ? 8'd1 : big_op[30:23];
  assign small_exp = (small_op[30:23] == '0) ? 8'd1 : small_op[30:23];
  assign exp_diff  = big_exp - small_exp;  // >= 0 as |big_op| >= |small_op|

  // Alignment: small_op's significand shifted right by exp_diff, the bits shifted out ORed into
  // the sticky bit (bit 0). Exact for exp_diff <= 3; beyond that the result needs at most one
  // left shift, and guard, round and sticky keep every rounding decision exact.
  logic [SIG_W-1:0] big_ext, small_ext, small_shifted;
  logic             small_sticky;

  assign big_ext   = {big_sig, 3'b000};
  assign small_ext = {small_sig, 3'b000};

  always_comb begin
    if (exp_diff >= 8'(SIG_W)) begin
      small_shifted = '0;
      small_sticky  = small_ext != '0;
    end else begin
      small_shifted = small_ext >> exp_diff;
      small_sticky  = (small_shifted << exp_diff) != small_ext;
    end
  end

  logic [SIG_W-1:0] small_aligned;
  assign small_aligned = {small_shifted[SIG_W-1:1], small_shifted[0] | small_sticky};

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

  // ---- the addition and the leading one -----------------------------------------------------
  logic [SIG_W-1:0] add_big, add_small;
  logic             add_sub;
  logic [TAG_W-1:0] add_tag;
  logic [SIG_W:0]   mag_sum;
  logic [4:0]       sum_lead;  // the highest set bit of mag_sum[SIG_W-1:0]
  assign {add_big, add_small, add_sub, add_tag} = aligned_s2;
  assign mag_sum = add_sub ? {1'b0, add_big} - {1'b0, add_small}
                           : {1'b0, add_big} + {1'b0, add_small};

  always_comb begin
    sum_lead = '0;
    for (int unsigned i = 0; i < SIG_W; i++) begin
      if (mag_sum[i]) begin
        sum_lead = 5'(i);
      end
    end
  end

  // ---- cut B (STAGES >= 2): the magnitude sum ---------------------------------------------------
  localparam int unsigned SUM_W = SIG_W + 1 + 5 + TAG_W;
  logic [SUM_W-1:0] summed, summed_s3;
  assign summed = {mag_sum, sum_lead, add_tag};

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
  logic [4:0]     lead_pos;  // the highest set bit of mag[SIG_W-1:0]
  assign {mag, lead_pos, mag_exp, mag_sign, both_neg, out_special, out_special_sign} = summed_s3;

  // Normalisation.
  logic [4:0]       left_shift;
  logic [SIG_W-1:0] norm_sig;  // hidden bit at bit 26 unless the result is subnormal
  logic [8:0]       norm_exp;  // biased exponent of norm_sig's bit 26, 1..255

  always_comb begin
    left_shift = '0;
    if (mag[SIG_W]) begin
      // Carry out of an addition: one right shift, the lost bit kept in the sticky bit.
      norm_sig = {mag[SIG_W:2], mag[1] | mag[0]};
      norm_exp = {1'b0, mag_exp} + 9'd1;
    end else begin
      // Shift the leading one up to bit 26, but not below exponent 1 (then it is subnormal).
      left_shift = 5'(SIG_W - 1) - lead_pos;
      if ({3'b000, left_shift} > mag_exp - 8'd1) begin
        left_shift = 5'(mag_exp - 8'd1);
      end
      norm_sig = mag[SIG_W-1:0] << left_shift;
      norm_exp = {1'b0, mag_exp} - {4'b0000, left_shift};
    end
  end

  // Rounding to nearest even on the packed exponent and fraction: a carry out of the fraction
  // increments the exponent (a subnormal becomes the smallest normal, max finite becomes inf).
  logic        round_up;
  logic [30:0] packed_mag, rounded_mag;

  assign round_up    = norm_sig[2] && (norm_sig[1] || norm_sig[0] || norm_sig[3]);
  assign packed_mag  = {norm_sig[SIG_W-1] ? norm_exp[7:0] : 8'h00, norm_sig[25:3]};
  assign rounded_mag = packed_mag + {30'b0, round_up};

  // Result selection.
  logic        result_sign;
  logic [31:0] finite_sum;

  // An exact zero is +0 unless both operands are -0 (round to nearest); otherwise big_op's sign.
  assign result_sign = (mag == '0) ? both_neg : mag_sign;
  assign finite_sum  = (norm_exp == 9'd255) ? {result_sign, INF_MAGNITUDE}
                                            : {result_sign, rounded_mag};

  always_comb begin
    unique case (out_special)
      SPECIAL_NAN: sum_o = CANONICAL_NAN;
      SPECIAL_INF: sum_o = {out_special_sign, INF_MAGNITUDE};
      default:     sum_o = finite_sum;
    endcase
  end

endmodule
