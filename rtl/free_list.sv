// A free list of ENTRIES ids (block slots, message records: rtl/block_slots.sv): a FIFO from
// which up to K requests a cycle, in lane order, take the ids at its head, and to which one id
// a cycle returns at its tail, behind every id free at the cycle's start (so an id returned in
// a cycle is not taken in the same cycle). SystemC: the slots' FIFO in BlockSlots
// (systemc/ni/block_slots.hpp); tb/block_slots_test.cpp checks both lists every cycle.
//
// Place n lives in bank n mod BANKS, row n / BANKS, with BANKS the power of two at or above K:
// the takes of a cycle are consecutive places in distinct banks, and every bank is a
// storage_array of one write and one read port. The ids at the K places from the head are held
// in registers, so a request's id is a register picked by how many lanes before it take one:
// no memory read between the requests and the ids. Each cycle the registers move on by the
// cycle's takes and fill from the K places after them, read from the banks at addresses the
// head alone gives. At reset place n holds id n without being written: until the head first
// wraps, a place is read as its own number.
module free_list #(
  // Requests a cycle.
  parameter int unsigned K = 4,
  // Ids (a power of two, at least two rows of the banks).
  parameter int unsigned ENTRIES = 128,
  localparam int unsigned ID_W = ENTRIES > 1 ? $clog2(ENTRIES) : 1,
  localparam int unsigned BANK_W = K > 1 ? $clog2(K) : 1,
  localparam int unsigned BANKS = 1 << BANK_W,
  localparam int unsigned ROWS = ENTRIES / BANKS,
  localparam int unsigned ROW_W = ROWS > 1 ? $clog2(ROWS) : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // Requests of this cycle, lane order; the id each took (take_o), and whether one found none.
  input  logic [K-1:0]      want_i,
  output logic [K-1:0]      take_o,
  output logic [K*ID_W-1:0] id_o,
  output logic              short_o,
  // The ids the requests of this cycle may take, from registers: the n-th request takes
  // head_ids_o's n-th (id_o picks it by lane).
  output logic [K*ID_W-1:0] head_ids_o,
  // An id returns in this cycle.
  input  logic              put_i,
  input  logic [ID_W-1:0]   put_id_i,
  // Ids in the list at the start of the cycle.
  output logic [ID_W:0]     free_o
);

  if (ROWS < 2 || ENTRIES % BANKS != 0 || (ENTRIES & (ENTRIES - 1)) != 0) begin : g_bad_entries
    $error("free_list: ENTRIES must be a power of two of at least two rows of the banks");
  end

  logic [ID_W-1:0]       head_q;
  logic                  lap_q;   // the head has wrapped: every place was written
  logic [ID_W:0]         free_q;
  logic [K*ID_W-1:0]     next_q;  // the ids at places head_q .. head_q + K - 1
  logic [K:0]            took;    // one-hot: takes of this cycle
  logic [BANKS*ROW_W-1:0] bank_raddr;
  logic [BANKS*ID_W-1:0] bank_rdata;
  logic [K*ID_W-1:0]     ahead;   // the ids at places head_q + K .. head_q + 2K - 1

  assign free_o = free_q;
  assign head_ids_o = next_q;

  // A request takes an id when the list holds more ids than the requests before it: once one
  // finds none, every later one finds none too, so lane p's id is the register picked by the
  // count of requests before it, and whether it gets one is a registered flag of that count
  // (enough_q[j]: more than j ids free), with no compare of counts between the lanes. Both are
  // picked by shifting: the registers and the flags move on by one at each request, so each
  // request bit drives one level of two-way selects rather than a count. The cycle's takes
  // are a one-hot position shifted the same way (took), which picks the next state.
  logic [K-1:0] enough_q;
  always_comb begin
    logic [K*ID_W-1:0] ids;   // the registers from the lanes before p on
    logic [K-1:0]      room;  // and their flags
    ids = next_q;
    room = enough_q;
    took = (K + 1)'(1);
    short_o = 1'b0;
    for (int p = 0; p < K; p++) begin
      take_o[p] = want_i[p] && room[0];
      short_o |= want_i[p] && !room[0];
      id_o[ID_W*p +: ID_W] = ids[ID_W-1:0];
      if (take_o[p]) took = took << 1;
      if (want_i[p]) begin
        ids = ids >> ID_W;
        room = room >> 1;
      end
    end
  end

  // The K places after the registered ones fall in distinct banks; until the head first wraps,
  // a place not yet written is read as its own number.
  logic [K*(ID_W+1)-1:0] ahead_at;  // their places, with the wrap as the top bit
  always_comb begin
    bank_raddr = '0;
    for (int j = 0; j < K; j++) begin
      logic [ID_W:0] at;
      at = {1'b0, head_q} + (ID_W + 1)'(K + j);
      ahead_at[(ID_W+1)*j +: ID_W+1] = at;
      bank_raddr[ROW_W*at[BANK_W-1:0] +: ROW_W] = ROW_W'(at[ID_W-1:0] >> BANK_W);
    end
  end
  always_comb begin
    for (int j = 0; j < K; j++) begin
      logic [ID_W:0] at;
      at = ahead_at[(ID_W+1)*j +: ID_W+1];
      ahead[ID_W*j +: ID_W] = lap_q || at[ID_W] ? bank_rdata[ID_W*at[BANK_W-1:0] +: ID_W]
                                                : at[ID_W-1:0];
    end
  end

  // ---- the banks: a returned id joins at the tail ------------------------------------------
  logic [ID_W-1:0] tail;
  assign tail = head_q + ID_W'(free_q);

  for (genvar b = 0; b < BANKS; b++) begin : g_bank
    storage_array #(
      .WIDTH(ID_W), .DEPTH(ROWS), .WRITES(1), .READS(1), .WRITE_REG(1'b1)
    ) u_bank (
      .clk_i, .we_i(put_i && tail[BANK_W-1:0] == BANK_W'(b)),
      .waddr_i(ROW_W'(tail >> BANK_W)), .wmask_i(1'b1), .wdata_i(put_id_i),
      .raddr_i(bank_raddr[ROW_W*b +: ROW_W]), .re_i('1), .rdata_o(bank_rdata[ID_W*b +: ID_W])
    );
  end

  // The registers after this cycle, for every count of takes t = 0..K (from registers, the
  // bank reads and the returned id alone), then the one of this cycle's count (took): the
  // requests arrive late in the cycle and only pick among ready candidates. For t takes: the
  // head (with the wrap as its top bit), the ids at the K places from head_q + t (the id
  // returned this cycle where it lands among them, at offset free_q from head_q), the free
  // count and its "more than j" flags.
  logic [(K+1)*(ID_W+1)-1:0] head_t;
  logic [(K+1)*K*ID_W-1:0]  next_t;    // t's place j at [(t*K + j)*ID_W]
  logic [(K+1)*(ID_W+1)-1:0] free_t;
  logic [(K+1)*K-1:0]       enough_t;
  // The returned id, which comes late (a completion), only picks between the counts and flags
  // with and without it.
  always_comb begin
    for (int t = 0; t <= K; t++) begin
      logic [ID_W:0] kept;  // the free count less the takes, without the returned id
      head_t[(ID_W+1)*t +: ID_W+1] = {1'b0, head_q} + (ID_W + 1)'(t);
      kept = free_q - (ID_W + 1)'(t);
      free_t[(ID_W+1)*t +: ID_W+1] = put_i ? kept + (ID_W + 1)'(1) : kept;
      for (int j = 0; j < K; j++) begin
        enough_t[K*t + j] = put_i ? kept >= (ID_W + 1)'(j) : kept > (ID_W + 1)'(j);
        next_t[ID_W*(K*t + j) +: ID_W] = t + j < K ? next_q[ID_W*(t + j) +: ID_W]
                                                   : ahead[ID_W*(t + j - K) +: ID_W];
        if (put_i && free_q == (ID_W + 1)'(t + j)) next_t[ID_W*(K*t + j) +: ID_W] = put_id_i;
      end
    end
  end

  logic [ID_W:0]     head_d;
  logic [K*ID_W-1:0] next_d;
  logic [ID_W:0]     free_d;
  logic [K-1:0]      enough_d;
  always_comb begin
    head_d = '0;
    next_d = '0;
    free_d = '0;
    enough_d = '0;
    for (int t = 0; t <= K; t++) begin
      if (took[t]) begin
        head_d |= head_t[(ID_W+1)*t +: ID_W+1];
        next_d |= next_t[ID_W*K*t +: ID_W*K];
        free_d |= free_t[(ID_W+1)*t +: ID_W+1];
        enough_d |= enough_t[K*t +: K];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      head_q <= '0;
      lap_q <= 1'b0;
      for (int j = 0; j < K; j++) next_q[ID_W*j +: ID_W] <= ID_W'(j);
      free_q <= (ID_W + 1)'(ENTRIES);
      enough_q <= '1;
    end else begin
      head_q <= head_d[ID_W-1:0];
      next_q <= next_d;
      if (head_d[ID_W]) lap_q <= 1'b1;
      free_q <= free_d;
      enough_q <= enough_d;
    end
  end

endmodule
