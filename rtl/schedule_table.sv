// The NI's all-reduce schedule table (paper §IV-A, Fig. 6) with its image loader. SystemC
// twin: systemc/ni/schedule_table.hpp; image format: host_sw/image/IMAGE_FORMAT.md; register
// map: format/ni_formats.json (`config`); bus and behaviour: rtl/README.md.
//
// Loading. The host streams a node's .bin image into the image window as 32-bit words at
// increasing addresses from the window base (a write at the base starts a new image), writes
// LENGTH and then 1 to LOAD. The loader digests one byte per cycle and the CRC runs over the
// covered bytes. Header bytes go through a field register: each header field is checked in the
// cycle its last byte comes in, and only what the entries and LOAD need of it is kept (the
// checks' verdicts, the field widths, the counts narrowed to this instance's capacity, the
// buffer's bounds and the CRC). Entry bytes go into a bit buffer from which one field a cycle
// is taken (op, flow, parent, the children, step, start_addr, size,
// the pad), each as wide as the header says, checked as it is taken and placed in the entry;
// an entry whose pad is taken is written into the inactive bank. cfg_ready_o is low while a
// word's bytes are digested or a field can be taken. LOAD accepts the image
// when the header, every entry, the length and the CRC are right: the loaded bank becomes the
// table and STATUS reads loaded. Otherwise STATUS reads error, error_cause_o says why, and the
// previous table stays. The checks are the reader's of IMAGE_FORMAT.md ("Validity") plus the
// capacity of this instance (parameters below).
//
// Routes. The cycle after the loader takes a node field that is a send's destination (a
// Reduce's parent, for send slot 0; a Gather's child k, for slot k) it shows the node on
// route_node_o, and two cycles later it stores route_i, the NI's first hop to it
// (rtl/first_hop.sv), in the entry beside the node: before the entry is written, since its
// step, address, size and pad fields take a cycle each. The straps hold still from before the
// load, so the stored route is the one the NI would compute at issue; the head entry's sends
// then need no routing of their own.
//
// Reading. rd_idx_i selects an entry of the installed table; in a cycle with rd_en_i its
// fields appear on rd_*_o in the next cycle (a synchronous read, as an SRAM macro gives it,
// held until the next read), and the wait fields (op, flow, parent, children) of entry
// rd_idx_next_i on nx_*_o, through a second read port, so that the NI can make the next
// entry's wait check a cycle ahead. The NI reads when its head entry changes and otherwise
// holds it, so installing a table while a run has an entry due is not supported (simulation
// stops with an error). Node fields hold nil as all ones in
// NODE_W bits, whatever the image's node_bits; rd_routes_o holds send slot k's route at
// [k*ROUTE_W +: ROUTE_W] (0 where the slot sends nothing).
//
// Bus: one access per cfg_valid_i && cfg_ready_o; its response (cfg_rvalid_o, cfg_error_o,
// cfg_rdata_o) comes in the next cycle. cfg_error_o is the SystemC target's address error:
// an unknown address, a read of the window or of LENGTH/LOAD, a write of STATUS/ENTRIES, a
// LENGTH beyond the window, a LOAD of anything but 1.
module schedule_table #(
  // Width of node ids and flow ids (the image's node_bits and flow_bits may be smaller).
  parameter int unsigned NODE_W = 8,
  // Children slots per entry (the image's children_slots may be smaller).
  parameter int unsigned K = 4,
  // Width of a step number.
  parameter int unsigned STEP_W = 8,
  // Width of an entry's start address; base_addr + bytes must not exceed 2^ADDR_W.
  parameter int unsigned ADDR_W = 32,
  // Width of an entry's size.
  parameter int unsigned SIZE_W = 32,
  // Entries per bank.
  parameter int unsigned DEPTH = 256,
  // Bits of a send's route: its first hop's port code and whether the node is a neighbour.
  localparam int unsigned ROUTE_W = ni_formats_pkg::FLIT_PORT_BITS + 1,
  localparam int unsigned IDX_W = $clog2(DEPTH)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // Straps: this NI's node id and the network's node count; images for others are refused.
  input  logic [NODE_W-1:0]   node_id_i,
  input  logic [NODE_W-1:0]   nodes_i,
  // Table-write port.
  input  logic                cfg_valid_i,
  output logic                cfg_ready_o,
  input  logic                cfg_write_i,
  input  logic [31:0]         cfg_addr_i,
  input  logic [31:0]         cfg_wdata_i,
  output logic                cfg_rvalid_o,
  output logic                cfg_error_o,
  output logic [31:0]         cfg_rdata_o,
  // The installed table.
  output logic [1:0]          status_o,
  output logic [31:0]         entries_o,
  output logic                dtype_o,
  output logic [ni_formats_pkg::TABLE_ERROR_BITS-1:0] error_cause_o,
  // The node whose route the loader takes in this cycle, and that route.
  output logic [NODE_W-1:0]   route_node_o,
  input  logic [ROUTE_W-1:0]  route_i,
  // Head read port: the entry, and rd_idx_i + 1 (given by the reader, from registers), read
  // in cycles with rd_en_i.
  input  logic                rd_en_i,
  input  logic [IDX_W-1:0]    rd_idx_i,
  input  logic [IDX_W-1:0]    rd_idx_next_i,
  output logic [1:0]          rd_op_o,
  output logic [NODE_W-1:0]   rd_flow_o,
  output logic [NODE_W-1:0]   rd_parent_o,
  output logic [K*NODE_W-1:0] rd_children_o,
  output logic [STEP_W-1:0]   rd_step_o,
  output logic [ADDR_W-1:0]   rd_addr_o,
  output logic [SIZE_W-1:0]   rd_size_o,
  output logic [K*ROUTE_W-1:0] rd_routes_o,
  output logic [1:0]          nx_op_o,
  output logic [NODE_W-1:0]   nx_flow_o,
  output logic [NODE_W-1:0]   nx_parent_o,
  output logic [K*NODE_W-1:0] nx_children_o
);

  `include "ni_formats.svh"

  // error_cause_o: the first check that failed (TABLE_ERROR_*, format/ni_formats.json's
  // errors, in the order they rank; TABLE_ERROR_NONE: none).

  // The header's entry width is summed two bytes after the children slots (a byte a cycle at
  // most), before the address and size widths add to it.
  if (IMG_ADDR_BITS_OFFSET <= IMG_CHILDREN_SLOTS_OFFSET + 2 ||
      IMG_SIZE_BITS_OFFSET <= IMG_CHILDREN_SLOTS_OFFSET + 2 ||
      IMG_ENTRY_BITS_OFFSET <= IMG_CHILDREN_SLOTS_OFFSET + 2) begin : g_bad_header_order
    $error("schedule_table: header fields out of the order the entry width sum needs");
  end

  // The widest entry an image within the parameters can have, and its bytes.
  localparam int unsigned MaxEntryBits = IMG_OP_BITS + NODE_W * (2 + K) + STEP_W + ADDR_W + SIZE_W;
  localparam int unsigned MaxEntryBytes = (MaxEntryBits + 7) / 8;
  localparam int unsigned EposW = $clog2(MaxEntryBytes + 1);
  // The widest field within the parameters (the pad is under 8 bits), and the bit buffer: a
  // field's bits and the byte that completes it.
  localparam int unsigned WideAS = ADDR_W > SIZE_W ? ADDR_W : SIZE_W;
  localparam int unsigned WideNS = NODE_W > STEP_W ? NODE_W : STEP_W;
  localparam int unsigned WideF = WideAS > WideNS ? WideAS : WideNS;
  localparam int unsigned FieldW = WideF > 8 ? WideF : 8;
  localparam int unsigned BufW = FieldW + 8;
  localparam int unsigned NbW = $clog2(BufW + 1);
  localparam int unsigned CntW = $clog2(DEPTH + 1);
  // Image bytes: the window's, one more bit for its end (pos_q stops at the largest value).
  localparam int unsigned PosW = $clog2(CFG_IMAGE_WINDOW + 1);
  localparam int unsigned KW = $clog2(K + 1);
  localparam int unsigned ChildW = K > 1 ? $clog2(K) : 1;
  // Range arithmetic: base_addr and bytes fit ADDR_W + 1 bits once the header is accepted.
  localparam int unsigned RangeW = (SIZE_W > ADDR_W ? SIZE_W : ADDR_W) + 1;
  // The entry's fields in stream order (field_q).
  localparam logic [2:0] FOp = 3'd0, FFlow = 3'd1, FParent = 3'd2, FChild = 3'd3, FStep = 3'd4,
                         FAddr = 3'd5, FSize = 3'd6, FPad = 3'd7;
  // An entry as stored: op, flow, parent, children[K], step, start_addr, size, the send
  // slots' routes (LSB first).
  localparam int unsigned RouteAt = 2 + NODE_W * (2 + K) + STEP_W + ADDR_W + SIZE_W;
  localparam int unsigned EntryW = RouteAt + K * ROUTE_W;
  // An entry before its fields are taken: nil children, everything else 0.
  localparam logic [EntryW-1:0] EntryEmpty = {(K * ROUTE_W + SIZE_W + ADDR_W + STEP_W)'(0),
                                              {K * NODE_W{1'b1}}, (2 * NODE_W + 2)'(0)};

  // ---- bus ------------------------------------------------------------------------------
  logic [31:0] word_q, word_d;         // the window word being digested
  logic [2:0]  word_left_q, word_left_d;
  logic        handshake, window_access;
  logic        resp_valid_d, resp_valid_q, resp_error_d, resp_error_q;
  logic [31:0] resp_data_d, resp_data_q;

  assign cfg_ready_o   = word_left_q == '0 && !extract;
  assign handshake     = cfg_valid_i && cfg_ready_o;
  // The window starts at CFG_IMAGE_BASE; below it the difference wraps and is large.
  assign window_access = cfg_addr_i - 32'(CFG_IMAGE_BASE) < 32'(CFG_IMAGE_WINDOW);

  // ---- loader state -----------------------------------------------------------------------
  logic [PosW-1:0]      pos_q, pos_d;          // bytes of the image digested
  logic [31:0]          crc_q, crc_d;
  logic [BufW-1:0]      buf_q, buf_d;          // entry bits not yet taken, LSB first
  logic [NbW-1:0]       nbits_q, nbits_d;      // how many
  logic [CntW-1:0]      taken_q, taken_d;      // entries whose bytes are all in
  logic [EposW-1:0]     ent_pos_q, ent_pos_d;  // bytes in of the entry coming in
  logic [PosW-1:0]      end_q, end_d;          // image bytes up to the last one kept
  logic [2:0]           field_q, field_d;      // the next field of the entry being decoded
  logic [ChildW-1:0]    child_q, child_d;      // its next child slot (field FChild)
  logic                 seen_nil_q, seen_nil_d;  // a nil child came before it
  logic [EntryW-1:0]    e_q, e_d;              // the entry's fields so far, as stored
  // Routes being found: [0] the node on route_node_o, [RouteLag] the route on route_i.
  localparam int unsigned RouteLag = 2;
  logic [RouteLag:0]    rt_q;                  // a send's node, its route on the way
  logic                 rt_d;
  logic [ChildW-1:0]    rt_slot_q [RouteLag+1];  // its send slot
  logic [ChildW-1:0]    rt_slot_d;
  logic [NODE_W-1:0]    rt_node_q, rt_node_d;  // the node
  logic [TABLE_ERROR_BITS-1:0] e_err_q, e_err_d;      // the first error in them
  logic [CntW-1:0]      ent_idx_q, ent_idx_d;  // entries decoded
  logic [TABLE_ERROR_BITS-1:0] err_q, err_d;          // first stream or entry error
  logic [PosW-1:0]      length_q, length_d;

  // ---- installed table ----------------------------------------------------------------------
  logic        active_q, active_d;   // bank in use; the loader fills the other
  logic [1:0]  status_q, status_d;
  logic [CntW-1:0] entries_q, entries_d;
  logic        dtype_q, dtype_d;
  logic [TABLE_ERROR_BITS-1:0] cause_q, cause_d;
  logic [EntryW-1:0] rd_q;             // the entry at last cycle's rd_idx_i

  // ---- the header, one field at a time ---------------------------------------------------
  // Header bytes shift into fld_q from the top, so in the cycle a field's last byte comes in
  // the field is the top of fld_d, that byte above the seven before it (little-endian). Each
  // check is made then and kept as a flag; hdr_err ranks the flags as IMAGE_FORMAT.md orders
  // the checks. What the entries and LOAD read of the header is kept narrowed to this
  // instance: a value outside the instance fails the capacity check, and nothing reads it
  // unless every check passed.
  logic [55:0]         fld_q;                 // the header's last seven bytes
  logic [63:0]         fld_d;                 // and this cycle's
  logic [63:0]         bytes_q, bytes_d;      // the buffer's bytes, until base_addr comes in
  logic                bad_magic_q, bad_magic_d, bad_version_q, bad_version_d;
  logic                bad_hbytes_q, bad_hbytes_d, bad_widths_q, bad_widths_d;
  logic                bad_dtype_q, bad_dtype_d, bad_wrap_q, bad_wrap_d;
  logic                bad_node_q, bad_node_d, bad_cap_q, bad_cap_d;
  logic [5:0]          want_node_q, want_node_d;   // the node, flow and step widths the
  logic [5:0]          want_flow_q, want_flow_d;   // counts call for (bit_width below)
  logic [5:0]          want_step_q, want_step_d;
  logic [13:0]         want_bits_q, want_bits_d;   // entry_bits, as far as the widths came in
  logic [7:0]          slots_q, slots_d;           // the header's children slots
  logic [13:0]         node_bits_q;                // want_node_q * (1 + slots_q)
  logic [NODE_W:0]     h_flows_q, h_flows_d;       // flows (at most 2^NODE_W)
  logic [CntW-1:0]     h_entries_q, h_entries_d;
  logic [STEP_W-1:0]   h_steps_q, h_steps_d;
  logic [KW-1:0]       h_k_q, h_k_d;
  logic [6:0]          h_flow_bits_q, h_flow_bits_d, h_node_bits_q, h_node_bits_d;
  logic [6:0]          h_step_bits_q, h_step_bits_d, h_addr_bits_q, h_addr_bits_d;
  logic [6:0]          h_size_bits_q, h_size_bits_d;
  logic                h_dtype_q, h_dtype_d;
  logic [2:0]          h_pad_q, h_pad_d;           // entry_bits mod 8
  logic [EposW-1:0]    h_entry_bytes_q, h_entry_bytes_d;
  logic [RangeW-1:0]   h_base_q, h_base_d, h_end_q, h_end_d;  // the buffer [base, end)
  logic [31:0]         h_crc_q, h_crc_d;

  // Bits needed to write v (0 for 0): C++20 std::bit_width.
  function automatic logic [5:0] bit_width(input logic [31:0] v);
    bit_width = '0;
    for (int i = 0; i < 32; i++) begin
      if (v[i]) bit_width = 6'(i + 1);
    end
  endfunction

  // The byte digested in this cycle (hdr_byte: a header byte) ends the field at `offset` of
  // `size` bytes.
  logic       digest, keep, hdr_byte;
  logic [7:0] byte_in;
  assign byte_in  = word_q[7:0];
  assign hdr_byte = digest && pos_q < PosW'(IMG_HEADER_BYTES);
  function automatic logic ends(input logic [PosW-1:0] pos, input int offset, input int size);
    ends = pos == PosW'(offset + size - 1);
  endfunction

  logic [TABLE_ERROR_BITS-1:0] hdr_err;
  always_comb begin
    hdr_err = TABLE_ERROR_NONE;
    if (bad_magic_q) hdr_err = TABLE_ERROR_MAGIC;
    else if (bad_version_q) hdr_err = TABLE_ERROR_VERSION;
    else if (bad_hbytes_q) hdr_err = TABLE_ERROR_HEADER_BYTES;
    else if (bad_widths_q) hdr_err = TABLE_ERROR_WIDTHS;
    else if (bad_dtype_q) hdr_err = TABLE_ERROR_DTYPE;
    else if (bad_wrap_q) hdr_err = TABLE_ERROR_WRAP;
    else if (bad_node_q) hdr_err = TABLE_ERROR_NODE;
    else if (bad_cap_q) hdr_err = TABLE_ERROR_CAPACITY;
  end

  // The checks of IMAGE_FORMAT.md ("Validity"), each in the cycle its field is complete (the
  // fields a check reads come before it in the header). entry_bits cannot exceed 65535: its
  // formula is at most 2 + 32 + 32 * 256 + 33 + 2 * 255.
  always_comb begin
    logic [31:0] v32, count;
    logic [15:0] v16;
    logic [7:0]  v8;
    logic [5:0]  bw;
    logic [64:0] buffer_end;
    fld_d = {byte_in, fld_q};
    v32 = fld_d[63 -: 32];
    v16 = fld_d[63 -: 16];
    v8 = fld_d[63 -: 8];
    // The one bit_width, of the count of the field ending (flows - 1, or 0 for no flows).
    count = ends(pos_q, IMG_FLOWS_OFFSET, 4) && v32 != '0 ? v32 - 32'd1 : v32;
    bw = bit_width(count);
    buffer_end = 65'(fld_d) + 65'(bytes_q);
    {bad_magic_d, bad_version_d, bad_hbytes_d, bad_widths_d} =
        {bad_magic_q, bad_version_q, bad_hbytes_q, bad_widths_q};
    {bad_dtype_d, bad_wrap_d, bad_node_d, bad_cap_d} =
        {bad_dtype_q, bad_wrap_q, bad_node_q, bad_cap_q};
    {want_node_d, want_flow_d, want_step_d, want_bits_d} =
        {want_node_q, want_flow_q, want_step_q, want_bits_q};
    slots_d = slots_q;
    {h_flows_d, h_entries_d, h_steps_d, h_k_d} = {h_flows_q, h_entries_q, h_steps_q, h_k_q};
    {h_flow_bits_d, h_node_bits_d, h_step_bits_d, h_addr_bits_d, h_size_bits_d} =
        {h_flow_bits_q, h_node_bits_q, h_step_bits_q, h_addr_bits_q, h_size_bits_q};
    {h_dtype_d, h_pad_d, h_entry_bytes_d} = {h_dtype_q, h_pad_q, h_entry_bytes_q};
    {bytes_d, h_base_d, h_end_d, h_crc_d} = {bytes_q, h_base_q, h_end_q, h_crc_q};
    if (hdr_byte) begin
      if (ends(pos_q, IMG_MAGIC_OFFSET, 4)) bad_magic_d = v32 != IMG_MAGIC;
      if (ends(pos_q, IMG_VERSION_OFFSET, 2)) bad_version_d = 32'(v16) != 32'(IMG_VERSION);
      if (ends(pos_q, IMG_HEADER_BYTES_OFFSET, 2)) begin
        bad_hbytes_d = 32'(v16) != 32'(IMG_HEADER_BYTES);
      end
      if (ends(pos_q, IMG_NODE_ID_OFFSET, 4)) begin
        bad_node_d = v32 != 32'(node_id_i) || node_id_i >= nodes_i;
      end
      if (ends(pos_q, IMG_NODES_OFFSET, 4)) begin
        if (v32 != 32'(nodes_i)) bad_node_d = 1'b1;
        bad_widths_d = v32 == '0;
        want_node_d = bw;
      end
      if (ends(pos_q, IMG_FLOWS_OFFSET, 4)) begin
        want_flow_d = bw == '0 ? 6'd1 : bw;
        h_flows_d = v32[NODE_W:0];
      end
      if (ends(pos_q, IMG_ENTRIES_OFFSET, 4)) begin
        bad_cap_d = v32 > DEPTH;
        h_entries_d = v32[CntW-1:0];
      end
      if (ends(pos_q, IMG_STEPS_PER_PHASE_OFFSET, 4)) begin
        want_step_d = v32 == '0 ? '0 : bw + 6'd1;
        h_steps_d = v32[STEP_W-1:0];
      end
      if (ends(pos_q, IMG_CHILDREN_SLOTS_OFFSET, 1)) begin
        if (32'(v8) > K) bad_cap_d = 1'b1;
        h_k_d = v8[KW-1:0];
        slots_d = v8;
      end
      // The entry's bits so far, two bytes after the children slots, from the node ids'
      // bits the slots make (node_bits_q, a register's product of registers).
      if (ends(pos_q, IMG_CHILDREN_SLOTS_OFFSET + 2, 1)) begin
        want_bits_d = 14'(IMG_OP_BITS) + 14'(want_flow_q) + node_bits_q + 14'(want_step_q);
      end
      if (ends(pos_q, IMG_OP_BITS_OFFSET, 1) && 32'(v8) != 32'(IMG_OP_BITS)) bad_widths_d = 1'b1;
      if (ends(pos_q, IMG_FLOW_BITS_OFFSET, 1)) begin
        if (v8 != 8'(want_flow_q)) bad_widths_d = 1'b1;
        if (32'(v8) > NODE_W) bad_cap_d = 1'b1;
        h_flow_bits_d = v8[6:0];
      end
      if (ends(pos_q, IMG_NODE_BITS_OFFSET, 1)) begin
        if (v8 != 8'(want_node_q)) bad_widths_d = 1'b1;
        if (32'(v8) > NODE_W) bad_cap_d = 1'b1;
        h_node_bits_d = v8[6:0];
      end
      if (ends(pos_q, IMG_STEP_BITS_OFFSET, 1)) begin
        if (v8 != 8'(want_step_q)) bad_widths_d = 1'b1;
        if (32'(v8) > STEP_W) bad_cap_d = 1'b1;
        h_step_bits_d = v8[6:0];
      end
      if (ends(pos_q, IMG_ADDR_BITS_OFFSET, 1)) begin
        if (v8 == '0 || v8 > 8'd64) bad_widths_d = 1'b1;
        if (32'(v8) > ADDR_W) bad_cap_d = 1'b1;
        h_addr_bits_d = v8[6:0];
        want_bits_d = want_bits_q + 14'(v8);
      end
      if (ends(pos_q, IMG_SIZE_BITS_OFFSET, 1)) begin
        if (v8 == '0 || v8 > 8'd64) bad_widths_d = 1'b1;
        if (32'(v8) > SIZE_W) bad_cap_d = 1'b1;
        h_size_bits_d = v8[6:0];
        want_bits_d = want_bits_q + 14'(v8);
      end
      if (ends(pos_q, IMG_DTYPE_OFFSET, 1)) begin
        bad_dtype_d = v8 > 8'd1;
        h_dtype_d = v8[0];
      end
      if (ends(pos_q, IMG_ENTRY_BITS_OFFSET, 2)) begin
        if (v16 != 16'(want_bits_q)) bad_widths_d = 1'b1;
        h_pad_d = v16[2:0];
      end
      if (ends(pos_q, IMG_ENTRY_BYTES_OFFSET, 2)) begin
        if (v16 != (16'(want_bits_q) + 16'd7) >> 3) bad_widths_d = 1'b1;
        h_entry_bytes_d = v16[EposW-1:0];
      end
      if (ends(pos_q, IMG_BYTES_OFFSET, 8)) bytes_d = fld_d;
      if (ends(pos_q, IMG_BASE_ADDR_OFFSET, 8)) begin
        bad_wrap_d = buffer_end[64] && buffer_end[63:0] != '0;
        if (buffer_end > (65'd1 << ADDR_W)) bad_cap_d = 1'b1;
        h_base_d = RangeW'(fld_d);
        h_end_d = RangeW'(buffer_end);
      end
      if (ends(pos_q, IMG_CRC32_OFFSET, 4)) h_crc_d = v32;
    end
  end

  // ---- the entry's fields, one a cycle from the bit buffer ------------------------------------
  logic              entry_phase;  // the header is in and right
  logic              extract;      // a field is taken in this cycle
  logic [NbW-1:0]    fw;           // the width of field_q
  logic [FieldW-1:0] val;          // its value
  logic              val_nil;      // as a node field: nil (all ones in the image's node_bits)
  logic [TABLE_ERROR_BITS-1:0] f_err;        // what its check finds
  logic              e_done;       // the entry's last field (its pad) is taken
  logic              pad_bad;      // the field taken, as a pad, is not zero
  logic [TABLE_ERROR_BITS-1:0] e_final;      // the entry's first error, its pad included
  logic              restart;      // a window write at the base starts a new image

  assign entry_phase = pos_q >= PosW'(IMG_HEADER_BYTES) && hdr_err == TABLE_ERROR_NONE;

  always_comb begin
    unique case (field_q)
      FOp:             fw = NbW'(IMG_OP_BITS);
      FFlow:           fw = NbW'(h_flow_bits_q);
      FParent, FChild: fw = NbW'(h_node_bits_q);
      FStep:           fw = NbW'(h_step_bits_q);
      FAddr:           fw = NbW'(h_addr_bits_q);
      FSize:           fw = NbW'(h_size_bits_q);
      default:         fw = NbW'(3'(3'd0 - h_pad_q));  // FPad: up to the byte
    endcase
  end

  assign extract = entry_phase && ent_idx_q < h_entries_q && nbits_q >= fw;
  assign val = buf_q[FieldW-1:0] & ~({FieldW{1'b1}} << fw);
  assign val_nil = val[NODE_W-1:0] == NODE_W'(~({NODE_W{1'b1}} << h_node_bits_q));
  assign e_done = extract && field_q == FPad;
  assign pad_bad = val[7:0] != '0;

  // The check of the field being taken, in IMAGE_FORMAT.md's order (the first error of an
  // entry is the one reported, so the order of the fields is the order of the checks). The
  // header passed its checks, so its nodes are nodes_i and its kept values are exact.
  always_comb begin
    logic [NODE_W-1:0] node;
    logic [RangeW-1:0] addr, room;
    node = val[NODE_W-1:0];
    addr = RangeW'(e_q[2 + (2 + K) * NODE_W + STEP_W +: ADDR_W]);
    room = h_end_q - addr;  // the bytes from addr to the buffer's end, where addr <= end
    f_err = TABLE_ERROR_NONE;
    unique case (field_q)
      FOp:     f_err = TABLE_ERROR_NONE;  // every 2-bit op is one (nop, reduce, gather, put)
      FFlow:   if ({1'b0, node} >= h_flows_q) f_err = TABLE_ERROR_ENTRY_FLOW;
      FParent: if ((!val_nil && node >= nodes_i) || (32'(e_q[1:0]) == OP_NOP && !val_nil)) begin
                 f_err = TABLE_ERROR_ENTRY_NODE;
               end
      FChild:  if (!val_nil && (seen_nil_q || node >= nodes_i)) f_err = TABLE_ERROR_ENTRY_NODE;
      FStep:   if (val[STEP_W-1:0] == '0 || {1'b0, val[STEP_W-1:0]} > {h_steps_q, 1'b0}) begin
                 f_err = TABLE_ERROR_ENTRY_STEP;
               end
      FAddr:   f_err = TABLE_ERROR_NONE;  // checked with the size
      // [addr, addr + size) inside [base, end): the size within the room (computed from the
      // registers, beside the field's extraction).
      FSize:   if (addr < h_base_q || addr > h_end_q || RangeW'(val[SIZE_W-1:0]) > room ||
                   (32'(e_q[1:0]) != OP_NOP && val[SIZE_W-1:0] == '0)) begin
                 f_err = TABLE_ERROR_ENTRY_RANGE;
               end
      default: if (pad_bad) f_err = TABLE_ERROR_ENTRY_PAD;
    endcase
    e_final = e_err_q != TABLE_ERROR_NONE ? e_err_q : f_err;
  end

  // The entry's state after this cycle's field: the field placed where the bank stores it
  // (node fields as NODE_W bits, nil as all ones), the next field chosen.
  always_comb begin
    e_d = e_q;
    e_err_d = e_err_q;
    field_d = field_q;
    child_d = child_q;
    seen_nil_d = seen_nil_q;
    rt_d = 1'b0;
    rt_slot_d = child_q;
    rt_node_d = val[NODE_W-1:0];
    if (rt_q[RouteLag]) e_d[RouteAt + ROUTE_W * 32'(rt_slot_q[RouteLag]) +: ROUTE_W] = route_i;
    if (extract) begin
      if (e_err_q == TABLE_ERROR_NONE) e_err_d = f_err;
      field_d = field_q + 3'd1;
      unique case (field_q)
        FOp:     e_d[1:0] = val[1:0];
        FFlow:   e_d[2 +: NODE_W] = val[NODE_W-1:0];
        FParent: begin
          e_d[2 + NODE_W +: NODE_W] = val_nil ? '1 : val[NODE_W-1:0];
          rt_d = !val_nil && 32'(e_q[1:0]) == OP_REDUCE;
          rt_slot_d = '0;
          child_d = '0;
          if (h_k_q == '0) field_d = FStep;
        end
        FChild: begin
          if (val_nil) seen_nil_d = 1'b1;
          else e_d[2 + (2 + 32'(child_q)) * NODE_W +: NODE_W] = val[NODE_W-1:0];
          rt_d = !val_nil && (32'(e_q[1:0]) == OP_GATHER || 32'(e_q[1:0]) == OP_PUT);
          child_d = child_q + ChildW'(1);
          if (32'(child_q) + 32'd1 != 32'(h_k_q)) field_d = FChild;
        end
        FStep:   e_d[2 + (2 + K) * NODE_W +: STEP_W] = val[STEP_W-1:0];
        FAddr:   e_d[2 + (2 + K) * NODE_W + STEP_W +: ADDR_W] = val[ADDR_W-1:0];
        FSize:   e_d[2 + (2 + K) * NODE_W + STEP_W + ADDR_W +: SIZE_W] = val[SIZE_W-1:0];
        default: ;
      endcase
    end
    if (e_done || restart) begin  // the next entry starts with nil children, no error
      e_d = EntryEmpty;
      e_err_d = TABLE_ERROR_NONE;
      field_d = FOp;
      seen_nil_d = 1'b0;
    end
  end

  // ---- digest one byte per cycle --------------------------------------------------------------
  logic [31:0] crc_next;

  // An entry byte waits while the buffer has no room for it.
  assign keep    = entry_phase && taken_q < h_entries_q;
  assign digest  = word_left_q != '0 && !(keep && nbits_q > NbW'(FieldW));
  assign restart = handshake && cfg_write_i && window_access &&
                   cfg_addr_i == 32'(CFG_IMAGE_BASE);

  image_crc32 u_crc (
    .crc_i (crc_q),
    .byte_i(byte_in),
    .crc_o (crc_next)
  );

  always_comb begin
    logic [BufW-1:0] filled;
    word_d = word_q;
    word_left_d = word_left_q;
    pos_d = pos_q;
    crc_d = crc_q;
    ent_pos_d = ent_pos_q;
    taken_d = taken_q;
    end_d = end_q;
    ent_idx_d = ent_idx_q;
    err_d = err_q;
    filled = buf_q;

    // The entry decoded in this cycle: its error, if it is the image's first.
    if (e_done) begin
      if (err_d == TABLE_ERROR_NONE) err_d = e_final;
      ent_idx_d = ent_idx_q + CntW'(1);
    end

    if (digest) begin
      word_d = word_q >> 8;
      word_left_d = word_left_q - 3'd1;
      // Past the window every write was out of order (TABLE_ERROR_ORDER): pos_q stops there.
      if (pos_q != '1) pos_d = pos_q + PosW'(1);
      if (hdr_byte) begin
        if (pos_q < PosW'(IMG_CRC32_OFFSET)) crc_d = crc_next;
        end_d = pos_q + PosW'(1);
      end else if (keep) begin
        crc_d = crc_next;
        filled = buf_q | (BufW'(byte_in) << nbits_q);
        end_d = pos_q + PosW'(1);
        if (ent_pos_q + EposW'(1) == h_entry_bytes_q) begin
          taken_d = taken_q + CntW'(1);
          ent_pos_d = '0;
        end else begin
          ent_pos_d = ent_pos_q + EposW'(1);
        end
      end
    end
    buf_d = filled >> (extract ? fw : '0);
    nbits_d = nbits_q + (digest && keep ? NbW'(8) : '0) - (extract ? fw : '0);

    // A window write starts an image (at the base) or continues it (at the next word).
    if (handshake && cfg_write_i && window_access) begin
      word_d = cfg_wdata_i;
      word_left_d = 3'd4;
      if (restart) begin
        pos_d = '0;
        crc_d = '1;
        buf_d = '0;
        nbits_d = '0;
        ent_pos_d = '0;
        taken_d = '0;
        end_d = '0;
        ent_idx_d = '0;
        err_d = TABLE_ERROR_NONE;
      end else if (cfg_addr_i - 32'(CFG_IMAGE_BASE) != 32'(pos_q) && err_d == TABLE_ERROR_NONE) begin
        err_d = TABLE_ERROR_ORDER;
      end
    end
  end

  // ---- registers and LOAD ----------------------------------------------------------------------
  logic [TABLE_ERROR_BITS-1:0] load_err;

  always_comb begin
    load_err = err_q;
    if (pos_q < PosW'(IMG_HEADER_BYTES)) begin
      load_err = TABLE_ERROR_LENGTH;
    end else if (hdr_err != TABLE_ERROR_NONE) begin
      load_err = hdr_err;
    end else if (load_err == TABLE_ERROR_NONE && (ent_idx_q != h_entries_q || length_q != end_q ||
                 pos_q < length_q || pos_q - length_q >= PosW'(4))) begin
      load_err = TABLE_ERROR_LENGTH;
    end else if (load_err == TABLE_ERROR_NONE && (crc_q ^ 32'hFFFF_FFFF) != h_crc_q) begin
      load_err = TABLE_ERROR_CRC;
    end
  end

  always_comb begin
    resp_valid_d = handshake;
    resp_error_d = 1'b0;
    resp_data_d = '0;
    length_d = length_q;
    active_d = active_q;
    status_d = status_q;
    entries_d = entries_q;
    dtype_d = dtype_q;
    cause_d = cause_q;
    if (handshake) begin
      if (window_access) begin
        resp_error_d = !cfg_write_i;
      end else begin
        unique case (cfg_addr_i)
          32'(CFG_REG_LENGTH): begin
            if (!cfg_write_i || cfg_wdata_i > 32'(CFG_IMAGE_WINDOW)) resp_error_d = 1'b1;
            else length_d = PosW'(cfg_wdata_i);
          end
          32'(CFG_REG_LOAD): begin
            if (!cfg_write_i || cfg_wdata_i != 32'd1) begin
              resp_error_d = 1'b1;
            end else if (load_err == TABLE_ERROR_NONE) begin
              active_d = !active_q;
              status_d = 2'(TABLE_STATUS_LOADED);
              entries_d = h_entries_q;
              dtype_d = h_dtype_q;
              cause_d = TABLE_ERROR_NONE;
            end else begin
              status_d = 2'(TABLE_STATUS_ERROR);
              cause_d = load_err;
            end
          end
          32'(CFG_REG_STATUS): begin
            resp_error_d = cfg_write_i;
            resp_data_d = 32'(status_q);
          end
          32'(CFG_REG_ENTRIES): begin
            resp_error_d = cfg_write_i;
            resp_data_d = 32'(entries_q);
          end
          default: resp_error_d = 1'b1;
        endcase
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      word_q <= '0;
      word_left_q <= '0;
      pos_q <= '0;
      crc_q <= '1;
      buf_q <= '0;
      nbits_q <= '0;
      taken_q <= '0;
      ent_pos_q <= '0;
      end_q <= '0;
      field_q <= FOp;
      child_q <= '0;
      seen_nil_q <= 1'b0;
      rt_q <= '0;
      e_q <= EntryEmpty;
      e_err_q <= TABLE_ERROR_NONE;
      ent_idx_q <= '0;
      err_q <= TABLE_ERROR_NONE;
      length_q <= '0;
      active_q <= 1'b0;
      status_q <= 2'(TABLE_STATUS_EMPTY);
      entries_q <= '0;
      dtype_q <= 1'b0;
      cause_q <= TABLE_ERROR_NONE;
      resp_valid_q <= 1'b0;
      resp_error_q <= 1'b0;
      resp_data_q <= '0;
    end else begin
      word_q <= word_d;
      word_left_q <= word_left_d;
      pos_q <= pos_d;
      crc_q <= crc_d;
      buf_q <= buf_d;
      nbits_q <= nbits_d;
      taken_q <= taken_d;
      ent_pos_q <= ent_pos_d;
      end_q <= end_d;
      field_q <= field_d;
      child_q <= child_d;
      seen_nil_q <= seen_nil_d;
      rt_q <= restart ? '0 : {rt_q[RouteLag-1:0], rt_d};
      e_q <= e_d;
      e_err_q <= e_err_d;
      ent_idx_q <= ent_idx_d;
      err_q <= err_d;
      length_q <= length_d;
      active_q <= active_d;
      status_q <= status_d;
      entries_q <= entries_d;
      dtype_q <= dtype_d;
      cause_q <= cause_d;
      resp_valid_q <= resp_valid_d;
      resp_error_q <= resp_error_d;
      resp_data_q <= resp_data_d;
    end
  end

  // The header's registers: each is written in the cycle its field comes in, before anything
  // reads it, so they need no reset.
  always_ff @(posedge clk_i) begin
    if (hdr_byte) fld_q <= fld_d[63:8];
    bytes_q <= bytes_d;
    {bad_magic_q, bad_version_q, bad_hbytes_q, bad_widths_q} <=
        {bad_magic_d, bad_version_d, bad_hbytes_d, bad_widths_d};
    {bad_dtype_q, bad_wrap_q, bad_node_q, bad_cap_q} <=
        {bad_dtype_d, bad_wrap_d, bad_node_d, bad_cap_d};
    {want_node_q, want_flow_q, want_step_q, want_bits_q} <=
        {want_node_d, want_flow_d, want_step_d, want_bits_d};
    slots_q <= slots_d;
    node_bits_q <= 14'(want_node_q) * (14'd1 + 14'(slots_q));
    {h_flows_q, h_entries_q, h_steps_q, h_k_q} <= {h_flows_d, h_entries_d, h_steps_d, h_k_d};
    {h_flow_bits_q, h_node_bits_q, h_step_bits_q, h_addr_bits_q, h_size_bits_q} <=
        {h_flow_bits_d, h_node_bits_d, h_step_bits_d, h_addr_bits_d, h_size_bits_d};
    {h_dtype_q, h_pad_q, h_entry_bytes_q} <= {h_dtype_d, h_pad_d, h_entry_bytes_d};
    {h_base_q, h_end_q, h_crc_q} <= {h_base_d, h_end_d, h_crc_d};
    rt_node_q <= rt_node_d;
    rt_slot_q[0] <= rt_slot_d;
    for (int i = 1; i <= RouteLag; i++) rt_slot_q[i] <= rt_slot_q[i-1];
  end

  // The banks, one storage array of 2 * DEPTH entries (bank, index): the loader writes the
  // inactive bank, the head port reads the active one (registered reads: the head entry and the
  // next). An entry is written in the cycle its pad is taken, whether or not it and the image
  // so far are right: an image with an error never becomes the table, so what it left in the
  // inactive bank is never read (and the write enable waits for no check). The write port is
  // registered with no bypass: an image is installed (LOAD) only once its last entry was taken
  // in an earlier cycle, so its writes have landed before its bank is first read.
  logic bank_we;
  /* verilator lint_off UNUSEDSIGNAL */  // of the next entry only its wait fields are read
  logic [EntryW-1:0] nx_q;
  /* verilator lint_on UNUSEDSIGNAL */
  assign bank_we = e_done && 32'(ent_idx_q) < DEPTH;
  storage_array #(
    .WIDTH(EntryW), .DEPTH(2 * DEPTH), .WRITES(1), .READS(2), .SYNC_READ(1'b1),
    .WRITE_REG(1'b1), .BYPASS(1'b0)
  ) u_banks (
    .clk_i,
    .we_i(bank_we),
    .waddr_i({!active_q, ent_idx_q[IDX_W-1:0]}), .wmask_i(1'b1), .wdata_i(e_q),
    .raddr_i({active_q, rd_idx_next_i, active_q, rd_idx_i}), .re_i({2{rd_en_i}}),
    .rdata_o({nx_q, rd_q})
  );

`ifndef SYNTHESIS
  // A table installed while the reader holds its head entry would leave the old table's entry.
  logic installed_q;
  always_ff @(posedge clk_i) begin
    installed_q <= rst_ni && active_d != active_q;
    if (rst_ni && installed_q && !rd_en_i) begin
      $error("schedule_table: a table installed while a run has an entry due");
    end
  end
`endif

  assign cfg_rvalid_o  = resp_valid_q;
  assign cfg_error_o   = resp_error_q;
  assign cfg_rdata_o   = resp_data_q;
  assign status_o      = status_q;
  assign entries_o     = 32'(entries_q);
  assign dtype_o       = dtype_q;
  assign error_cause_o = cause_q;

  assign rd_op_o       = rd_q[1:0];
  assign rd_flow_o     = rd_q[2 +: NODE_W];
  assign rd_parent_o   = rd_q[2 + NODE_W +: NODE_W];
  assign rd_children_o = rd_q[2 + 2 * NODE_W +: K * NODE_W];
  assign rd_step_o     = rd_q[2 + (2 + K) * NODE_W +: STEP_W];
  assign rd_addr_o     = rd_q[2 + (2 + K) * NODE_W + STEP_W +: ADDR_W];
  assign rd_size_o     = rd_q[2 + (2 + K) * NODE_W + STEP_W + ADDR_W +: SIZE_W];
  assign rd_routes_o   = rd_q[RouteAt +: K * ROUTE_W];
  assign nx_op_o       = nx_q[1:0];
  assign nx_flow_o     = nx_q[2 +: NODE_W];
  assign nx_parent_o   = nx_q[2 + NODE_W +: NODE_W];
  assign nx_children_o = nx_q[2 + 2 * NODE_W +: K * NODE_W];
  assign route_node_o  = rt_node_q;

endmodule
