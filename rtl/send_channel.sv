// One NI injection port's sends: the send queue, the DMA burst reads of the oldest send, and
// the port's NI buffer (rtl/endpoint.sv). SystemC twin: systemc/ni/send_channel.hpp (with the
// port's Endpoint and the NI's FlitEncoder).
//
// Per cycle: the oldest send queued at the start of the cycle asks for its next burst
// (BURST_BYTES, less at the end) when the NI buffer has room for the burst's flits, counting
// flits being read (BUFFER_FLITS), and fewer than LINES bursts are read or queued; the send
// leaves the queue with its last burst. A burst's flits join the NI buffer in the cycle its
// read completes (burst_done_i, in fetch order) and leave from the next cycle. Sends pushed
// in a cycle (push lane 0 first) are served from the next cycle; they must fit the room the
// queue had at the cycle's start (a send leaving in the cycle makes room from the next).
//
// A push is offered (push_i, with its send) and committed (commit_i) apart: the control knows
// a cycle's sends early, from the table's head entry, and whether the entry issues late. The
// queue writes the offered sends into its free entries before the commit arrives, which then
// only moves the count.
module send_channel #(
  // Width of node ids and of the Tree ID.
  parameter int unsigned NODE_W = 8,
  // Width of addresses.
  parameter int unsigned ADDR_W = 32,
  // Width of sizes and offsets.
  parameter int unsigned SIZE_W = 32,
  // Sends pushed in one cycle at most.
  parameter int unsigned PUSHES = 4,
  // Sends the queue holds (NiConfig::send_queue).
  parameter int unsigned SEND_QUEUE = 4,
  // Virtual channels of the link.
  parameter int unsigned VCS = 4,
  // Flits of one VC buffer of the router's local input.
  parameter int unsigned VC_DEPTH = 318,
  // Flits of a sub-packet.
  parameter int unsigned SUBPACKET_FLITS = 16,
  // 1: wormhole flow control; 0: virtual cut-through.
  parameter bit WORMHOLE = 1'b0,
  // Bytes of one DMA burst.
  parameter int unsigned BURST_BYTES = 256,
  // Payload bytes of a packet in packet-based flow control.
  parameter int unsigned PACKET_BYTES = 256,
  // Flits the NI buffer holds (NiConfig::buffer_flits).
  parameter int unsigned BUFFER_FLITS = 318,
  // Bursts the NI buffer holds (NiConfig::buffer_lines).
  parameter int unsigned LINES = 20,
  // A send: message, next, eject, dest, tree, op, addr, bytes (MSB first).
  localparam int unsigned JOB_W = 1 + 3 + 3 + 2 * NODE_W + 2 + ADDR_W + SIZE_W,
  localparam int unsigned VC_W = VCS > 1 ? $clog2(VCS) : 1,
  localparam int unsigned BURST_LEN_W = $clog2(BURST_BYTES + 1)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic [NODE_W-1:0]        node_id_i,
  // Sends offered in this cycle, and whether they are queued (pushed: push_i & commit_i).
  input  logic [PUSHES-1:0]        push_i,
  input  logic [PUSHES*JOB_W-1:0]  push_job_i,
  input  logic                     commit_i,
  // Sends queued at the start of this cycle: the control's room check.
  output logic [$clog2(SEND_QUEUE + 1)-1:0] queued_o,
  // The burst read asked for in this cycle.
  output logic                     fetch_o,
  output logic [ADDR_W-1:0]        fetch_addr_o,
  output logic [BURST_LEN_W-1:0]   fetch_len_o,
  // The oldest burst read completes in this cycle, with its data.
  input  logic                     burst_done_i,
  input  logic [BURST_BYTES*8-1:0] burst_data_i,
  // The router's local input: credits in, flits out.
  input  logic                     credit_i,
  input  logic [VC_W-1:0]          credit_vc_i,
  output logic                     tx_o,
  output logic [ni_formats_pkg::FLIT_TYPE_BITS-1:0] tx_type_o,
  output logic [VC_W-1:0]          tx_vc_o,
  output logic [ni_formats_pkg::FLIT_DATA_BITS-1:0] tx_data_o,
  // No send queued and no burst being read, after this cycle (SystemC: the DMA is idle).
  output logic                     dma_idle_o,
  // Nothing left at all: no send queued or being queued, no burst being read, the NI buffer
  // empty.
  output logic                     idle_o,
  output logic                     overflow_o
);

  localparam int unsigned JPTR_W = SEND_QUEUE > 1 ? $clog2(SEND_QUEUE) : 1;
  localparam int unsigned BPTR_W = LINES > 1 ? $clog2(LINES) : 1;
  localparam int unsigned LINES_W = BPTR_W + 1;
  localparam int unsigned FLITS_W = $clog2(BUFFER_FLITS + BURST_BYTES / 16 + 3);
  localparam int unsigned COUNT_W = $clog2(BURST_BYTES / 16 + 2);
  // The burst descriptor's fields (burst_descriptor.sv).
  localparam int unsigned FLIT_W = BURST_BYTES / 16 > 1 ? $clog2(BURST_BYTES / 16) : 1;
  localparam int unsigned PB_W = $clog2(PACKET_BYTES + 1);
  localparam int unsigned PF_W = $clog2(PACKET_BYTES / 16 + 2);
  localparam int unsigned SP_W = SUBPACKET_FLITS > 1 ? $clog2(SUBPACKET_FLITS) : 1;
  localparam int unsigned DESC_W = 1 + ADDR_W + PB_W + PF_W + FLIT_W + 1 + 5 + SP_W;
  // A burst being read: its send but the send's address, and its descriptor.
  localparam int unsigned META_W = JOB_W - ADDR_W + DESC_W;

  logic [JOB_W-1:0]  jobs_q [SEND_QUEUE];
  // Per queued send, from its size alone when it is pushed: its first burst's flits and whether
  // that burst is its last.
  logic [COUNT_W-1:0] jfirst_q [SEND_QUEUE];
  logic              jone_q [SEND_QUEUE];
  // The oldest send's next burst, once one of its bursts was read: its flits and whether it is
  // the send's last, counted in the cycle that read the burst before it.
  logic [COUNT_W-1:0] next_flits_q;
  logic              next_last_q;
  logic [JPTR_W-1:0] jhead_q;
  logic [JPTR_W:0]   jcount_q;
  // The oldest send (entry jhead_q) and its first burst's count and flag, held in registers
  // (valid while a send is queued): the burst decision reads no entry through jhead_q.
  logic [JOB_W-1:0]   hjob_q;
  logic [COUNT_W-1:0] hfirst_q;
  logic               hone_q;
  logic              first_q;         // no burst of the oldest send read yet (fetched_q == 0)
  logic [SIZE_W-1:0] fetched_q;       // bytes of the oldest send read so far
  logic [SIZE_W-1:0] left_q;          // and still to read, once one of its bursts was read
  logic [ADDR_W-1:0] baddr_q;         // and the address of its next burst then
  logic [BPTR_W-1:0] bhead_q, btail_q;  // bursts being read, oldest first (u_bursts)
  logic [LINES_W-1:0] bcount_q;
  logic [FLITS_W-1:0] flits_q;        // flits read or being read and not yet injected
  logic              overflow_q;

  function automatic logic [JPTR_W-1:0] jwrap(input logic [JPTR_W:0] p);
    jwrap = 32'(p) >= SEND_QUEUE ? JPTR_W'(32'(p) - SEND_QUEUE) : p[JPTR_W-1:0];
  endfunction
  function automatic logic [BPTR_W-1:0] bnext(input logic [BPTR_W-1:0] p);
    bnext = 32'(p) == LINES - 1 ? '0 : p + BPTR_W'(1);
  endfunction

  // ---- the burst the oldest send asks for ------------------------------------------------
  logic              j_message;
  logic [ADDR_W-1:0] j_addr, burst_addr;
  logic [SIZE_W-1:0] j_bytes, left, len;
  logic [COUNT_W-1:0] burst_flits;
  logic [LINES_W-1:0] ep_lines;
  logic              fetch, last_burst;

  // The oldest send's fields the reads need (its route and head fields go with its bursts).
  assign j_message = hjob_q[JOB_W-1];
  assign j_addr = hjob_q[SIZE_W +: ADDR_W];
  assign j_bytes = hjob_q[0 +: SIZE_W];
  // No subtraction on the way to the burst decision: the bytes left are registered after the
  // send's first burst.
  assign left = first_q ? j_bytes : left_q;
  assign burst_addr = first_q ? j_addr : baddr_q;
  assign len = left < SIZE_W'(BURST_BYTES) ? left : SIZE_W'(BURST_BYTES);
  // The burst decision reads registers only: the flits and the last-burst flag of the send's
  // first burst were counted when it was pushed, those of a later burst when the burst before
  // it was asked for.
  assign last_burst = first_q ? hone_q : next_last_q;
  assign burst_flits = first_q ? hfirst_q : next_flits_q;

  // The burst after this one, which matters only when this one is not the send's last (so it
  // is a full burst): it starts BURST_BYTES later (no adder of two operands: offset and address
  // step by a constant), not at the send's start, and holds the bytes left after this burst, up
  // to a burst. Only left's low bits reach its flit count.
  localparam int unsigned LOW_W = $clog2(2 * BURST_BYTES + 1);
  logic [SIZE_W-1:0] after_offset, after_left, after_len;
  logic [LOW_W-1:0]  left_past;  // left less a burst, where left is under two bursts
  logic [COUNT_W-1:0] after_flits;
  assign after_offset = fetched_q + SIZE_W'(BURST_BYTES);
  assign after_left = left - SIZE_W'(BURST_BYTES);
  assign left_past = LOW_W'(left) - LOW_W'(BURST_BYTES);
  assign after_len = left >= SIZE_W'(2 * BURST_BYTES) ? SIZE_W'(BURST_BYTES) : SIZE_W'(left_past);
  flit_count #(
    .SIZE_W(SIZE_W), .BURST_BYTES(BURST_BYTES), .PACKET_BYTES(PACKET_BYTES)
  ) u_count (
    .message_i(j_message), .start_i(1'b0), .offset_i(after_offset),
    .len_i(after_len), .count_o(after_flits)
  );

  // Each push lane's first burst (offset 0, its size up to a burst).
  logic [PUSHES*COUNT_W-1:0] push_first;
  logic [PUSHES-1:0]         push_one;
  for (genvar i = 0; i < PUSHES; i++) begin : g_push_count
    logic              p_message;
    logic [SIZE_W-1:0] p_bytes, p_len;
    assign p_message = push_job_i[i*JOB_W + JOB_W - 1];
    assign p_bytes = push_job_i[i*JOB_W +: SIZE_W];
    assign p_len = p_bytes < SIZE_W'(BURST_BYTES) ? p_bytes : SIZE_W'(BURST_BYTES);
    assign push_one[i] = p_bytes <= SIZE_W'(BURST_BYTES);
    flit_count #(
      .SIZE_W(SIZE_W), .BURST_BYTES(BURST_BYTES), .PACKET_BYTES(PACKET_BYTES)
    ) u_first (
      .message_i(p_message), .start_i(1'b1), .offset_i('0), .len_i(p_len),
      .count_o(push_first[i*COUNT_W +: COUNT_W])
    );
  end

  assign fetch = jcount_q != '0 &&
                 32'(flits_q) + 32'(burst_flits) <= BUFFER_FLITS &&
                 32'(bcount_q) + 32'(ep_lines) < LINES;
  assign fetch_o = fetch;
  assign fetch_addr_o = burst_addr;
  assign fetch_len_o = BURST_LEN_W'(len);

  // ---- the send queue --------------------------------------------------------------------
  // Where the offered sends land, lane order from the tail, and the count after this cycle
  // with and without them: commit_i picks. Each free entry's distance from the tail is a
  // one-hot from the registers, each lane's rank among the offered sends a one-hot shifted at
  // each offer before it, and an entry takes the lane whose rank is its distance: the offers
  // reach the entries through one AND-OR. A free entry (past the queued sends at the cycle's
  // start) takes its offer whether or not it is committed: uncommitted, it stays past the
  // tail and unread, so the commit, which comes late, reaches no entry. (The control commits
  // only offers that fit the free entries: the room check.)
  logic [JPTR_W:0]               offered, jcount_kept, jcount_pushed;
  logic                          pop;
  logic [SEND_QUEUE-1:0]         jwrite;  // entries the offered sends write
  logic [SEND_QUEUE*JOB_W-1:0]   jwrite_job;
  logic [SEND_QUEUE*COUNT_W-1:0] jwrite_first;
  logic [SEND_QUEUE-1:0]         jwrite_one;
  logic [PUSHES-1:0]             from_tail [SEND_QUEUE];  // one-hot: free entry e is tail + n
  always_comb begin
    logic [JPTR_W-1:0] tail;
    tail = jwrap((JPTR_W + 1)'(jhead_q) + jcount_q);
    for (int e = 0; e < SEND_QUEUE; e++) begin
      for (int n = 0; n < PUSHES; n++) begin
        from_tail[e][n] = 32'(n) + 32'(jcount_q) < SEND_QUEUE &&
                          jwrap((JPTR_W + 1)'(tail) + (JPTR_W + 1)'(n)) == JPTR_W'(e);
      end
    end
  end
  always_comb begin
    logic [PUSHES-1:0] rank;  // one-hot: offers in the lanes before i
    rank = PUSHES'(1);
    offered = '0;
    jwrite = '0;
    jwrite_job = '0;
    jwrite_first = '0;
    jwrite_one = '0;
    for (int i = 0; i < PUSHES; i++) begin
      for (int e = 0; e < SEND_QUEUE; e++) begin
        if (push_i[i] && (rank & from_tail[e]) != '0) begin
          jwrite[e] = 1'b1;
          jwrite_job[JOB_W*e +: JOB_W] |= push_job_i[i*JOB_W +: JOB_W];
          jwrite_first[COUNT_W*e +: COUNT_W] |= push_first[i*COUNT_W +: COUNT_W];
          jwrite_one[e] |= push_one[i];
        end
      end
      if (push_i[i]) rank = rank << 1;
      offered = offered + (JPTR_W + 1)'(push_i[i]);
    end
  end
  assign pop = fetch && last_burst;
  assign jcount_kept = jcount_q - (JPTR_W + 1)'(pop);
  assign jcount_pushed = jcount_kept + offered;
  assign queued_o = $bits(queued_o)'(jcount_q);

  // ---- the NI buffer ---------------------------------------------------------------------
  // The burst's descriptor, made as the burst is asked for; the NI buffer stores it with the
  // burst's data, and the flits are made from it.
  logic [DESC_W-1:0] desc;
  logic              d_has_head, d_ends;
  logic [ADDR_W-1:0] d_head_addr;
  logic [PB_W-1:0]   d_packet_bytes;
  logic [PF_W-1:0]   d_packet_flits;
  logic [FLIT_W-1:0] d_last;
  logic [4:0]        d_last_bytes;
  logic [SP_W-1:0]   d_phase;
  burst_descriptor #(
    .ADDR_W(ADDR_W), .SIZE_W(SIZE_W), .BURST_BYTES(BURST_BYTES), .PACKET_BYTES(PACKET_BYTES),
    .SUBPACKET_FLITS(SUBPACKET_FLITS)
  ) u_descriptor (
    .message_i(j_message), .addr_i(burst_addr), .left_i(left), .offset_i(fetched_q), .len_i(len),
    .has_head_o(d_has_head), .head_addr_o(d_head_addr), .packet_bytes_o(d_packet_bytes),
    .packet_flits_o(d_packet_flits), .last_o(d_last), .ends_o(d_ends),
    .last_bytes_o(d_last_bytes), .phase_o(d_phase)
  );
  assign desc = {d_has_head, d_head_addr, d_packet_bytes, d_packet_flits, d_last, d_ends,
                 d_last_bytes, d_phase};

  logic              b_message;
  logic [2:0]        b_next, b_eject;
  logic [NODE_W-1:0] b_dest, b_tree;
  logic [1:0]        b_op;
  logic [SIZE_W-1:0] b_bytes;
  logic              b_has_head, b_ends;
  logic [ADDR_W-1:0] b_head_addr;
  logic [PB_W-1:0]   b_packet_bytes;
  logic [PF_W-1:0]   b_packet_flits;
  logic [FLIT_W-1:0] b_last;
  logic [4:0]        b_last_bytes;
  logic [SP_W-1:0]   b_phase;
  logic              ep_empty, ep_overflow;

  // The bursts being read: each one's send and descriptor, written when it is asked for and read
  // when its data arrive (one registered write port, one registered read port: a synchronous
  // macro). The oldest is read a cycle ahead: when the oldest completes, the next is read
  // (at an address from the register, the completion only enabling the read; the read data
  // hold otherwise), or taken as it is written when it is written in or after that cycle
  // (burst_held_q, chosen until the next completion).
  logic [META_W-1:0] burst_new, burst_rd, burst_held_q;
  logic [BPTR_W-1:0] bhead_d;
  logic              burst_held, burst_held_sel_q;
  assign burst_new = {hjob_q[JOB_W-1 -: JOB_W - ADDR_W - SIZE_W], j_bytes, desc};
  assign bhead_d = burst_done_i ? bnext(bhead_q) : bhead_q;
  assign burst_held = fetch && btail_q == bhead_d;

  storage_array #(
    .WIDTH(META_W), .DEPTH(LINES), .WRITES(1), .READS(1), .SYNC_READ(1'b1), .WRITE_REG(1'b1)
  ) u_bursts (
    .clk_i, .we_i(fetch), .waddr_i(btail_q), .wmask_i(1'b1), .wdata_i(burst_new),
    .raddr_i(bnext(bhead_q)), .re_i(burst_done_i), .rdata_o(burst_rd)
  );
  always_ff @(posedge clk_i) begin
    if (!rst_ni) burst_held_sel_q <= 1'b0;
    else if (burst_held || burst_done_i) burst_held_sel_q <= burst_held;
    if (burst_held) burst_held_q <= burst_new;
  end
  assign {b_message, b_next, b_eject, b_dest, b_tree, b_op, b_bytes, b_has_head, b_head_addr,
          b_packet_bytes, b_packet_flits, b_last, b_ends, b_last_bytes, b_phase} =
      burst_held_sel_q ? burst_held_q : burst_rd;

  endpoint #(
    .NODE_W(NODE_W), .ADDR_W(ADDR_W), .SIZE_W(SIZE_W), .VCS(VCS), .VC_DEPTH(VC_DEPTH),
    .SUBPACKET_FLITS(SUBPACKET_FLITS), .WORMHOLE(WORMHOLE), .BURST_BYTES(BURST_BYTES),
    .PACKET_BYTES(PACKET_BYTES), .LINES(LINES)
  ) u_endpoint (
    .clk_i, .rst_ni, .node_id_i,
    .line_i(burst_done_i), .message_i(b_message), .next_i(b_next), .eject_i(b_eject),
    .dest_i(b_dest), .tree_i(b_tree), .op_i(b_op), .bytes_i(b_bytes),
    .has_head_i(b_has_head), .head_addr_i(b_head_addr), .packet_bytes_i(b_packet_bytes),
    .packet_flits_i(b_packet_flits), .last_i(b_last), .ends_i(b_ends),
    .last_bytes_i(b_last_bytes), .phase_i(b_phase), .data_i(burst_data_i),
    .credit_i, .credit_vc_i, .tx_o, .tx_type_o, .tx_vc_o, .tx_data_o,
    .empty_o(ep_empty), .lines_o(ep_lines), .overflow_o(ep_overflow)
  );

  assign dma_idle_o = jcount_kept == '0 &&
                      bcount_q + LINES_W'(fetch) - LINES_W'(burst_done_i) == '0;
  assign idle_o = jcount_q == '0 && !(commit_i && push_i != '0) && bcount_q == '0 && ep_empty;
  assign overflow_o = overflow_q || ep_overflow;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      jhead_q <= '0;
      jcount_q <= '0;
      fetched_q <= '0;
      first_q <= 1'b1;
      bhead_q <= '0;
      btail_q <= '0;
      bcount_q <= '0;
      flits_q <= '0;
      overflow_q <= 1'b0;
    end else begin
      if ((commit_i && 32'(jcount_q) + 32'(offered) > SEND_QUEUE) ||
          (burst_done_i && bcount_q == '0)) begin
        overflow_q <= 1'b1;
      end
      jcount_q <= commit_i ? jcount_pushed : jcount_kept;
      if (pop) jhead_q <= jwrap((JPTR_W + 1)'(jhead_q) + (JPTR_W + 1)'(1));
      if (fetch) begin
        fetched_q <= last_burst ? '0 : after_offset;
        first_q <= last_burst;
        left_q <= after_left;
        next_flits_q <= after_flits;
        next_last_q <= left <= SIZE_W'(2 * BURST_BYTES);
        baddr_q <= burst_addr + ADDR_W'(BURST_BYTES);
        btail_q <= bnext(btail_q);
      end
      if (burst_done_i) bhead_q <= bnext(bhead_q);
      bcount_q <= bcount_q + LINES_W'(fetch) - LINES_W'(burst_done_i);
      flits_q <= flits_q + (fetch ? FLITS_W'(burst_flits) : '0) - FLITS_W'(tx_o);
    end
  end

  // The oldest send after this cycle: the entry after the head when the head leaves and more
  // were queued, the head itself when it stays, else (the queue empty or emptied) the first
  // offer, which the free entry at the tail takes (unused unless committed).
  logic [JOB_W-1:0]   offer_job;
  logic [COUNT_W-1:0] offer_first;
  logic               offer_one;
  always_comb begin
    offer_job = '0;
    offer_first = '0;
    offer_one = 1'b0;
    for (int i = 0; i < PUSHES; i++) begin
      if (push_i[i] && (push_i & PUSHES'((1 << i) - 1)) == '0) begin
        offer_job |= push_job_i[i*JOB_W +: JOB_W];
        offer_first |= push_first[i*COUNT_W +: COUNT_W];
        offer_one |= push_one[i];
      end
    end
  end
  always_ff @(posedge clk_i) begin
    logic [JPTR_W-1:0] jnext;
    jnext = jwrap((JPTR_W + 1)'(jhead_q) + (JPTR_W + 1)'(1));
    if (pop && 32'(jcount_q) >= 2) begin
      {hjob_q, hfirst_q, hone_q} <= {jobs_q[jnext], jfirst_q[jnext], jone_q[jnext]};
    end else if (pop || jcount_q == '0) begin
      {hjob_q, hfirst_q, hone_q} <= {offer_job, offer_first, offer_one};
    end
  end

  always_ff @(posedge clk_i) begin
    for (int e = 0; e < SEND_QUEUE; e++) begin
      if (jwrite[e]) begin
        jobs_q[e] <= jwrite_job[JOB_W*e +: JOB_W];
        jfirst_q[e] <= jwrite_first[COUNT_W*e +: COUNT_W];
        jone_q[e] <= jwrite_one[e];
      end
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && jcount_q != '0 && {hjob_q, hfirst_q, hone_q} !=
        {jobs_q[jhead_q], jfirst_q[jhead_q], jone_q[jhead_q]}) begin
      $error("send_channel: the oldest send's register is not its entry");
    end
    if (rst_ni && first_q != (fetched_q == '0)) begin
      $error("send_channel: first_q does not match the bytes read");
    end
  end
`endif

endmodule
