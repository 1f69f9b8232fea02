// The NI's ejection side for one ejection port (instantiate one per port): cuts the flits of
// each VC into blocks of gradient data, writes each block into its block slot and says which
// message each belongs to and when a message is complete. SystemC twin:
// systemc/ni/ejection_decoder.hpp (which keeps the contexts of every port in one object).
//
// One context per VC. A head opens its VC's context: a SubHead's sender is the neighbour
// across the port opposite its Eject field (the source router swapped Next and Eject, paper
// §IV-B), a normal Head's sender is its Src. Body and tail flits add their payload (16 bytes,
// fewer at the end of a message or packet). A block ends at the message's or packet's tail and
// at every line's end (ni_formats_pkg::FLIT_LINE_BYTES, 256), so it lies within one line, the
// interlock's key: block_o is valid in the flit's own cycle with the block's address, length
// and slot and whether it completes the message. A head's address is a multiple of 16, so
// flits never cross a line. Packet-mode messages count their bytes in a table of PKT_MSGS open
// messages (all packets of a message come through one port: routes are deterministic), since
// their packets may interleave over the VCs.
//
// A flit arrives on flit_i/type_i/vc_i/data_i at a clock edge and is decoded in the next cycle
// (the input register, flit_q). Whether it is its block's first payload flit, and whether that
// block is its message's first, is known when it arrives: both are registered beside the flit,
// from the pins and from the per-VC state the flit in decode leaves (the VC's next state), so
// the slot and record requests below leave a register.
//
// A block's data go straight into its block slot (rtl/block_slots.sv), a flit at a time: the
// block's first payload flit asks for a slot (slot_want_o) and gets it in the same cycle
// (slot_i), the VC's context keeps it, and every payload flit is written into its 16-byte lane
// of the slot (wr_o, wr_slot_o, wr_lane_o; the data are wr_data_o). Nothing is reassembled
// here.
//
// A message's record (rtl/block_slots.sv: what tells when it is in memory) is taken with its
// first block's slot: rec_want_o says the block taking a slot is its message's first, and
// rec_i is the record the block slots give it in that cycle, kept in the VC's context (a
// message) or the packet-table entry (a packet-mode message) and given with every later flit
// of the message (msg_rec_o).
//
// A flit that does not continue what its VC carries (or that names no neighbour, or a message
// or packet longer than its size, or a full packet table) sets error_o, sticky until start_i:
// the SystemC decoder throws there (also a head whose address is not a multiple of 16). So
// every flit of a block but its last carries 16 bytes, and a block slot takes flits whole, a
// lane each (no byte shifting).
module ejection_decoder #(
  // Width of node ids and of the Tree ID; nil (no neighbour) is all ones.
  parameter int unsigned NODE_W = 8,
  // Width of addresses.
  parameter int unsigned ADDR_W = 32,
  // Width of sizes.
  parameter int unsigned SIZE_W = 32,
  // Virtual channels of the port.
  parameter int unsigned VCS = 4,
  // Packet-mode messages that can be open at once on this port.
  parameter int unsigned PKT_MSGS = 4,
  // Width of a message's record.
  parameter int unsigned MSG_W = 5,
  // Width of a block slot.
  parameter int unsigned SLOT_W = 7,
  // Payload bytes of the largest block: a line.
  localparam int unsigned BLOCK_BYTES = ni_formats_pkg::FLIT_LINE_BYTES,
  localparam int unsigned VC_W = VCS > 1 ? $clog2(VCS) : 1,
  localparam int unsigned LEN_W = $clog2(BLOCK_BYTES + 1),
  // Payload flits of the largest block.
  localparam int unsigned BLOCK_FLITS = BLOCK_BYTES / 16,
  localparam int unsigned FLITS_W = $clog2(BLOCK_FLITS + 1),
  localparam int unsigned LANE_W = BLOCK_FLITS > 1 ? $clog2(BLOCK_FLITS) : 1
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     start_i,
  // The node across each direction port (codes 1..4: y-, y+, x-, x+), nil if none.
  input  logic [4*NODE_W-1:0]      neighbour_i,
  // The flit arriving at this cycle's edge, decoded in the next cycle.
  input  logic                     flit_i,
  input  logic [ni_formats_pkg::FLIT_TYPE_BITS-1:0] type_i,
  input  logic [VC_W-1:0]          vc_i,
  input  logic [ni_formats_pkg::FLIT_DATA_BITS-1:0] data_i,
  // A block ends with this flit.
  output logic                     block_o,
  output logic [1:0]               block_op_o,
  output logic [NODE_W-1:0]        block_flow_o,
  output logic [NODE_W-1:0]        block_sender_o,
  output logic [ADDR_W-1:0]        block_addr_o,
  output logic [LEN_W-1:0]         block_len_o,
  output logic [SLOT_W-1:0]        block_slot_o,
  output logic                     block_done_o,
  // The flit is its block's first payload flit: it asks for a slot (when allowed, slot_ok_i:
  // the run has started) and gets slot_i in this cycle.
  output logic                     slot_want_o,
  input  logic                     slot_ok_i,
  input  logic [SLOT_W-1:0]        slot_i,
  // With it the block's message's record: taken now (rec_want_o: the message's first block;
  // it gets rec_i in this cycle), else the one it took (msg_rec_o).
  output logic                     rec_want_o,
  input  logic [MSG_W-1:0]         rec_i,
  output logic [MSG_W-1:0]         msg_rec_o,
  // The payload flit written in this cycle into lane wr_lane_o of block slot wr_slot_o.
  output logic                     wr_o,
  output logic [SLOT_W-1:0]        wr_slot_o,
  output logic [LANE_W-1:0]        wr_lane_o,
  output logic [ni_formats_pkg::FLIT_DATA_BITS-1:0] wr_data_o,
  // A flit is decoded in this cycle.
  output logic                     busy_o,
  // No message is partly received (SystemC: open_messages() == 0).
  output logic                     idle_o,
  output logic                     error_o
);

  `include "ni_formats.svh"

  localparam logic [NODE_W-1:0] Nil = '1;
  localparam int unsigned KEY_W = 2 + 2 * NODE_W;  // (op, flow, sender)
  localparam int unsigned LINE_LO_W = $clog2(BLOCK_BYTES);  // an address's byte in its line
  localparam int unsigned PKT_W = PKT_MSGS > 1 ? $clog2(PKT_MSGS) : 1;

  // Per-VC contexts: whether one is open and carries a message, its block's slot, its packet's
  // entry and its message's record, in registers (what decides, early in the cycle, whether a
  // flit takes a slot and a record, and what the block slots give late); the rest in a storage
  // array of a word per VC (u_contexts), read when the flit arrives and written when it is
  // decoded.
  logic [VCS-1:0]            open_q, open_d, message_q, message_d;
  logic [VCS-1:0]            has_rec_q, has_slot_q;
  logic [MSG_W-1:0]          rec_q [VCS];
  logic [SLOT_W-1:0]         slot_q [VCS];
  logic [PKT_W-1:0]          pkt_q [VCS];
  logic [KEY_W-1:0]          c_key, n_key;
  logic [ADDR_W-1:0]         c_addr, n_addr;     // address of the block's first byte
  logic [SIZE_W-1:0]         c_left, n_left;     // payload bytes still to come
  logic [SIZE_W-1:0]         c_msg_bytes, n_msg_bytes;
  logic [FLITS_W-1:0]        c_flits, n_flits;   // payload flits of the block so far (full)
  logic                      c_has_rec, n_has_rec;  // the message has a record: c_rec
  logic [MSG_W-1:0]          c_rec, n_rec;
  logic                      rec_to_ctx;         // rec_i becomes the VC's message's record
  logic [MSG_W-1:0]          p_rec;              // the packet's entry's record
  logic [MSG_W-1:0]          msg_rec_q;          // the flit's message's record, registered
  logic                      c_has_slot, n_has_slot;  // the block so far has a slot: c_slot
  logic [SLOT_W-1:0]         c_slot, n_slot;
  // A packet's entry in the open packet-mode messages, found at its head: its later flits
  // reach the entry without comparing keys.
  logic [PKT_W-1:0]          c_pkt, n_pkt;
  // Open packet-mode messages.
  logic [PKT_MSGS-1:0]        pkt_valid_q, pkt_valid_d;
  logic [PKT_MSGS*KEY_W-1:0]  pkt_key_q, pkt_key_d;
  logic [PKT_MSGS*SIZE_W-1:0] pkt_got_q, pkt_got_d;
  logic [PKT_MSGS-1:0]        pkt_has_rec_q, pkt_has_rec_d;
  logic [PKT_MSGS*MSG_W-1:0]  pkt_rec_q, pkt_rec_d;
  logic [PKT_MSGS-1:0]        rec_to_pkt;         // rec_i becomes that entry's record
  logic                       error_q, error_d;
  // The input register: the flit decoded in this cycle.
  logic                       flit_q;
  logic [FLIT_TYPE_BITS-1:0]  type_q;
  logic [VC_W-1:0]            vc_q;
  logic [FLIT_DATA_BITS-1:0]  data_q;

  // The head's fields.
  logic [1:0]        h_op;
  logic [NODE_W-1:0] h_tree, h_src, h_sender, h_from_node;
  logic [2:0]        h_from;
  logic [ADDR_W-1:0] h_addr;
  logic [SIZE_W-1:0] h_msg_bytes, h_pkt_bytes;
  logic              is_head, is_sub, is_tail_flit, ends_block;

  function automatic logic head_type(logic [FLIT_TYPE_BITS-1:0] t);
    head_type = 32'(t) == FLIT_TYPE_HEAD || 32'(t) == FLIT_TYPE_HEAD_TAIL ||
                32'(t) == FLIT_TYPE_SUB_HEAD;
  endfunction

  always_comb begin
    h_op = data_q[HEAD_OP_LSB +: 2];
    h_tree = data_q[HEAD_TREE_LSB +: NODE_W];
    h_src = data_q[HEAD_SRC_LSB +: NODE_W];
    h_addr = data_q[HEAD_ADDR_LSB +: ADDR_W];
    h_msg_bytes = data_q[HEAD_MESSAGE_BYTES_LSB +: SIZE_W];
    h_pkt_bytes = SIZE_W'(data_q[HEAD_PACKET_BYTES_LSB +: HEAD_PACKET_BYTES_BITS]);
    // The sender of a message: across the port opposite Eject (y- <-> y+, x- <-> x+).
    unique case (32'(data_q[HEAD_EJECT_LSB +: 3]))
      PORT_Y_MINUS: h_from = 3'(PORT_Y_PLUS);
      PORT_Y_PLUS:  h_from = 3'(PORT_Y_MINUS);
      PORT_X_MINUS: h_from = 3'(PORT_X_PLUS);
      PORT_X_PLUS:  h_from = 3'(PORT_X_MINUS);
      default:      h_from = 3'(PORT_LOCAL);
    endcase
    h_from_node = h_from == 3'(PORT_LOCAL) ? Nil : neighbour_i[NODE_W*(32'(h_from) - 1) +: NODE_W];
    is_sub = type_q[2];
    is_head = head_type(type_q);
    is_tail_flit = 32'(type_q) == FLIT_TYPE_TAIL || 32'(type_q) == FLIT_TYPE_HEAD_TAIL ||
                   32'(type_q) == FLIT_TYPE_SUB_MESSAGE_TAIL;
    // A full flit that ends a line (the block's start plus its flits so far and this one).
    ends_block = is_tail_flit ||
                 LINE_LO_W'(c_addr) + (LINE_LO_W'(c_flits) << 4) + LINE_LO_W'(16) == '0;
    h_sender = is_sub ? h_from_node : h_src;
  end

  // Whether the flit is its block's first payload flit (its VC open on its kind of message, its
  // block without a slot), and whether it would take a record with the slot (its message has
  // none: the VC's, or the packet entry's): registered when the flit arrives (below).
  logic first_payload_q, first_rec_q;
  assign slot_want_o = first_payload_q;
  assign rec_want_o = first_payload_q && first_rec_q;

  // The VC's context with this flit.
  logic [KEY_W-1:0]         b_key;    // the flit's message (the head's, for a head)
  logic [SIZE_W-1:0]        take;
  logic [LEN_W-1:0]         c_len, b_len;  // the block's bytes before this flit, and with it
  logic [PKT_MSGS-1:0]      hit;
  logic [PKT_MSGS-1:0]      at_pkt;   // the packet's entry, from its context
  logic [SIZE_W-1:0]        sel_got, grown;  // the flit's packet entry's bytes, and grown
  logic [SIZE_W-LEN_W-1:0]  got_hi_up;
  logic [LEN_W:0]           got_lo;
  logic [PKT_MSGS-1:0]      pkt_ends; // a block ending here completes entry p's message

  always_comb begin
    open_d = open_q;
    message_d = message_q;
    n_key = c_key;
    n_addr = c_addr;
    n_left = c_left;
    n_msg_bytes = c_msg_bytes;
    n_flits = c_flits;
    n_has_rec = c_has_rec;
    n_has_slot = c_has_slot;
    n_slot = c_slot;
    n_pkt = c_pkt;
    wr_o = 1'b0;
    wr_slot_o = c_slot;
    rec_to_ctx = 1'b0;
    rec_to_pkt = '0;
    pkt_valid_d = pkt_valid_q;
    pkt_key_d = pkt_key_q;
    pkt_got_d = pkt_got_q;
    pkt_has_rec_d = pkt_has_rec_q;
    error_d = error_q;
    block_o = 1'b0;
    block_done_o = 1'b0;

    b_key = c_key;
    c_len = LEN_W'(c_flits) << 4;  // every flit before the last of a block is full
    take = c_left < SIZE_W'(16) ? c_left : SIZE_W'(16);
    b_len = c_len + LEN_W'(take);
    // The packet entry's bytes grown by the block's (narrow, late): the low LEN_W bits added,
    // the rest the entry's high bits or those plus one (made from registers), as the carry
    // picks.
    sel_got = '0;
    for (int p = 0; p < PKT_MSGS; p++) begin
      if (c_pkt == PKT_W'(p)) sel_got |= pkt_got_q[SIZE_W*p +: SIZE_W];
    end
    got_hi_up = sel_got[SIZE_W-1:LEN_W] + (SIZE_W - LEN_W)'(1);
    got_lo = {1'b0, sel_got[LEN_W-1:0]} + {1'b0, b_len};
    grown = {got_lo[LEN_W] ? got_hi_up : sel_got[SIZE_W-1:LEN_W], got_lo[LEN_W-1:0]};
    p_rec = '0;
    for (int p = 0; p < PKT_MSGS; p++) begin
      hit[p] = pkt_valid_q[p] && pkt_key_q[KEY_W*p +: KEY_W] == b_key;
      at_pkt[p] = c_pkt == PKT_W'(p);
      if (at_pkt[p]) p_rec = pkt_rec_q[MSG_W*p +: MSG_W];
    end
    // Whether a block ending here completes its packet's message, for every entry at once:
    // the bytes the message lacks before this flit (its bytes less the entry's and this
    // block's so far) against the flit's. The flit's entry then only picks a bit: no select of
    // the entry's bytes and no running sum on the decision's path.
    for (int p = 0; p < PKT_MSGS; p++) begin
      logic [SIZE_W+1:0] short_by;  // signed
      short_by = (SIZE_W + 2)'(c_msg_bytes) - (SIZE_W + 2)'(pkt_got_q[SIZE_W*p +: SIZE_W]) -
                 (SIZE_W + 2)'(c_len);
      pkt_ends[p] = $signed(short_by) <= $signed((SIZE_W + 2)'(take));
    end

    if (flit_q && is_head) begin
      if (open_q[vc_q] || 32'(h_op) == OP_NOP || h_sender == Nil ||
          (!is_sub && h_pkt_bytes > h_msg_bytes) || h_addr[3:0] != '0) begin
        error_d = 1'b1;
      end
      b_key = {h_sender, h_tree, h_op};
      open_d[vc_q] = 1'b1;
      message_d[vc_q] = is_sub;
      n_key = b_key;
      n_addr = h_addr;
      n_msg_bytes = h_msg_bytes;
      n_left = is_sub ? h_msg_bytes : h_pkt_bytes;
      n_flits = '0;
      n_has_rec = 1'b0;
      n_has_slot = 1'b0;
      if (!is_sub) begin  // a packet's message: counted from its first packet on
        for (int p = 0; p < PKT_MSGS; p++) begin
          hit[p] = pkt_valid_q[p] && pkt_key_q[KEY_W*p +: KEY_W] == b_key;
          if (hit[p]) n_pkt = PKT_W'(p);
        end
        if (hit == '0) begin
          if (&pkt_valid_q) error_d = 1'b1;
          for (int p = PKT_MSGS - 1; p >= 0; p--) begin
            if (!pkt_valid_q[p]) begin
              n_pkt = PKT_W'(p);
              pkt_valid_d = pkt_valid_q;
              pkt_valid_d[p] = 1'b1;
              pkt_key_d = pkt_key_q;
              pkt_key_d[KEY_W*p +: KEY_W] = b_key;
              pkt_got_d = pkt_got_q;
              pkt_got_d[SIZE_W*p +: SIZE_W] = '0;
              pkt_has_rec_d = pkt_has_rec_q;
              pkt_has_rec_d[p] = 1'b0;
            end
          end
        end
      end
    end else if (flit_q) begin
      // Only a message's or a packet's tail may carry its last byte, or less than 16.
      if (!open_q[vc_q] || is_sub != message_q[vc_q] ||
          (!is_tail_flit && c_left <= SIZE_W'(16))) begin
        error_d = 1'b1;
      end
      n_left = c_left - take;
      n_flits = c_flits + FLITS_W'(1);
      // The block's first payload flit takes its slot, and its message's record if it is the
      // message's first block; every payload flit goes into the slot.
      if (first_payload_q) begin
        n_has_slot = slot_ok_i;
        n_slot = slot_i;
        wr_slot_o = slot_i;
        if (message_q[vc_q]) begin
          n_has_rec = !rec_want_o || slot_ok_i;
          rec_to_ctx = rec_want_o;
        end else begin
          for (int p = 0; p < PKT_MSGS; p++) begin
            if (at_pkt[p]) begin
              pkt_has_rec_d[p] = !rec_want_o || slot_ok_i;
              rec_to_pkt[p] = rec_want_o;
            end
          end
        end
      end
      wr_o = n_has_slot;
      if (ends_block) begin
        block_o = 1'b1;
        n_flits = '0;
        n_has_slot = 1'b0;
        // The next block's address, read only while the VC stays open: then this block ended
        // at its line's end, and the next starts the next line (an incrementer, no adder).
        n_addr = {c_addr[ADDR_W-1:LINE_LO_W] + (ADDR_W - LINE_LO_W)'(1), LINE_LO_W'(0)};
        if (is_tail_flit) open_d[vc_q] = 1'b0;
        if (message_q[vc_q]) begin
          if (is_tail_flit && c_left != take) error_d = 1'b1;
          block_done_o = is_tail_flit;
        end else begin
          if (is_tail_flit && c_left != take) error_d = 1'b1;
          // The packet's entry, as its head found it; the key compare only checks it.
          for (int p = 0; p < PKT_MSGS; p++) begin
            if (at_pkt[p]) begin
              pkt_got_d[SIZE_W*p +: SIZE_W] = grown;
              if (pkt_ends[p]) begin
                block_done_o = 1'b1;
                pkt_valid_d[p] = 1'b0;
              end
            end
          end
          if ((hit & at_pkt) == '0) error_d = 1'b1;
        end
      end
    end
  end

  // A first block's record, from the block slots in the same cycle (nothing above depends on
  // it).
  always_comb begin
    n_rec = rec_to_ctx ? rec_i : c_rec;
    pkt_rec_d = pkt_rec_q;
    for (int p = 0; p < PKT_MSGS; p++) begin
      if (rec_to_pkt[p]) pkt_rec_d[MSG_W*p +: MSG_W] = rec_i;
    end
  end

  assign block_op_o = b_key[1:0];
  assign block_flow_o = b_key[2 +: NODE_W];
  assign block_sender_o = b_key[2 + NODE_W +: NODE_W];
  assign block_addr_o = c_addr;
  assign block_len_o = b_len;
  assign block_slot_o = wr_slot_o;
  assign msg_rec_o = msg_rec_q;
  // A payload flit's data go to the block slots beside this decoder; only heads are read here.
  assign wr_data_o = data_q;
  assign busy_o = flit_q;
  assign wr_lane_o = LANE_W'(c_flits);  // bytes past `take` are never used

  always_comb begin
    logic open_message;
    open_message = 1'b0;
    for (int v = 0; v < VCS; v++) open_message |= open_q[v] && message_q[v];
    idle_o = !open_message && pkt_valid_q == '0;
  end

`ifndef SYNTHESIS
  // The registered verdicts and record are the ones the flit's VC state gives in its own cycle.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (first_payload_q != (flit_q && !is_head && open_q[vc_q] && !has_slot_q[vc_q] &&
                              is_sub == message_q[vc_q])) begin
        $error("ejection_decoder: first payload flit registered wrong");
      end
      if (first_payload_q &&
          first_rec_q != (message_q[vc_q] ? !has_rec_q[vc_q] : !pkt_has_rec_q[pkt_q[vc_q]])) begin
        $error("ejection_decoder: first block's record registered wrong");
      end
      if (flit_q && !is_head && msg_rec_q != (message_q[vc_q] ? c_rec : p_rec)) begin
        $error("ejection_decoder: message's record registered wrong");
      end
    end
  end
`endif

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      open_q <= '0;
      message_q <= '0;
      pkt_valid_q <= '0;
      error_q <= 1'b0;
    end else if (start_i) begin  // a new run: nothing open, no error
      open_q <= '0;
      message_q <= message_d;
      pkt_valid_q <= '0;
      error_q <= 1'b0;
    end else begin
      open_q <= open_d;
      message_q <= message_d;
      pkt_valid_q <= pkt_valid_d;
      error_q <= error_d;
    end
  end

  // Read only where a valid or open bit says so: no reset needed.
  always_ff @(posedge clk_i) begin
    pkt_key_q <= pkt_key_d;
    pkt_got_q <= pkt_got_d;
    pkt_has_rec_q <= pkt_has_rec_d;
    pkt_rec_q <= pkt_rec_d;
  end

  // The VCs' contexts: read at the arriving flit's VC into a register beside it (the decoded
  // flit's new context when it is the same VC), written at the decoded flit's VC.
  localparam int unsigned CTX_W = KEY_W + ADDR_W + 2 * SIZE_W + FLITS_W;
  logic [CTX_W-1:0] n_ctx, ctx_rd, ctx_q;
  assign n_ctx = {n_key, n_addr, n_left, n_msg_bytes, n_flits};
  storage_array #(.WIDTH(CTX_W), .DEPTH(VCS), .WRITES(1), .READS(1)) u_contexts (
    .clk_i, .we_i(flit_q), .waddr_i(vc_q), .wmask_i(1'b1), .wdata_i(n_ctx),
    .raddr_i(vc_i), .re_i('1), .rdata_o(ctx_rd)
  );

  // The arriving flit's verdicts and context, from the pins and from its VC's state as the
  // flit in decode leaves it (what the registers take at this edge; own: the same VC). Made
  // inside the register block: they depend on the pins and feed registers only.
  always_ff @(posedge clk_i) begin
    logic             own, open, message, has_slot, has_rec;
    logic [PKT_W-1:0] pkt;
    own = flit_q && vc_q == vc_i;
    open = !start_i && open_d[vc_i];
    message = message_d[vc_i];
    has_slot = own ? n_has_slot : has_slot_q[vc_i];
    has_rec = own ? n_has_rec : has_rec_q[vc_i];
    pkt = own ? n_pkt : pkt_q[vc_i];
    if (!rst_ni) begin
      flit_q <= 1'b0;
      first_payload_q <= 1'b0;
    end else begin
      flit_q <= flit_i;
      first_payload_q <= flit_i && !head_type(type_i) && open && !has_slot && type_i[2] == message;
    end
    type_q <= type_i;
    vc_q <= vc_i;
    data_q <= data_i;
    first_rec_q <= message ? !has_rec : !pkt_has_rec_d[pkt];
    msg_rec_q <= message ? (own ? n_rec : rec_q[vc_i]) : pkt_rec_d[MSG_W*pkt +: MSG_W];
    ctx_q <= own ? n_ctx : ctx_rd;
  end
  assign {c_key, c_addr, c_left, c_msg_bytes, c_flits} = ctx_q;
  assign c_has_rec = has_rec_q[vc_q];
  assign c_rec = rec_q[vc_q];
  assign c_has_slot = has_slot_q[vc_q];
  assign c_slot = slot_q[vc_q];
  assign c_pkt = pkt_q[vc_q];
  always_ff @(posedge clk_i) begin
    if (flit_q) begin
      has_rec_q[vc_q] <= n_has_rec;
      rec_q[vc_q] <= n_rec;
      has_slot_q[vc_q] <= n_has_slot;
      slot_q[vc_q] <= n_slot;
      pkt_q[vc_q] <= n_pkt;
    end
  end

  assign error_o = error_q;

endmodule
