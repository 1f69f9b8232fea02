// Two storage arrays side by side (simulation only): one with its write ports registered
// (WRITE_REG = 1, with or without the bypass: BYPASS) and one without, given the same writes
// and reads every cycle.
// tb/storage_array_test.cpp checks that their read data agree in every cycle.
module storage_array_tb #(
  parameter int unsigned WIDTH = 16,
  parameter int unsigned DEPTH = 8,
  parameter int unsigned WRITES = 2,
  parameter int unsigned READS = 2,
  parameter int unsigned LANE_W = 8,
  parameter int unsigned SYNC_READ = 0,
  parameter int unsigned BYPASS = 1,
  localparam int unsigned ADDR_W = DEPTH > 1 ? $clog2(DEPTH) : 1,
  localparam int unsigned LANES = WIDTH / LANE_W
) (
  input  logic                     clk_i,
  /* verilator lint_off UNUSEDSIGNAL */  // the benches' driver resets every model
  input  logic                     rst_ni,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [WRITES-1:0]        we_i,
  input  logic [WRITES*ADDR_W-1:0] waddr_i,
  input  logic [WRITES*LANES-1:0]  wmask_i,
  input  logic [WRITES*WIDTH-1:0]  wdata_i,
  input  logic [READS*ADDR_W-1:0]  raddr_i,
  input  logic [READS-1:0]         re_i,
  output logic [READS*WIDTH-1:0]   rdata_direct_o,
  output logic [READS*WIDTH-1:0]   rdata_reg_o
);

  storage_array #(
    .WIDTH(WIDTH), .DEPTH(DEPTH), .WRITES(WRITES), .READS(READS), .LANE_W(LANE_W),
    .SYNC_READ(SYNC_READ != 0), .WRITE_REG(1'b0)
  ) u_direct (
    .clk_i, .we_i, .waddr_i, .wmask_i, .wdata_i, .raddr_i, .re_i, .rdata_o(rdata_direct_o)
  );

  storage_array #(
    .WIDTH(WIDTH), .DEPTH(DEPTH), .WRITES(WRITES), .READS(READS), .LANE_W(LANE_W),
    .SYNC_READ(SYNC_READ != 0), .WRITE_REG(1'b1), .BYPASS(BYPASS != 0)
  ) u_registered (
    .clk_i, .we_i, .waddr_i, .wmask_i, .wdata_i, .raddr_i, .re_i, .rdata_o(rdata_reg_o)
  );

endmodule
