// A storage array of the NI: the table banks (schedule_table.sv) and the NI's buffers and
// queues (scripts/area/storage.py names every instance and its role). A chip builds these as
// memory macros, not as flip-flops; keeping them in this one module lets the area flow
// (scripts/area/) keep every instance as a black box, estimate it as SRAM from its bits, and
// synthesize the logic around it at the real parameters. In simulation and in the per-file
// synthesis tests it is an array of registers with exactly the behaviour the blocks had with
// their own arrays.
//
// Writes take effect at the clock edge. Write ports are applied in order, so where two ports
// write the same bits in one cycle the higher-numbered port wins; each write port has a mask
// bit per LANE_W-bit lane. A read port gives the word at its address in the same cycle
// (SYNC_READ = 0, an asynchronous read: the word as the last edge left it) or in the next
// cycle (SYNC_READ = 1, a registered read that sees the word before this cycle's writes, in
// cycles its read enable is set; the data hold otherwise).
// There is no reset: a block reads only words it wrote.
//
// WRITE_REG = 1 registers the write ports at the clock edge, as a synchronous memory macro's
// input registers do: a write lands in the array at the next edge, and until then a read of
// its word takes the registered data (a bypass per read port and lane, the higher-numbered
// write port first). The behaviour at the ports is the same as with WRITE_REG = 0; the write
// port's setup is then a register's, and the address decode moves into the next cycle.
// BYPASS = 0 (with a registered read) leaves the bypass out, as an SRAM with input registers
// does: the block never reads a word in the cycle after writing it (an error in simulation).
module storage_array #(
  // Bits of a word.
  parameter int unsigned WIDTH = 32,
  // Words.
  parameter int unsigned DEPTH = 16,
  // Write ports.
  parameter int unsigned WRITES = 1,
  // Read ports.
  parameter int unsigned READS = 1,
  // Bits of a write lane (WIDTH is a multiple of it): the write mask's granularity.
  parameter int unsigned LANE_W = WIDTH,
  // 1: registered read (data in the next cycle); 0: asynchronous read (same cycle).
  parameter bit SYNC_READ = 1'b0,
  // 1: registered write ports with a read bypass (same behaviour, a register's write setup).
  parameter bit WRITE_REG = 1'b0,
  // With WRITE_REG, 1: a read of a word whose write has not landed takes the write's data; 0: no
  // such read happens (an error in simulation).
  parameter bit BYPASS = 1'b1,
  localparam int unsigned ADDR_W = DEPTH > 1 ? $clog2(DEPTH) : 1,
  localparam int unsigned LANES = WIDTH / LANE_W
) (
  input  logic                     clk_i,
  // Write ports: enable, word address, lane mask, data (port i at [i*ADDR_W +: ADDR_W] etc.).
  input  logic [WRITES-1:0]        we_i,
  input  logic [WRITES*ADDR_W-1:0] waddr_i,
  input  logic [WRITES*LANES-1:0]  wmask_i,
  input  logic [WRITES*WIDTH-1:0]  wdata_i,
  // Read ports: word address, enable and data. A registered read's output loads only in a
  // cycle its enable is set and holds otherwise (an SRAM's read enable); an asynchronous read
  // has no enable to use.
  input  logic [READS*ADDR_W-1:0]  raddr_i,
  input  logic [READS-1:0]         re_i,
  output logic [READS*WIDTH-1:0]   rdata_o
);

  // Elaboration checks (Verilator and Yosys both stop on them).
  if (LANE_W == 0 || WIDTH % LANE_W != 0) begin : g_bad_lane
    $error("storage_array: WIDTH must be a multiple of LANE_W");
  end

  if (WRITE_REG && !BYPASS && !SYNC_READ) begin : g_bad_bypass
    $error("storage_array: BYPASS = 0 needs a registered read (SYNC_READ = 1)");
  end

  // The writes the array applies at this edge: the ports, or their registers.
  logic [WRITES-1:0]        we;
  logic [WRITES*ADDR_W-1:0] waddr;
  logic [WRITES*LANES-1:0]  wmask;
  logic [WRITES*WIDTH-1:0]  wdata;

  if (WRITE_REG) begin : g_write_reg
    logic [WRITES-1:0]        we_q;
    logic [WRITES*ADDR_W-1:0] waddr_q;
    logic [WRITES*LANES-1:0]  wmask_q;
    logic [WRITES*WIDTH-1:0]  wdata_q;
    always_ff @(posedge clk_i) begin
      we_q    <= we_i;
      waddr_q <= waddr_i;
      wmask_q <= wmask_i;
      wdata_q <= wdata_i;
    end
    assign we    = we_q;
    assign waddr = waddr_q;
    assign wmask = wmask_q;
    assign wdata = wdata_q;
  end else begin : g_write_direct
    assign we    = we_i;
    assign waddr = waddr_i;
    assign wmask = wmask_i;
    assign wdata = wdata_i;
  end

  if (!SYNC_READ) begin : g_no_read_enable
    logic unused_re;
    assign unused_re = ^re_i;
  end

  // Each read port's lanes, gathered into rdata_o by one loop (a lane a slice: a simulator
  // copies each once, not through a concatenation of them all).
  logic [LANE_W-1:0] lane_rd [READS*LANES];
  always_comb begin
    for (int i = 0; i < READS * LANES; i++) rdata_o[i*LANE_W +: LANE_W] = lane_rd[i];
  end

  // One array per lane; within a lane the write ports are applied in order.
  for (genvar l = 0; l < LANES; l++) begin : g_lane
    logic [LANE_W-1:0] mem_q [DEPTH];

    always_ff @(posedge clk_i) begin
      for (int w = 0; w < WRITES; w++) begin
        if (we[w] && wmask[w*LANES + l]) begin
          mem_q[waddr[w*ADDR_W +: ADDR_W]] <= wdata[w*WIDTH + l*LANE_W +: LANE_W];
        end
      end
    end

    for (genvar r = 0; r < READS; r++) begin : g_read
      logic [ADDR_W-1:0] raddr;
      assign raddr = raddr_i[r*ADDR_W +: ADDR_W];

      if (WRITE_REG && BYPASS) begin : g_bypass
        logic              hit;       // a registered write not yet landed is to this word
        logic [LANE_W-1:0] hit_data;  // its data (the higher-numbered port's)
        always_comb begin
          hit = 1'b0;
          hit_data = '0;
          for (int w = 0; w < WRITES; w++) begin
            if (we[w] && wmask[w*LANES + l] && waddr[w*ADDR_W +: ADDR_W] == raddr) begin
              hit = 1'b1;
              hit_data = wdata[w*WIDTH + l*LANE_W +: LANE_W];
            end
          end
        end
        if (SYNC_READ) begin : g_sync
          // The word as the last edge left it, registered; the bypass registered beside it.
          logic [LANE_W-1:0] rd_q, hit_data_q;
          logic              hit_q;
          always_ff @(posedge clk_i) begin
            if (re_i[r]) begin
              rd_q <= mem_q[raddr];
              hit_q <= hit;
              hit_data_q <= hit_data;
            end
          end
          assign lane_rd[r*LANES + l] = hit_q ? hit_data_q : rd_q;
        end else begin : g_async
          assign lane_rd[r*LANES + l] = hit ? hit_data : mem_q[raddr];
        end
      end else if (SYNC_READ) begin : g_sync
`ifndef SYNTHESIS
        if (WRITE_REG) begin : g_no_bypass
          always_ff @(posedge clk_i) begin
            for (int w = 0; w < WRITES; w++) begin
              if (re_i[r] && we[w] && wmask[w*LANES + l] &&
                  waddr[w*ADDR_W +: ADDR_W] == raddr) begin
                $error("storage_array: word %0d read before its write lands", raddr);
              end
            end
          end
        end
`endif
        logic [LANE_W-1:0] rd_q;
        always_ff @(posedge clk_i) if (re_i[r]) rd_q <= mem_q[raddr];
        assign lane_rd[r*LANES + l] = rd_q;
      end else begin : g_async
        assign lane_rd[r*LANES + l] = mem_q[raddr];
      end
    end
  end

endmodule
