// Lockstep down-counter (paper Fig. 6, footnote 4): a NOP loads it with the estimated step
// time, it counts down once per cycle, and the timestep counter may advance only when it is
// zero. SystemC twin: systemc/ni/lockstep_counter.hpp.
//
// Timing: load_i with cycles_i = c in cycle t makes the counter read c in cycle t (value_o
// shows the load at once) and zero from cycle t + c on, as LockstepCounter::load(t, c).
// start_i clears it. idle_o: the count is zero at the start of this cycle (whatever this
// cycle loads): the timestep counter's condition.
//
// The register holds the count plus one (0 or 1: zero), so a load stores cycles_i as it comes
// and the decrement is on the register alone, not after the load's value.
module lockstep_counter #(
  // Width of the counter: enough for the flits of the largest per-step chunk.
  parameter int unsigned COUNT_W = 32
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               start_i,
  input  logic               load_i,
  input  logic [COUNT_W-1:0] cycles_i,
  output logic [COUNT_W-1:0] value_o,
  output logic               idle_o
);

  logic [COUNT_W-1:0] count_d, count_q;  // the count plus one

  always_comb begin
    count_d = count_q - COUNT_W'(count_q != '0);
    if (start_i) count_d = '0;
    else if (load_i) count_d = cycles_i;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      count_q <= '0;
    end else begin
      count_q <= count_d;
    end
  end

  assign idle_o  = count_q[COUNT_W-1:1] == '0;
  assign value_o = load_i ? cycles_i : idle_o ? '0 : count_q - COUNT_W'(1);

endmodule
