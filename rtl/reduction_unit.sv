// The NI's reduction unit (paper Fig. 6): adds received data element-wise into the local
// partial sum, LANES 32-bit elements a cycle, int32 (two's complement, wraps around) or fp32
// (rtl/fp32_adder.sv: IEEE-754 binary32, round to nearest even, canonical NaN 32'h7FC00000).
// SystemC twin: systemc/ni/reduction_unit.hpp (ReductionUnit; its `elements_per_cycle` is
// LANES and its `latency` is LATENCY).
//
// Timing: a beat (valid_i with LANES pairs acc_i + src_i) entering in cycle c leaves as the
// beat valid_o with sum_o = acc_i + src_i in cycle c + LATENCY, in order, one beat every cycle,
// with no stall and no back-pressure. mask_i says which lanes hold elements (the last beat of
// a job may be partial); a lane that is masked off outputs zero, and mask_o is the beat's
// mask. dtype_i is per beat. With LATENCY >= 2 the operands are registered, the adders sit
// behind that register and LATENCY - 1 registers follow (registered in and out); with
// LATENCY = 3 the first of them is inside the fp32 adders, between their addition and their
// normalisation, and with LATENCY >= 4 the first two, after their alignment as well
// (rtl/fp32_adder.sv, STAGES), with the int32 sums beside them, so no cycle holds a whole fp32
// addition; with LATENCY = 1 the adders sit in front of the one result register. (The
// SystemC model also allows latency 0, a combinational unit; this RTL does not: LANES and
// LATENCY >= 1 are checked at elaboration.)
//
// The SystemC contract in these terms: a job of e elements ready in cycle `ready` is fed by
// the NI as ceil(e / LANES) beats in consecutive cycles from start = max(ready, free), free
// being the cycle after the previous job's last beat entered (0 at first). Its last beat
// enters in cycle free' - 1, free' = start + ceil(e / LANES), and leaves in cycle
// free' - 1 + LATENCY: the whole sum has come out (and can be stored at that cycle's edge) by
// the end of that cycle, and is complete from done = free' + LATENCY, the cycle
// ReductionUnit::reduce returns. A job of no elements sends no beat. start = max(ready, free)
// is the feeding side's rule (the NI's), as this unit never stalls.
// tb/reduction_unit_test.cpp checks all of this cycle by cycle against the SystemC block.
module reduction_unit #(
  // Elements (32-bit lanes) added per cycle, >= 1: 16 keeps up with four ejection ports of
  // four elements per flit.
  parameter int unsigned LANES = 16,
  // Pipeline depth in cycles, >= 1: an input beat's sum leaves LATENCY cycles later.
  parameter int unsigned LATENCY = 4
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  valid_i,
  // Element type of the beat: DTYPE_INT32 or DTYPE_FP32 (ni_formats.svh, the image's dtype).
  input  logic                  dtype_i,
  input  logic [LANES-1:0]      mask_i,
  input  logic [LANES*32-1:0]   acc_i,
  input  logic [LANES*32-1:0]   src_i,
  output logic                  valid_o,
  output logic [LANES-1:0]      mask_o,
  output logic [LANES*32-1:0]   sum_o
);

  `include "ni_formats.svh"

  // The dtype code of fp32 elements as the 1-bit dtype_i carries it (the codes are 0 and 1).
  localparam logic DTYPE_FP32_BIT = 1'(DTYPE_FP32);
  // The fp32 adders' stages: the registers of their own are FP_STAGES - 1.
  localparam int unsigned FP_STAGES = LATENCY >= 4 ? 3 : LATENCY == 3 ? 2 : 1;
  // Registers after the adders: all stages but the operand register and the adders' own, at
  // least one.
  localparam int unsigned RESULT_STAGES = LATENCY >= 2 ? LATENCY - FP_STAGES : 1;
  // Bits of a result beat: its mask and its sums.
  localparam int unsigned BEAT_W = LANES + LANES * 32;

  // Elaboration checks (Verilator and Yosys both stop on them).
  if (LANES < 1) begin : g_bad_lanes
    $error("reduction_unit: LANES must be at least 1");
  end
  if (LATENCY < 1) begin : g_bad_latency
    $error("reduction_unit: LATENCY must be at least 1");
  end

  // The beat the adders see: the operand register's output, or the inputs when LATENCY = 1.
  logic                op_valid;
  logic                op_dtype;
  logic [LANES-1:0]    op_mask;
  logic [LANES*32-1:0] op_acc, op_src;

  if (LATENCY >= 2) begin : g_operand_reg
    logic                op_valid_q;
    logic                op_dtype_q;
    logic [LANES-1:0]    op_mask_q;
    logic [LANES*32-1:0] op_acc_q, op_src_q;

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        op_valid_q <= 1'b0;
      end else begin
        op_valid_q <= valid_i;
      end
    end

    // Data registers load only with a beat and need no reset.
    always_ff @(posedge clk_i) begin
      if (valid_i) begin
        op_dtype_q <= dtype_i;
        op_mask_q  <= mask_i;
        op_acc_q   <= acc_i;
        op_src_q   <= src_i;
      end
    end

    assign op_valid = op_valid_q;
    assign op_dtype = op_dtype_q;
    assign op_mask  = op_mask_q;
    assign op_acc   = op_acc_q;
    assign op_src   = op_src_q;
  end else begin : g_operand_direct
    assign op_valid = valid_i;
    assign op_dtype = dtype_i;
    assign op_mask  = mask_i;
    assign op_acc   = acc_i;
    assign op_src   = src_i;
  end

  // One int32 adder and one fp32 adder per lane. The beat the adders' results belong to: the
  // operands' beat, or the one FP_STAGES - 1 before it, held beside the fp32 adders'
  // registers.
  logic                sum_valid;
  logic                sum_dtype;
  logic [LANES-1:0]    sum_mask;
  logic [LANES*32-1:0] int_sum, int_sum_out, fp_sum, lane_sum;

  for (genvar l = 0; l < LANES; l++) begin : g_lane
    assign int_sum[l*32 +: 32] = op_acc[l*32 +: 32] + op_src[l*32 +: 32];

    fp32_adder #(.STAGES(FP_STAGES)) u_fp32_adder (
      .clk_i, .en_i(op_valid), .a_i(op_acc[l*32 +: 32]), .b_i(op_src[l*32 +: 32]),
      .sum_o(fp_sum[l*32 +: 32])
    );

    assign lane_sum[l*32 +: 32] = !sum_mask[l]                   ? 32'h0000_0000
                                : (sum_dtype == DTYPE_FP32_BIT) ? fp_sum[l*32 +: 32]
                                                                : int_sum_out[l*32 +: 32];
  end

  if (FP_STAGES > 1) begin : g_split
    // The beat beside the fp32 adders' registers: [0] the beat of their second stage, [D-1]
    // that of their last.
    localparam int unsigned D = FP_STAGES - 1;
    localparam int unsigned MID_W = 1 + LANES + LANES * 32;  // dtype, mask, int32 sums
    logic [D-1:0]       mid_valid_q;
    logic [MID_W-1:0]   mid_q [D];

    always_ff @(posedge clk_i) begin
      if (!rst_ni) mid_valid_q <= '0;
      else mid_valid_q <= D'({mid_valid_q, op_valid});
    end
    always_ff @(posedge clk_i) begin
      if (op_valid) mid_q[0] <= {op_dtype, op_mask, int_sum};
      for (int unsigned d = 1; d < D; d++) begin
        if (mid_valid_q[d-1]) mid_q[d] <= mid_q[d-1];
      end
    end
    assign sum_valid = mid_valid_q[D-1];
    assign {sum_dtype, sum_mask, int_sum_out} = mid_q[D-1];
  end else begin : g_whole
    assign sum_valid   = op_valid;
    assign sum_dtype   = op_dtype;
    assign sum_mask    = op_mask;
    assign int_sum_out = int_sum;
  end

  // Result registers: stage 0 takes the adders' beat, stage s the beat of stage s - 1.
  logic [RESULT_STAGES-1:0]        res_valid_d, res_valid_q;
  logic [RESULT_STAGES*BEAT_W-1:0] res_beat_d, res_beat_q;

  always_comb begin
    res_valid_d[0]           = sum_valid;
    res_beat_d[BEAT_W-1:0]   = {sum_mask, lane_sum};
    for (int unsigned s = 1; s < RESULT_STAGES; s++) begin
      res_valid_d[s]                = res_valid_q[s-1];
      res_beat_d[s*BEAT_W +: BEAT_W] = res_beat_q[(s-1)*BEAT_W +: BEAT_W];
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      res_valid_q <= '0;
    end else begin
      res_valid_q <= res_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    for (int unsigned s = 0; s < RESULT_STAGES; s++) begin
      if (res_valid_d[s]) begin
        res_beat_q[s*BEAT_W +: BEAT_W] <= res_beat_d[s*BEAT_W +: BEAT_W];
      end
    end
  end

  assign valid_o = res_valid_q[RESULT_STAGES-1];
  assign {mask_o, sum_o} = res_beat_q[(RESULT_STAGES-1)*BEAT_W +: BEAT_W];

endmodule
