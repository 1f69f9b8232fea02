// Timestep counter (paper Fig. 6 (3)): the step the NI is in. Only the table's head entry can
// issue, and only when its Step equals this counter. SystemC twin:
// systemc/ni/timestep_counter.hpp.
//
// Timing: start_i (the host starts the all-reduce) sets the step to 1 in the next cycle.
// advance_o is high in a cycle in which the lockstep counter is zero, the DMA is idle, a head
// entry exists and its step is later than the current one; the step is one higher from the
// next cycle on.
module timestep_counter #(
  // Width of a step number (the image's step_bits; steps run 1..2T).
  parameter int unsigned STEP_W = 8
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              start_i,
  input  logic              lockstep_zero_i,
  input  logic              dma_idle_i,
  input  logic              has_next_i,
  input  logic [STEP_W-1:0] next_step_i,
  output logic [STEP_W-1:0] step_o,
  output logic              advance_o
);

  logic [STEP_W-1:0] step_d, step_q;

  assign advance_o = lockstep_zero_i && dma_idle_i && has_next_i && (next_step_i > step_q);

  always_comb begin
    step_d = step_q;
    if (start_i) begin
      step_d = STEP_W'(1);
    end else if (advance_o) begin
      step_d = step_q + STEP_W'(1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      step_q <= STEP_W'(1);
    end else begin
      step_q <= step_d;
    end
  end

  assign step_o = step_q;

endmodule
