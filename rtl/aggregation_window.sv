// The window of one aggregation flow in a switch (the NetReduce appendix, seed 002, Figs.
// 20-21: the state manager's arrival bitmaps and the aggregation values; docs/ina.md).
// SystemC twin: systemc/aggregation/aggregation_window.hpp (AggregationWindow).
//
// The cut. The SystemC block is one flow's window, and so is this one: the switch unit
// (SwitchAggregator) keeps a window per flow, each with its own base that moves on when that
// flow's front slot is complete and its turn to send has come, independently of the others.
// One window per flow gives every flow its own accept and pop each cycle and its own small
// macros; the windows of all flows in one macro would put every flow's accepts and pops on
// the same few ports, and a flow's front behind another flow's address. A switch has a few
// flows (every `ina` switch one, a `netreduce` machine switch as many as its learners), so a
// window per flow is also not many macros.
//
// What it holds: SLOTS consecutive sequence numbers from base_o (a sequence number is a
// payload flit's place in its message). Per slot (sequence number modulo SLOTS) an arrival
// bitmap over the CHILDREN children and the partial sum of the flits that arrived, each in a
// storage array (a memory macro): the bitmaps SLOTS x (1 + CHILDREN) bits, the sums SLOTS x
// FLIT_DATA_BITS, each one write port and two asynchronous read ports (the offered flit's slot
// and the front slot). Besides the bitmap each row holds the lap of the sequence number it was
// written for (the bit of weight SLOTS), so moving the window on writes nothing: a row written
// for the number SLOTS below reads as empty. After reset the window clears its rows, one a
// cycle (ready_o low for SLOTS cycles), as the switch's table is loaded before a run.
//
// Per cycle, as the SystemC block is called: the offered flit (child_i, seq_i) is acceptable
// (can_accept_o) when it lies in the window and that child has not delivered it; arrivals_o
// is its slot's bitmap (0 outside the window), completes_o whether taking it completes the
// slot. accept_i takes it: the first arrival of a slot is copied, a later one added to the
// partial sum, element by element in the cycle it is taken (read, add, write: the next flit of
// the same slot, in the next cycle, adds to this sum). front_complete_o says every child has
// delivered base_o, whose sum is front_sum_o; pop_i moves the window on by one. Both outputs
// are the state the last edge left: a flit taken in a cycle is popped at the earliest in the
// next (the SystemC unit's sums are due `latency` >= 1 cycles after their last flit). An
// accept and a pop of one cycle never touch one row: the front is complete, so no child
// offers it, and base_o + SLOTS lies outside the window until the pop.
//
// Arithmetic: the NI reduction unit's (rtl/reduction_unit.sv), on the FLIT_DATA_BITS / 32
// little-endian elements of a flit: int32 wraps, fp32 is rtl/fp32_adder.sv (one IEEE addition,
// round to nearest even, every NaN the canonical NaN), combinational, so the cycle's add and
// the array's read and write are one path (docs/area.md, "The switch aggregation unit").
//
// Against the SystemC unit (SwitchAggregator): that unit takes a flit from every child's port
// in a cycle, several of one flow into one slot added in port order, and sends every due sum
// of a flow in one cycle; this window takes one flit and gives one sum a cycle. A unit that
// matches the SystemC unit every cycle needs the hardware docs/ina.md describes ("What the
// unit's RTL needs"); the SystemC unit limited to this window's rate runs fattree:4x2 in 4
// times the cycles, so the model keeps its own.
//
// Bounds: CHILDREN 1 to 64 (as the SystemC block), SLOTS a power of two of at least 2 (the
// SystemC block takes any count; here a slot is the number's low bits), SEQ_W at least
// log2(SLOTS) + 1 bits of the sequence numbers (they wrap: offers lie within SLOTS of base_o).
// tb/aggregation_window_test.cpp checks every output every cycle against the SystemC block.
module aggregation_window #(
  // Children delivering each sequence number (1 to 64).
  parameter int unsigned CHILDREN = 4,
  // Sequence numbers in flight (the SystemC `--ina-window`), a power of two, at least 2.
  parameter int unsigned SLOTS = 256,
  // Bits of a sequence number as the ports carry it (it wraps).
  parameter int unsigned SEQ_W = 32,
  localparam int unsigned CHILD_W = CHILDREN > 1 ? $clog2(CHILDREN) : 1,
  localparam int unsigned OCC_W = $clog2(SLOTS + 1)
) (
  input  logic                                      clk_i,
  input  logic                                      rst_ni,
  // Element type of the flow: DTYPE_INT32 or DTYPE_FP32 (the codes are 0 and 1).
  input  logic                                      dtype_i,
  // The rows are cleared: the window takes and sends from the next cycle on.
  output logic                                      ready_o,
  // The flit offered this cycle: its child and sequence number.
  input  logic [CHILD_W-1:0]                        child_i,
  input  logic [SEQ_W-1:0]                          seq_i,
  output logic                                      can_accept_o,
  output logic [CHILDREN-1:0]                       arrivals_o,
  output logic                                      completes_o,
  // Take the offered flit (only with can_accept_o), its payload.
  input  logic                                      accept_i,
  input  logic [ni_formats_pkg::FLIT_DATA_BITS-1:0] data_i,
  // The front: every child has delivered base_o; its sum; pop_i (only with
  // front_complete_o) moves the window on by one.
  output logic                                      front_complete_o,
  output logic [ni_formats_pkg::FLIT_DATA_BITS-1:0] front_sum_o,
  input  logic                                      pop_i,
  output logic [SEQ_W-1:0]                          base_o,
  // Sequence numbers in the window with at least one arrival.
  output logic [OCC_W-1:0]                          occupied_o
);

  `include "ni_formats.svh"

  // The dtype code of fp32 elements as the 1-bit dtype_i carries it.
  localparam logic DTYPE_FP32_BIT = 1'(DTYPE_FP32);
  localparam int unsigned DATA_W = FLIT_DATA_BITS;
  localparam int unsigned ELEMS = DATA_W / 32;
  localparam int unsigned SLOT_W = $clog2(SLOTS);
  // A bitmap row: the lap of the number it was written for, then the bitmap.
  localparam int unsigned ROW_W = 1 + CHILDREN;
  localparam logic [CHILDREN-1:0] ALL = {CHILDREN{1'b1}};

  // Elaboration checks (Verilator and Yosys both stop on them).
  if (CHILDREN < 1 || CHILDREN > 64) begin : g_bad_children
    $error("aggregation_window: CHILDREN must be 1 to 64");
  end
  if (SLOTS < 2 || (SLOTS & (SLOTS - 1)) != 0) begin : g_bad_slots
    $error("aggregation_window: SLOTS must be a power of two of at least 2");
  end
  if (SEQ_W < SLOT_W + 1) begin : g_bad_seq
    $error("aggregation_window: SEQ_W must be at least log2(SLOTS) + 1");
  end

  // Clearing after reset: the next row to clear; done when its top bit is set.
  logic [SLOT_W:0]  clear_q;
  logic             ready;
  logic [SEQ_W-1:0] base_q;
  logic [OCC_W-1:0] occupied_q;

  assign ready = clear_q[SLOT_W];

  // The arrays: port 0 reads the offered flit's row, port 1 the front's.
  logic [SLOT_W-1:0]   slot, front_slot, row_waddr;
  logic                lap;
  logic [2*ROW_W-1:0]  rows;
  logic [2*DATA_W-1:0] sums;
  logic                row_we, sum_we;
  logic [ROW_W-1:0]    row_wdata;
  logic [DATA_W-1:0]   sum_wdata;

  assign slot       = seq_i[SLOT_W-1:0];
  assign lap        = seq_i[SLOT_W];
  assign front_slot = base_q[SLOT_W-1:0];

  storage_array #(.WIDTH(ROW_W), .DEPTH(SLOTS), .WRITES(1), .READS(2)) u_bitmaps (
    .clk_i, .we_i(row_we), .waddr_i(row_waddr), .wmask_i(1'b1), .wdata_i(row_wdata),
    .raddr_i({front_slot, slot}), .re_i(2'b11), .rdata_o(rows)
  );
  storage_array #(.WIDTH(DATA_W), .DEPTH(SLOTS), .WRITES(1), .READS(2)) u_sums (
    .clk_i, .we_i(sum_we), .waddr_i(slot), .wmask_i(1'b1), .wdata_i(sum_wdata),
    .raddr_i({front_slot, slot}), .re_i(2'b11), .rdata_o(sums)
  );

  // The offered flit: in the window, its slot's bitmap if written for its lap.
  logic [SEQ_W-1:0]    offset;
  logic                in_window;
  logic [CHILDREN-1:0] child_bit;
  logic                take;

  assign offset    = seq_i - base_q;
  assign in_window = ready && offset < SEQ_W'(SLOTS);
  assign child_bit = CHILDREN'(1) << child_i;

  always_comb begin
    arrivals_o = '0;
    if (in_window && rows[ROW_W-1] == lap) arrivals_o = rows[CHILDREN-1:0];
  end
  assign can_accept_o = in_window && 32'(child_i) < CHILDREN && (arrivals_o & child_bit) == '0;
  assign completes_o  = (arrivals_o | child_bit) == ALL;
  assign take         = accept_i && can_accept_o;

  // The partial sum: the flit copied at the first arrival, else added, element by element.
  logic [DATA_W-1:0] partial, int_sum, fp_sum;
  assign partial = sums[DATA_W-1:0];

  for (genvar e = 0; e < ELEMS; e++) begin : g_elem
    assign int_sum[e*32 +: 32] = partial[e*32 +: 32] + data_i[e*32 +: 32];
    fp32_adder #(.STAGES(1)) u_fp32_adder (
      .clk_i, .en_i(1'b0), .a_i(partial[e*32 +: 32]), .b_i(data_i[e*32 +: 32]),
      .sum_o(fp_sum[e*32 +: 32])
    );
  end

  always_comb begin
    sum_we    = take;
    sum_wdata = arrivals_o == '0           ? data_i
              : dtype_i == DTYPE_FP32_BIT ? fp_sum
                                          : int_sum;
    // While clearing, the bitmap port writes the rows of lap 1 (the numbers 0..SLOTS-1 are
    // lap 0), empty.
    row_we    = take || !ready;
    row_waddr = ready ? slot : clear_q[SLOT_W-1:0];
    row_wdata = ready ? {lap, arrivals_o | child_bit} : {1'b1, {CHILDREN{1'b0}}};
  end

  // The front.
  assign front_complete_o = ready && rows[2*ROW_W-1] == base_q[SLOT_W] &&
                            rows[ROW_W +: CHILDREN] == ALL;
  assign front_sum_o      = sums[DATA_W +: DATA_W];

  logic pop, first;
  assign pop   = pop_i && front_complete_o;
  assign first = take && arrivals_o == '0;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      clear_q    <= '0;
      base_q     <= '0;
      occupied_q <= '0;
    end else begin
      if (!ready) clear_q <= clear_q + 1'b1;
      if (pop) base_q <= base_q + 1'b1;
      occupied_q <= occupied_q + OCC_W'(first) - OCC_W'(pop);
    end
  end

  assign ready_o    = ready;
  assign base_o     = base_q;
  assign occupied_o = occupied_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && accept_i && !can_accept_o) begin
      $error("aggregation_window: child %0d flit %0d taken but not acceptable", child_i, seq_i);
    end
    if (rst_ni && pop_i && !front_complete_o) begin
      $error("aggregation_window: flit %0d popped but not complete", base_q);
    end
  end
`endif

endmodule
