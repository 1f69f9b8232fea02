// The MultiTree network interface (paper §IV-A Fig. 6, §IV-B): executes one node's schedule
// table, moving and summing the node's gradient buffer over K router ports. SystemC twin:
// systemc/ni/network_interface.hpp, whose timing it has cycle for cycle at this boundary
// (tb/network_interface_test.cpp checks it every cycle).
//
// Per cycle, in the SystemC NI's order (systemc/ni/README.md):
//   ejection   the flits that arrived in the previous cycle are decoded (④), port 0 first; a
//              finished block takes a block slot: a Gather block asks for its memory write,
//              a Reduce block joins the interlock's queue (interlock.sv), which takes one a
//              cycle: it asks for its local read, or waits behind the Reduce block of its
//              256-byte line being reduced (read-after-write interlock)
//   completions the memory's completion of the cycle: a burst's flits join its port's NI
//              buffer, a Reduce read goes to the reduction unit, a write completes its block,
//              and a message whose blocks are all in memory enters the arrival register,
//              clearing its dependency (⑤, ⑥) from the next cycle on; a Reduce whose sum is
//              complete asks for its write-back
//   interlock  the next waiting Reduce block of the line just written back asks for its
//              read
//   DMA        each port's oldest send asks for its next burst (send_channel.sv)
//   control    the head entry issues (①, ②) or the timestep advances (③)
// Memory accesses asked for in one cycle go to the memory in that order, one per cycle
// (dma_requester.sv).
module network_interface #(
  // Width of node ids, flow ids and the Tree ID; nil is all ones.
  parameter int unsigned NODE_W = 8,
  // Children slots per entry = NI ports (paper §V: the NI matches the router's bandwidth).
  parameter int unsigned K = 4,
  // Width of a step number.
  parameter int unsigned STEP_W = 8,
  // Width of addresses (table entries, DMA).
  parameter int unsigned ADDR_W = 32,
  // Width of sizes.
  parameter int unsigned SIZE_W = 32,
  // Table entries per bank.
  parameter int unsigned DEPTH = 256,
  // Flows the dependency scoreboard has rows for.
  parameter int unsigned FLOWS = 64,
  // Senders a scoreboard row holds (NiConfig::arrival_slots).
  parameter int unsigned SLOTS = 4,
  // Virtual channels per port.
  parameter int unsigned VCS = 4,
  // Flits of one VC buffer of the router's local input.
  parameter int unsigned VC_DEPTH = 318,
  // Flits of a sub-packet.
  parameter int unsigned SUBPACKET_FLITS = 16,
  // 1: wormhole flow control; 0: virtual cut-through.
  parameter bit WORMHOLE = 1'b0,
  // Bytes of one DMA burst of a send.
  parameter int unsigned BURST_BYTES = 256,
  // Payload bytes of a packet in packet-based flow control (a multiple of BURST_BYTES).
  parameter int unsigned PACKET_BYTES = 256,
  // Flits of one port's NI buffer (NiConfig::buffer_flits).
  parameter int unsigned BUFFER_FLITS = 318,
  // Bursts of one port's NI buffer (NiConfig::buffer_lines).
  parameter int unsigned LINES = 20,
  // Sends queued per port (NiConfig::send_queue).
  parameter int unsigned SEND_QUEUE = 4,
  // Received blocks one port holds at once, from their first payload flit to the completion
  // of their write, a power of two of at least 4 (NiConfig::block_slots).
  parameter int unsigned BLOCKS = 64,
  // Reduce blocks between their read and their write-back, a power of two
  // (NiConfig::reducing_blocks).
  parameter int unsigned REDUCING = 64,
  // Memory accesses queued or outstanding (NiConfig::memory_requests).
  parameter int unsigned REQUESTS = 256,
  // Packet-mode messages open at once per ejection port.
  parameter int unsigned PKT_MSGS = 4,
  // Messages open at once, from their first block's first payload flit until they are in
  // memory, a power of two (NiConfig::open_messages).
  parameter int unsigned MESSAGES = 32,
  // Reduction lanes (elements added per cycle).
  parameter int unsigned LANES = 16,
  // Reduction pipeline depth in cycles.
  parameter int unsigned LATENCY = 4,
  localparam int unsigned VC_W = VCS > 1 ? $clog2(VCS) : 1,
  // Payload bytes of the largest block, a line (received blocks are cut at lines): the memory
  // data bus.
  localparam int unsigned BLOCK_BYTES = ni_formats_pkg::FLIT_LINE_BYTES,
  localparam int unsigned LEN_W = $clog2(BLOCK_BYTES + 1),
  localparam int unsigned IDX_W = $clog2(DEPTH)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // Straps: this node, the network's node count, the node across each direction port
  // (y-, y+, x-, x+; nil if none), the node's place in its W x H grid, and the flow control.
  // Registered: set them at least a cycle before the table is loaded, and hold them.
  input  logic [NODE_W-1:0]          node_id_i,
  input  logic [NODE_W-1:0]          nodes_i,
  input  logic [4*NODE_W-1:0]        neighbour_i,
  input  logic [NODE_W-1:0]          grid_x_i,
  input  logic [NODE_W-1:0]          grid_y_i,
  input  logic [NODE_W-1:0]          grid_width_i,
  input  logic [NODE_W-1:0]          grid_height_i,
  input  logic                       grid_wraps_i,
  input  logic                       packet_mode_i,
  // Table-write port (rtl/README.md: register map and bus).
  input  logic                       cfg_valid_i,
  output logic                       cfg_ready_o,
  input  logic                       cfg_write_i,
  input  logic [31:0]                cfg_addr_i,
  input  logic [31:0]                cfg_wdata_i,
  output logic                       cfg_rvalid_o,
  output logic                       cfg_error_o,
  output logic [31:0]                cfg_rdata_o,
  // The host starts the all-reduce; the NI runs from the next cycle.
  input  logic                       start_i,
  // Ejection: a flit usable in this cycle per port, and its credit back to the router.
  input  logic [K-1:0]               rx_valid_i,
  input  logic [K*ni_formats_pkg::FLIT_TYPE_BITS-1:0] rx_type_i,
  input  logic [K*VC_W-1:0]          rx_vc_i,
  input  logic [K*ni_formats_pkg::FLIT_DATA_BITS-1:0] rx_data_i,
  output logic [K-1:0]               rx_credit_o,
  output logic [K*VC_W-1:0]          rx_credit_vc_o,
  // Injection: credits of the router's local inputs, and the flits injected.
  input  logic [K-1:0]               tx_credit_i,
  input  logic [K*VC_W-1:0]          tx_credit_vc_i,
  output logic [K-1:0]               tx_valid_o,
  output logic [K*ni_formats_pkg::FLIT_TYPE_BITS-1:0] tx_type_o,
  output logic [K*VC_W-1:0]          tx_vc_o,
  output logic [K*ni_formats_pkg::FLIT_DATA_BITS-1:0] tx_data_o,
  // Accelerator memory: requests (valid/ready), and completions in request order (read
  // data, or a write's completion). Byte b of the data at bits [8b +: 8].
  output logic                       mem_req_valid_o,
  input  logic                       mem_req_ready_i,
  output logic                       mem_req_write_o,
  output logic [ADDR_W-1:0]          mem_req_addr_o,
  output logic [LEN_W-1:0]           mem_req_len_o,
  output logic [BLOCK_BYTES*8-1:0]   mem_req_wdata_o,
  input  logic                       mem_rsp_valid_i,
  input  logic [BLOCK_BYTES*8-1:0]   mem_rsp_rdata_i,
  // Status: the table (TABLE_STATUS_*), the timestep and head entry, done (table executed,
  // every send injected, every block received in memory), an error (sticky until start_i:
  // a queue bound exceeded, a flit or an entry the NI cannot handle), and an interrupt
  // pulse when done or error rises.
  output logic [1:0]                 table_status_o,
  output logic [ni_formats_pkg::TABLE_ERROR_BITS-1:0] table_error_cause_o,
  output logic [STEP_W-1:0]          step_o,
  output logic                       step_advance_o,
  output logic [IDX_W:0]             head_o,
  output logic [31:0]                lockstep_o,
  // What the head entry waits for (valid while it is for this step and waits).
  output logic                       waiting_o,
  output logic [1:0]                 wait_op_o,
  output logic [NODE_W-1:0]          wait_node_o,
  output logic                       done_o,
  output logic                       error_o,
  output logic [ni_formats_pkg::RUN_ERROR_BITS-1:0] error_cause_o,
  output logic                       irq_o
);

  `include "ni_formats.svh"

  if (BURST_BYTES > BLOCK_BYTES) begin : g_bad_burst
    $error("network_interface: BURST_BYTES must not exceed a line, the memory data bus");
  end

  // Straps, registered: they hold still through a run (set before the table is loaded), and
  // no logic of the NI follows a strap pin within a cycle.
  logic [NODE_W-1:0]   node_id_q, nodes_q, grid_x_q, grid_y_q, grid_width_q, grid_height_q;
  logic [4*NODE_W-1:0] neighbour_q;
  logic                grid_wraps_q, packet_mode_q;
  always_ff @(posedge clk_i) begin
    node_id_q <= node_id_i;
    nodes_q <= nodes_i;
    neighbour_q <= neighbour_i;
    grid_x_q <= grid_x_i;
    grid_y_q <= grid_y_i;
    grid_width_q <= grid_width_i;
    grid_height_q <= grid_height_i;
    grid_wraps_q <= grid_wraps_i;
    packet_mode_q <= packet_mode_i;
  end

  localparam int unsigned SLOT_W = $clog2(K * BLOCKS);  // the port's number, its place
  localparam int unsigned PORT_W = K > 1 ? $clog2(K) : 1;
  localparam int unsigned MSG_W = MESSAGES > 1 ? $clog2(MESSAGES) : 1;
  localparam int unsigned KEY_W = 2 + 2 * NODE_W;  // op, flow, sender
  // What travels with a received block to its write's completion: its message's record
  // (block_slots.sv), then its slot.
  localparam int unsigned META_W = MSG_W;
  localparam int unsigned REF_W = META_W + SLOT_W;
  localparam int unsigned TAG_W = REF_W > PORT_W ? REF_W : PORT_W;
  localparam int unsigned DATA_W = BLOCK_BYTES * 8;
  localparam int unsigned FLIT_LANE_W = $clog2(BLOCK_BYTES / 16);  // a flit's lane in a block
  localparam int unsigned BEATS = (BLOCK_BYTES / 4 + LANES - 1) / LANES;
  localparam int unsigned BEAT_W = BEATS > 1 ? $clog2(BEATS) + 1 : 1;
  localparam int unsigned PAD_W = BEATS * LANES * 32;  // a block in whole beats
  localparam int unsigned R_W = REDUCING > 1 ? $clog2(REDUCING) : 1;  // a row of acc and sums
  localparam int unsigned JOB_W = 1 + 3 + 3 + 2 * NODE_W + 2 + ADDR_W + SIZE_W;
  localparam int unsigned BURST_LEN_W = $clog2(BURST_BYTES + 1);
  localparam int unsigned COUNT_W = 32;
  // Push lanes of the memory queue, in the SystemC NI's call order.
  localparam int unsigned LaneEject = 0;       // Gather writes, port order
  localparam int unsigned LaneIssue = K;       // the Reduce block the interlock takes
  localparam int unsigned LaneWriteBack = K + 1;
  localparam int unsigned LaneRelease = K + 2;
  localparam int unsigned LaneFetch = K + 3;
  localparam int unsigned PUSHES = LaneFetch + K;
  // Kinds of memory access.
  localparam logic [1:0] KindBurst = 2'd0;
  localparam logic [1:0] KindReduceRead = 2'd1;
  localparam logic [1:0] KindGatherWrite = 2'd2;
  localparam logic [1:0] KindWriteBack = 2'd3;
  // error_cause_o: one bit per cause, RUN_ERROR_* (format/ni_formats.json's errors).
  logic started_q;
  logic [RUN_ERROR_BITS-1:0] cause_q, cause_d;
  logic done_q;

  // =====================================================================================
  // Ejection: one decoder per port (its input register takes the port's flit at the edge).
  // =====================================================================================
  assign rx_credit_o = rx_valid_i;  // the NI sinks every flit at once (systemc/endpoint)
  assign rx_credit_vc_o = rx_vc_i;

  logic [K-1:0]          blk, blk_last, ej_busy, ej_idle, ej_error;
  logic [K*FLIT_DATA_BITS-1:0] ej_data;
  logic [K*2-1:0]        blk_op;
  logic [K*NODE_W-1:0]   blk_flow, blk_sender;
  logic [K*ADDR_W-1:0]   blk_addr;
  logic [K*LEN_W-1:0]    blk_len;
  logic [K*SLOT_W-1:0]   blk_slot;
  // Block slots taken by blocks' first payload flits (with a record for a message's first
  // block, else the message's record), and the payload flits written into them.
  logic [K-1:0]          sl_want, sl_first, wr;
  // A block that finds no free slot stops the run (full_o), so a decoder takes the slot it is
  // given from the run's start on, and its writes need not wait for the free list's verdict.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [K-1:0]          sl_take;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [K*MSG_W-1:0]    msg_rec;
  logic [K*SLOT_W-1:0]   sl_slot;
  /* verilator lint_off UNUSEDSIGNAL */  // a port writes its own bank: its slots' places
  logic [K*SLOT_W-1:0]   wr_slot;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [K*FLIT_LANE_W-1:0] wr_lane;

  for (genvar p = 0; p < K; p++) begin : g_eject
    ejection_decoder #(
      .NODE_W(NODE_W), .ADDR_W(ADDR_W), .SIZE_W(SIZE_W), .VCS(VCS),
      .PKT_MSGS(PKT_MSGS), .MSG_W(MSG_W), .SLOT_W(SLOT_W)
    ) u_decoder (
      .clk_i, .rst_ni, .start_i, .neighbour_i(neighbour_q),
      .flit_i(rx_valid_i[p]), .type_i(rx_type_i[FLIT_TYPE_BITS*p +: FLIT_TYPE_BITS]),
      .vc_i(rx_vc_i[VC_W*p +: VC_W]),
      .data_i(rx_data_i[FLIT_DATA_BITS*p +: FLIT_DATA_BITS]),
      .block_o(blk[p]), .block_op_o(blk_op[2*p +: 2]), .block_flow_o(blk_flow[NODE_W*p +: NODE_W]),
      .block_sender_o(blk_sender[NODE_W*p +: NODE_W]), .block_addr_o(blk_addr[ADDR_W*p +: ADDR_W]),
      .block_len_o(blk_len[LEN_W*p +: LEN_W]), .block_slot_o(blk_slot[SLOT_W*p +: SLOT_W]),
      .block_done_o(blk_last[p]),
      .slot_want_o(sl_want[p]), .slot_ok_i(started_q), .slot_i(sl_slot[SLOT_W*p +: SLOT_W]),
      .rec_want_o(sl_first[p]), .rec_i(nb_rec[MSG_W*p +: MSG_W]),
      .msg_rec_o(msg_rec[MSG_W*p +: MSG_W]),
      .wr_o(wr[p]), .wr_slot_o(wr_slot[SLOT_W*p +: SLOT_W]),
      .wr_lane_o(wr_lane[FLIT_LANE_W*p +: FLIT_LANE_W]),
      .wr_data_o(ej_data[FLIT_DATA_BITS*p +: FLIT_DATA_BITS]), .busy_o(ej_busy[p]),
      .idle_o(ej_idle[p]), .error_o(ej_error[p])
    );
  end

  // =====================================================================================
  // Block slots (block_slots.sv): a received block from its first payload flit until its
  // memory write completes. Its data are in a storage array at its slot (below), read for its
  // write to memory and for the reduction. A Reduce block's local partial sum, once read, and
  // its sum are in arrays of REDUCING rows at its place in the order of the reads
  // (reduction_sequencer.sv), acc read for the reduction and sums for the write-back. Its
  // address and length travel with its memory accesses and through the reduction.
  // =====================================================================================
  logic [DATA_W-1:0]  acc_rd, sums_wb;

  // This cycle's new blocks, port order: slot, and whether they are Reduce blocks (for the
  // interlock's queue).
  logic [K-1:0]        nb, nb_reduce;
  logic [K*MSG_W-1:0]  nb_rec;
  logic [K*META_W-1:0] nb_meta;   // the record of each
  logic [K*KEY_W-1:0]  nb_keys;
  logic                no_slot, no_record, empty_block, arrive, slots_empty;
  logic [KEY_W-1:0]    arrive_key;
  // The arrival register: a message wholly in memory in this cycle is recorded by the
  // dependency scoreboard in the next (systemc/ni/README.md, "Arrivals").
  logic                arrive_q;
  logic [KEY_W-1:0]    arrive_key_q;

  always_comb begin
    empty_block = 1'b0;
    for (int p = 0; p < K; p++) begin
      nb[p] = blk[p] && started_q;
      // No sender makes an empty block, or one of a length not in whole elements: such a
      // block stops the run in its cycle (what it takes in that cycle is never used), so the
      // check stays off the path from the decode to the slots, records and interlock.
      if (nb[p] && (blk_len[LEN_W*p +: LEN_W] == '0 || blk_len[LEN_W*p +: 2] != 2'b00)) begin
        empty_block = 1'b1;
      end
      nb_keys[KEY_W*p +: KEY_W] =
          {blk_sender[NODE_W*p +: NODE_W], blk_flow[NODE_W*p +: NODE_W], blk_op[2*p +: 2]};
      nb_meta[META_W*p +: META_W] = nb_rec[MSG_W*p +: MSG_W];
      nb_reduce[p] = nb[p] && 32'(blk_op[2*p +: 2]) == OP_REDUCE;
    end
  end

  // =====================================================================================
  // Memory completions (dma_requester.sv retires them in order).
  // =====================================================================================
  logic              done_valid;
  logic [1:0]        done_kind;
  logic [TAG_W-1:0]  done_tag;
  logic [ADDR_W-1:0] done_addr;
  logic [LEN_W-1:0]  done_len;
  logic [SLOT_W-1:0] done_slot;
  logic [META_W-1:0] done_meta;
  logic              write_done, read_done;

  assign done_slot = done_tag[SLOT_W-1:0];
  assign done_meta = done_tag[SLOT_W +: META_W];
  assign write_done = done_valid && (done_kind == KindGatherWrite || done_kind == KindWriteBack);
  assign read_done = done_valid && done_kind == KindReduceRead;

  block_slots #(.K(K), .BLOCKS(BLOCKS), .MESSAGES(MESSAGES), .KEY_W(KEY_W)) u_slots (
    .clk_i, .rst_ni, .want_i(sl_want & {K{started_q}}), .take_o(sl_take), .slot_o(sl_slot),
    .full_o(no_slot), .first_i(sl_first), .key_i(nb_keys), .msg_rec_i(msg_rec), .rec_o(nb_rec),
    .no_record_o(no_record), .last_i(nb & blk_last), .done_i(write_done), .done_slot_i(done_slot),
    .done_rec_i(done_meta), .arrive_o(arrive), .arrive_key_o(arrive_key),
    .empty_o(slots_empty)
  );

  always_ff @(posedge clk_i) begin
    if (!rst_ni) arrive_q <= 1'b0;
    else arrive_q <= arrive;
  end
  always_ff @(posedge clk_i) begin
    if (arrive) arrive_key_q <= arrive_key;
  end

  // ---- reduction (reduction_sequencer.sv): Reduce blocks whose read is in, one at a time ----
  logic                beat_valid, bypass, red_out, wb_q;
  logic [SLOT_W-1:0]   beat_slot, wb_slot;
  logic [R_W-1:0]      beat_row, sum_row;
  logic [BEAT_W-1:0]   beat_idx, sum_idx;
  logic [LANES-1:0]    beat_mask, red_mask;
  logic [LANES*32-1:0] beat_acc, beat_src, red_sum;
  logic [PAD_W-1:0]    beat_acc_block;
  logic [ADDR_W-1:0]   wb_addr;
  logic [LEN_W-1:0]    wb_len;
  logic [META_W-1:0]   wb_meta;

  reduction_sequencer #(
    .SLOT_W(SLOT_W), .ADDR_W(ADDR_W), .LEN_W(LEN_W), .META_W(META_W), .REDUCING(REDUCING),
    .LANES(LANES), .LATENCY(LATENCY)
  ) u_sequencer (
    .clk_i, .rst_ni, .read_i(read_done), .read_slot_i(done_slot), .read_addr_i(done_addr),
    .read_len_i(done_len), .read_meta_i(done_meta), .beat_o(beat_valid), .beat_slot_o(beat_slot), .beat_idx_o(beat_idx),
    .beat_mask_o(beat_mask), .beat_bypass_o(bypass), .beat_row_o(beat_row), .unit_out_i(red_out),
    .sum_idx_o(sum_idx), .sum_row_o(sum_row), .wb_o(wb_q), .wb_slot_o(wb_slot),
    .wb_addr_o(wb_addr), .wb_len_o(wb_len), .wb_meta_o(wb_meta)
  );

  // The beat's operands, from the block slot's storage (or the read completing now: only a
  // block's first beat takes its partial sum from the memory's response, so the response's
  // first beat, and the beat is chosen before that choice, on LANES words).
  always_comb begin
    beat_acc_block = PAD_W'(acc_rd);
    beat_acc = bypass ? (LANES * 32)'(PAD_W'(mem_rsp_rdata_i))
                      : beat_acc_block[32'(beat_idx) * LANES * 32 +: LANES * 32];
  end

  reduction_unit #(.LANES(LANES), .LATENCY(LATENCY)) u_reduction (
    .clk_i, .rst_ni, .valid_i(beat_valid), .dtype_i(table_dtype), .mask_i(beat_mask),
    .acc_i(beat_acc), .src_i(beat_src), .valid_o(red_out), .mask_o(red_mask), .sum_o(red_sum)
  );

  // =====================================================================================
  // The interlock (interlock.sv): Reduce blocks queue and it takes one a cycle, which reads
  // now unless a block of its line is being reduced; the next waiting block of the line
  // written back reads after the cycle's write-back.
  // =====================================================================================
  logic              issued, released, reducing_full;
  logic [SLOT_W-1:0] issue_slot, release_slot;
  logic [META_W-1:0] issue_meta, release_meta;
  logic [ADDR_W-1:0] issue_addr, release_addr;
  logic [LEN_W-1:0]  issue_len, release_len;

  interlock #(
    .K(K), .ADDR_W(ADDR_W), .LEN_W(LEN_W), .SLOT_W(SLOT_W), .META_W(META_W), .QUEUE(1 << SLOT_W),
    .REDUCING(REDUCING)
  ) u_interlock (
    .clk_i, .rst_ni, .new_i(nb_reduce), .new_slot_i(blk_slot), .new_meta_i(nb_meta),
    .new_addr_i(blk_addr), .new_len_i(blk_len), .issue_o(issued), .issue_slot_o(issue_slot),
    .issue_meta_o(issue_meta), .issue_addr_o(issue_addr), .issue_len_o(issue_len), .wb_i(wb_q),
    .wb_slot_i(wb_slot), .release_o(released), .release_slot_o(release_slot),
    .release_meta_o(release_meta), .release_addr_o(release_addr), .release_len_o(release_len),
    .reducing_full_o(reducing_full)
  );

  // =====================================================================================
  // Control: the table's head entry.
  // =====================================================================================
  logic [IDX_W:0]       head_q, head_next_q;  // the head entry and head_q + 1
  logic [1:0]           e_op, nx_op;
  logic [NODE_W-1:0]    e_flow, e_parent, nx_flow, nx_parent;
  logic [K*NODE_W-1:0]  e_children, nx_children;
  logic [STEP_W-1:0]    e_step, step;
  logic [ADDR_W-1:0]    e_addr;
  logic [SIZE_W-1:0]    e_size;
  localparam int unsigned ROUTE_W = FLIT_PORT_BITS + 1;  // a send's route (schedule_table.sv)
  logic [K*ROUTE_W-1:0] e_routes;
  logic [NODE_W-1:0]    route_node;
  logic [ROUTE_W-1:0]   route;
  logic [31:0]          table_entries;
  logic                 table_dtype;
  logic [TABLE_ERROR_BITS-1:0] table_cause;
  logic                 has_entry, dep_ready, dep_overflow, advance;
  logic [1:0]           dep_wait_op;
  logic [NODE_W-1:0]    dep_wait_node;
  logic [COUNT_W-1:0]   nop_cycles, lockstep_value;
  logic                 lockstep_idle;
  logic [K-1:0]         send;
  logic [K*NODE_W-1:0]  send_dest;
  logic                 issue, step_behind, bad_dest;
  logic                 due;  // the head entry is for this step and waits for nothing
  logic [K*PORT_W-1:0]  send_port;
  logic [K*JOB_W-1:0]   send_job;
  logic [K-1:0]         ch_dma_idle, ch_idle, ch_overflow, ch_fetch;
  logic [K*$clog2(SEND_QUEUE + 1)-1:0] ch_queued;

  // The head entry's reads (below, with the head).
  logic             rd_en;
  logic [IDX_W-1:0] rd_idx, rd_idx_next;
  schedule_table #(
    .NODE_W(NODE_W), .K(K), .STEP_W(STEP_W), .ADDR_W(ADDR_W), .SIZE_W(SIZE_W), .DEPTH(DEPTH)
  ) u_table (
    .clk_i, .rst_ni, .node_id_i(node_id_q), .nodes_i(nodes_q),
    .cfg_valid_i, .cfg_ready_o, .cfg_write_i, .cfg_addr_i, .cfg_wdata_i, .cfg_rvalid_o,
    .cfg_error_o, .cfg_rdata_o,
    .status_o(table_status_o), .entries_o(table_entries), .dtype_o(table_dtype),
    .error_cause_o(table_cause), .route_node_o(route_node), .route_i(route),
    .rd_en_i(rd_en), .rd_idx_i(rd_idx), .rd_idx_next_i(rd_idx_next),
    .rd_op_o(e_op),
    .rd_flow_o(e_flow), .rd_parent_o(e_parent), .rd_children_o(e_children),
    .rd_step_o(e_step), .rd_addr_o(e_addr), .rd_size_o(e_size), .rd_routes_o(e_routes),
    .nx_op_o(nx_op), .nx_flow_o(nx_flow), .nx_parent_o(nx_parent), .nx_children_o(nx_children)
  );

  // The first hop of the node whose route the table's loader stores.
  first_hop #(.NODE_W(NODE_W)) u_first_hop (
    .clk_i, .node_id_i(node_id_q), .nodes_i(nodes_q), .neighbour_i(neighbour_q),
    .grid_x_i(grid_x_q), .grid_y_i(grid_y_q), .grid_width_i(grid_width_q),
    .grid_height_i(grid_height_q), .grid_wraps_i(grid_wraps_q), .dest_i(route_node),
    .port_o(route[ROUTE_W-2:0]), .neighbour_o(route[ROUTE_W-1])
  );

  logic [IDX_W:0] head_d, head_d_next, head_after_next;
  // The next head and the entry after it: the issue, late in the cycle, only picks between
  // values of registers (head_q + 1 is kept beside head_q, so that no incrementer takes the
  // issue as its carry in).
  assign head_after_next = head_next_q + (IDX_W + 1)'(1);
  assign head_d = start_i ? '0 : issue ? head_next_q : head_q;
  assign head_d_next = start_i ? (IDX_W + 1)'(1) : issue ? head_after_next : head_next_q;
  assign has_entry = started_q && 32'(head_q) < table_entries;
  // The table reads them where the head can move (an entry is due: it moves only by its
  // issue, which enables the read) at addresses from registers, and holds its head entry
  // otherwise; with no entry due it reads head_d every cycle (no issue: head_q).
  assign rd_en = start_i || !has_entry || issue;
  assign rd_idx = start_i ? '0 : IDX_W'(has_entry ? head_next_q : head_q);
  assign rd_idx_next = start_i ? IDX_W'(1) :
                       IDX_W'(has_entry ? head_after_next : head_next_q);
  assign step_behind = has_entry && e_step < step;

  // The step advances only when the head entry is for a later step, so never in a cycle in
  // which a NOP (an entry of this step) loads the lockstep counter: the counter's count at the
  // start of the cycle is its count for the advance.
  timestep_counter #(.STEP_W(STEP_W)) u_timestep (
    .clk_i, .rst_ni, .start_i, .lockstep_zero_i(lockstep_idle), .dma_idle_i(&ch_dma_idle),
    .has_next_i(has_entry && e_step > step), .next_step_i(e_step), .step_o(step),
    .advance_o(advance)
  );

  // A NOP has no sends, so it issues exactly when it is due: its load needs no room check.
  logic nop_due;
  assign nop_due = due && 32'(e_op) == OP_NOP;
  lockstep_counter #(.COUNT_W(COUNT_W)) u_lockstep (
    .clk_i, .rst_ni, .start_i, .load_i(nop_due), .cycles_i(nop_cycles),
    .value_o(lockstep_value), .idle_o(lockstep_idle)
  );

  decoder #(
    .NODE_W(NODE_W), .K(K), .SIZE_W(SIZE_W), .PACKET_BYTES(PACKET_BYTES),
    .BUFFER_FLITS(BUFFER_FLITS), .COUNT_W(COUNT_W)
  ) u_decoder (
    .op_i(e_op), .parent_i(e_parent), .children_i(e_children), .size_i(e_size),
    .packet_mode_i(packet_mode_q), .lockstep_cycles_o(nop_cycles), .send_o(send), .dest_o(send_dest)
  );

  dependency_tracker #(.NODE_W(NODE_W), .K(K), .FLOWS(FLOWS), .SLOTS(SLOTS)) u_dependencies (
    .clk_i, .rst_ni, .start_i, .arrive_i(arrive_q), .arrive_op_i(arrive_key_q[1:0]),
    .arrive_flow_i(arrive_key_q[2 +: NODE_W]),
    .arrive_sender_i(arrive_key_q[2 + NODE_W +: NODE_W]),
    .op_i(e_op), .flow_i(e_flow), .parent_i(e_parent), .children_i(e_children),
    .issue_i(issue), .next_op_i(nx_op), .next_flow_i(nx_flow),
    .next_parent_i(nx_parent), .next_children_i(nx_children), .ready_o(dep_ready),
    .wait_op_o(dep_wait_op),
    .wait_node_o(dep_wait_node), .overflow_o(dep_overflow)
  );

  // Where a send goes: the route the table stored for its slot (rtl/first_hop.sv). A
  // neighbour's message leaves by the port of its link, source routed; anything else is normal
  // packets leaving by the port of their first dimension-order hop
  // (systemc/ni/network_interface.cpp route_to).
  always_comb begin
    logic [2:0]        first, next, eject, opposite;
    logic [PORT_W-1:0] idx;
    logic              routed;
    bad_dest = 1'b0;
    send_port = '0;
    send_job = '0;
    for (int k = 0; k < K; k++) begin
      first = e_routes[ROUTE_W*k +: ROUTE_W-1];
      routed = e_routes[ROUTE_W*k + ROUTE_W-1] && !packet_mode_q;
      next = routed ? first : 3'd0;
      // The neighbour ejects it on the NI port serving the link it arrives by.
      opposite = first[0] ? first + 3'd1 : first - 3'd1;  // y- <-> y+, x- <-> x+
      idx = PORT_W'((32'(opposite) - 1) % K);
      eject = !routed ? 3'd0 : idx == '0 ? 3'(PORT_LOCAL) : 3'(32'(idx) + 4);
      if (send[k] && first == 3'(PORT_LOCAL)) bad_dest = 1'b1;
      send_port[PORT_W*k +: PORT_W] = PORT_W'((32'(first) + 3) % K);  // (first - 1) mod K
      send_job[JOB_W*k +: JOB_W] = {routed, next, eject, send_dest[NODE_W*k +: NODE_W], e_flow,
                                    e_op, e_addr, e_size};
    end
  end

  // The entry issues when it is for this step, waits for nothing, and its sends fit their
  // ports' send queues as they were at the cycle's start (a send leaving the queue in this
  // cycle makes room from the next: the burst decision that pops it stays off the issue path).
  logic room;
  always_comb begin
    room = 1'b1;
    for (int p = 0; p < K; p++) begin
      int unsigned adding, queued;
      adding = 0;
      for (int k = 0; k < K; k++) begin
        if (send[k] && 32'(send_port[PORT_W*k +: PORT_W]) == p) adding = adding + 1;
      end
      queued = 32'(ch_queued[$clog2(SEND_QUEUE + 1)*p +: $clog2(SEND_QUEUE + 1)]);
      if (queued + adding > SEND_QUEUE) begin
        room = 1'b0;
      end
    end
  end
  assign due = has_entry && e_step == step && dep_ready;
  assign issue = due && room && !bad_dest;

  // =====================================================================================
  // The send channels (one per port) and the memory queue.
  // =====================================================================================
  logic [K*ADDR_W-1:0]      fetch_addr;
  logic [K*BURST_LEN_W-1:0] fetch_len;

  // Each port's channel is offered the head entry's sends that leave by it, and the issue
  // commits them (send_channel.sv): the offers come early from the table, the issue late.
  for (genvar p = 0; p < K; p++) begin : g_port
    logic [K-1:0] push;
    for (genvar k = 0; k < K; k++) begin : g_lane
      assign push[k] = send[k] && 32'(send_port[PORT_W*k +: PORT_W]) == p;
    end
    send_channel #(
      .NODE_W(NODE_W), .ADDR_W(ADDR_W), .SIZE_W(SIZE_W), .PUSHES(K), .SEND_QUEUE(SEND_QUEUE),
      .VCS(VCS), .VC_DEPTH(VC_DEPTH), .SUBPACKET_FLITS(SUBPACKET_FLITS), .WORMHOLE(WORMHOLE),
      .BURST_BYTES(BURST_BYTES), .PACKET_BYTES(PACKET_BYTES), .BUFFER_FLITS(BUFFER_FLITS),
      .LINES(LINES)
    ) u_channel (
      .clk_i, .rst_ni, .node_id_i(node_id_q), .push_i(push), .push_job_i(send_job),
      .commit_i(issue),
      .queued_o(ch_queued[$clog2(SEND_QUEUE + 1)*p +: $clog2(SEND_QUEUE + 1)]),
      .fetch_o(ch_fetch[p]), .fetch_addr_o(fetch_addr[ADDR_W*p +: ADDR_W]),
      .fetch_len_o(fetch_len[BURST_LEN_W*p +: BURST_LEN_W]),
      .burst_done_i(done_valid && done_kind == KindBurst && done_tag[PORT_W-1:0] == PORT_W'(p)),
      .burst_data_i(mem_rsp_rdata_i[BURST_BYTES*8-1:0]),
      .credit_i(tx_credit_i[p]), .credit_vc_i(tx_credit_vc_i[VC_W*p +: VC_W]),
      .tx_o(tx_valid_o[p]), .tx_type_o(tx_type_o[FLIT_TYPE_BITS*p +: FLIT_TYPE_BITS]),
      .tx_vc_o(tx_vc_o[VC_W*p +: VC_W]),
      .tx_data_o(tx_data_o[FLIT_DATA_BITS*p +: FLIT_DATA_BITS]),
      .dma_idle_o(ch_dma_idle[p]), .idle_o(ch_idle[p]), .overflow_o(ch_overflow[p])
    );
  end

  logic [PUSHES-1:0]        push, push_write;
  logic [PUSHES*2-1:0]      push_kind;
  logic [PUSHES*TAG_W-1:0]  push_tag;
  logic [PUSHES*ADDR_W-1:0] push_addr;
  logic [PUSHES*LEN_W-1:0]  push_len;

  always_comb begin
    push = '0;
    push_write = '0;
    push_kind = '0;
    push_tag = '0;
    push_addr = '0;
    push_len = '0;
    for (int p = 0; p < K; p++) begin
      int unsigned i;
      i = LaneEject + p;
      push[i] = nb[p] && 32'(blk_op[2*p +: 2]) != OP_REDUCE;
      push_write[i] = 1'b1;
      push_kind[2*i +: 2] = KindGatherWrite;
      push_tag[TAG_W*i +: TAG_W] =
          TAG_W'({nb_meta[META_W*p +: META_W], blk_slot[SLOT_W*p +: SLOT_W]});
      push_addr[ADDR_W*i +: ADDR_W] = blk_addr[ADDR_W*p +: ADDR_W];
      push_len[LEN_W*i +: LEN_W] = blk_len[LEN_W*p +: LEN_W];
    end
    push[LaneIssue] = issued;
    push_kind[2*LaneIssue +: 2] = KindReduceRead;
    push_tag[TAG_W*LaneIssue +: TAG_W] = TAG_W'({issue_meta, issue_slot});
    push_addr[ADDR_W*LaneIssue +: ADDR_W] = issue_addr;
    push_len[LEN_W*LaneIssue +: LEN_W] = issue_len;
    push[LaneWriteBack] = wb_q;
    push_write[LaneWriteBack] = 1'b1;
    push_kind[2*LaneWriteBack +: 2] = KindWriteBack;
    push_tag[TAG_W*LaneWriteBack +: TAG_W] = TAG_W'({wb_meta, wb_slot});
    push_addr[ADDR_W*LaneWriteBack +: ADDR_W] = wb_addr;
    push_len[LEN_W*LaneWriteBack +: LEN_W] = wb_len;
    push[LaneRelease] = released;
    push_kind[2*LaneRelease +: 2] = KindReduceRead;
    push_tag[TAG_W*LaneRelease +: TAG_W] = TAG_W'({release_meta, release_slot});
    push_addr[ADDR_W*LaneRelease +: ADDR_W] = release_addr;
    push_len[LEN_W*LaneRelease +: LEN_W] = release_len;
    for (int p = 0; p < K; p++) begin
      int unsigned i;
      i = LaneFetch + p;
      push[i] = ch_fetch[p];
      push_kind[2*i +: 2] = KindBurst;
      push_tag[TAG_W*i +: TAG_W] = TAG_W'(p);
      push_addr[ADDR_W*i +: ADDR_W] = fetch_addr[ADDR_W*p +: ADDR_W];
      push_len[LEN_W*i +: LEN_W] = LEN_W'(fetch_len[BURST_LEN_W*p +: BURST_LEN_W]);
    end
  end

  logic              req_write, dma_overflow;
  logic [1:0]        req_kind;
  logic [R_W-1:0]    acc_row_q, wb_row_q;
  /* verilator lint_off UNUSEDSIGNAL */  // the block's slot, for its write data
  logic [TAG_W-1:0]  req_tag;
  /* verilator lint_on UNUSEDSIGNAL */

  dma_requester #(
    .DEPTH(REQUESTS), .PUSHES(PUSHES), .TAG_W(TAG_W), .KIND_W(2), .ADDR_W(ADDR_W), .LEN_W(LEN_W)
  ) u_dma (
    .clk_i, .rst_ni, .push_i(push), .push_write_i(push_write), .push_kind_i(push_kind),
    .push_tag_i(push_tag), .push_addr_i(push_addr), .push_len_i(push_len),
    .mem_req_valid_o, .mem_req_ready_i, .mem_req_write_o(req_write), .mem_req_kind_o(req_kind),
    .mem_req_tag_o(req_tag), .mem_req_addr_o, .mem_req_len_o, .mem_rsp_valid_i,
    .done_o(done_valid), .done_kind_o(done_kind), .done_tag_o(done_tag),
    .done_addr_o(done_addr), .done_len_o(done_len),
    .overflow_o(dma_overflow)
  );
  assign mem_req_write_o = req_write;

  // Write data: a write-back's sums, or the block's from its port's bank (its slot was written
  // at least a cycle before the access reaches the memory); one AND-OR of the K banks and the
  // sums.
  always_comb begin
    logic wb_kind;
    wb_kind = req_kind == KindWriteBack;
    mem_req_wdata_o = wb_kind ? sums_wb : '0;
    for (int p = 0; p < K; p++) begin
      if (!wb_kind && 32'(wb_port) == p) mem_req_wdata_o |= bank_wb[DATA_W*p +: DATA_W];
    end
  end

  // =====================================================================================
  // State.
  // =====================================================================================
  // Done as the SystemC NI judges it at the end of the cycle: the last entry issued (a NOP's
  // lockstep count does not matter), nothing left to send, no block live after this cycle's
  // completion and decode, no flit arrived or being decoded, no message open.
  logic done;
  assign done = started_q && 32'(head_d) >= table_entries && &ch_idle && slots_empty &&
                sl_want == '0 && ej_busy == '0 && rx_valid_i == '0 && &ej_idle;

  always_comb begin
    cause_d = cause_q;
    if (no_slot) cause_d[RUN_ERROR_BLOCKS] = 1'b1;
    if (no_record) cause_d[RUN_ERROR_MESSAGES] = 1'b1;
    if (reducing_full) cause_d[RUN_ERROR_REDUCING] = 1'b1;
    if (dma_overflow) cause_d[RUN_ERROR_REQUESTS] = 1'b1;
    if (|ch_overflow || (due && bad_dest)) cause_d[RUN_ERROR_SEND] = 1'b1;
    if (|ej_error || empty_block) cause_d[RUN_ERROR_FLIT] = 1'b1;
    if (dep_overflow) cause_d[RUN_ERROR_SCOREBOARD] = 1'b1;
    if (step_behind) cause_d[RUN_ERROR_STEP] = 1'b1;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      started_q <= 1'b0;
      cause_q <= '0;
      done_q <= 1'b0;
      head_q <= '0;
      head_next_q <= (IDX_W + 1)'(1);
    end else begin
      done_q <= done;
      cause_q <= start_i ? '0 : cause_d;
      if (start_i) started_q <= 1'b1;
      head_q <= head_d;
      head_next_q <= head_d_next;
    end
  end

  // Block data: a bank per port (its slots: block_slots.sv), whose write port takes the port's
  // payload flits (a flit on every flit lane, the mask picking its lane); two read ports, at
  // the block being reduced and the block being written to memory, each picked among the
  // banks by its slot's port. The write mask is per DLANE_W bits: a flit where a beat is whole
  // flits, else a beat or a word. Sums: a reduction beat's sums (the beat's LANES words on
  // every beat's place, the mask picking the beat's: wiring, not a shifter) at the block's
  // row, read at the oldest write-back's row when its write reaches the memory (the rows are
  // written back in their order). A beat's lanes past the block's end take sums of no element
  // (never read: the memory takes the write's length).
  localparam int unsigned BEAT_BITS = LANES * 32;
  localparam int unsigned DLANE_W = BEAT_BITS % 128 == 0 ? 128
                                  : 128 % BEAT_BITS == 0 ? BEAT_BITS : 32;
  localparam int unsigned DLANES = DATA_W / DLANE_W;
  localparam int unsigned PER_FLIT = 128 / DLANE_W;  // data lanes of a flit
  localparam int unsigned PER_LANE = DLANE_W / 32;   // elements of a data lane
  localparam int unsigned ID_W = $clog2(BLOCKS);  // a slot's place among its port's
  localparam int unsigned PORT_SEL = K > 1 ? SLOT_W - ID_W : 1;  // a slot's port
  logic [DLANES-1:0]        sums_wmask;
  logic [PAD_W/32-1:0]      red_emask;
  logic [PAD_W-1:0]         red_wdata;
  logic [K*DATA_W-1:0]      bank_src, bank_wb;
  logic [PORT_SEL-1:0]      src_port, wb_port;

  always_comb begin
    red_emask = (PAD_W / 32)'(red_mask) << (32'(sum_idx) * LANES);
    red_wdata = {BEATS{red_sum}};
    for (int d = 0; d < DLANES; d++) sums_wmask[d] = |red_emask[d*PER_LANE +: PER_LANE];
  end

  for (genvar p = 0; p < K; p++) begin : g_block_data
    logic [DLANES-1:0] wmask;
    assign wmask =
        DLANES'({PER_FLIT{1'b1}}) << (32'(wr_lane[FLIT_LANE_W*p +: FLIT_LANE_W]) * PER_FLIT);
    storage_array #(
      .WIDTH(DATA_W), .DEPTH(BLOCKS), .WRITES(1), .READS(2), .LANE_W(DLANE_W)
    ) u_block_data (
      .clk_i, .we_i(wr[p]), .waddr_i(wr_slot[SLOT_W*p +: ID_W]), .wmask_i(wmask),
      .wdata_i({(DATA_W / 128){ej_data[FLIT_DATA_BITS*p +: 128]}}),
      .raddr_i({beat_slot[ID_W-1:0], req_tag[ID_W-1:0]}), .re_i('1),
      .rdata_o({bank_src[DATA_W*p +: DATA_W], bank_wb[DATA_W*p +: DATA_W]})
    );
  end
  if (K > 1) begin : g_port_of_slot
    assign src_port = beat_slot[SLOT_W-1 -: PORT_SEL];
    assign wb_port = req_tag[SLOT_W-1 -: PORT_SEL];
  end else begin : g_one_port
    assign src_port = '0;
    assign wb_port = '0;
  end
  // The beat being reduced: one AND-OR of every bank's every beat, picked by the block's port
  // and the beat's place.
  always_comb begin
    logic [PAD_W-1:0] row;
    beat_src = '0;
    for (int p = 0; p < K; p++) begin
      row = PAD_W'(bank_src[DATA_W*p +: DATA_W]);
      for (int b = 0; b < BEATS; b++) begin
        if (32'(src_port) == p && 32'(beat_idx) == b) beat_src |= row[b*LANES*32 +: LANES*32];
      end
    end
  end

  storage_array #(.WIDTH(DATA_W), .DEPTH(REDUCING), .WRITES(1), .READS(1)) u_block_acc (
    .clk_i, .we_i(read_done), .waddr_i(acc_row_q), .wmask_i(1'b1), .wdata_i(mem_rsp_rdata_i),
    .raddr_i(beat_row), .re_i('1), .rdata_o(acc_rd)
  );

  storage_array #(
    .WIDTH(DATA_W), .DEPTH(REDUCING), .WRITES(1), .READS(1), .LANE_W(DLANE_W)
  ) u_block_sums (
    .clk_i, .we_i(red_out), .waddr_i(sum_row), .wmask_i(sums_wmask),
    .wdata_i(red_wdata[DATA_W-1:0]), .raddr_i(wb_row_q), .re_i('1), .rdata_o(sums_wb)
  );

  // The rows of acc written (a read's completion) and of sums read (a write-back handed to
  // the memory): counters of the reads and write-backs, which keep the sequencer's order.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      acc_row_q <= '0;
      wb_row_q <= '0;
    end else begin
      acc_row_q <= acc_row_q + R_W'(read_done);
      wb_row_q <= wb_row_q + R_W'(mem_req_valid_o && mem_req_ready_i && req_kind == KindWriteBack);
    end
  end

`ifndef SYNTHESIS
  // A block's sums row is free again once its write-back reaches the memory: the blocks from
  // their first beat to then are at most REDUCING while no bound has stopped the run (a block
  // reads after the write-back of the block REDUCING before it entered the memory queue).
  int unsigned sums_live_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      sums_live_q <= 0;
    end else begin
      sums_live_q <= sums_live_q + 32'(beat_valid && beat_idx == '0)
                   - 32'(mem_req_valid_o && mem_req_ready_i && req_kind == KindWriteBack);
      if (cause_q == '0 && sums_live_q > REDUCING) begin
        $error("network_interface: a block's sums overwrote a row not yet written back");
      end
    end
  end
`endif

  assign step_o = step;
  assign step_advance_o = advance;
  assign table_error_cause_o = table_cause;
  assign lockstep_o = lockstep_value;
  assign waiting_o = has_entry && e_step == step && !dep_ready;
  assign wait_op_o = dep_wait_op;
  assign wait_node_o = dep_wait_node;
  assign head_o = head_q;
  assign done_o = done;
  assign error_o = cause_q != '0;
  assign error_cause_o = cause_q;
  assign irq_o = (done && !done_q) || (cause_d != '0 && cause_q == '0);

endmodule
