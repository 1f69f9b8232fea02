// Lockstep down-counter (paper Fig. 6, footnote 4): a NOP loads it with the estimated step
// time, it counts down once per cycle, and the timestep counter may advance only when it is
// zero. SystemC twin: systemc/ni/lockstep_counter.hpp.
//
// Timing: load_i with cycles_i = c in cycle t makes the counter read c in cycle t (value_o
// shows the load at once) and zero from cycle t + c on, as LockstepCounter::load(t, c).
// start_i clears it.
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
  output logic               zero_o
);

  logic [COUNT_W-1:0] count_d, count_q;

  always_comb begin
    count_d = count_q;
    if (start_i) begin
      count_d = '0;
    end else if (load_i) begin
      // Read c now, c - 1 in the next cycle: the register holds the next cycle's value.
      count_d = (cycles_i == '0) ? '0 : cycles_i - COUNT_W'(1);
    end else if (count_q != '0) begin
      count_d = count_q - COUNT_W'(1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      count_q <= '0;
    end else begin
      count_q <= count_d;
    end
  end

  assign value_o = load_i ? cycles_i : count_q;
  assign zero_o  = value_o == '0;

endmodule
