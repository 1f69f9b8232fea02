// The NI's all-reduce schedule table (paper §IV-A, Fig. 6) with its image loader. SystemC
// twin: systemc/ni/schedule_table.hpp; image format: host_sw/image/IMAGE_FORMAT.md; register
// map: format/ni_formats.json (`config`); bus and behaviour: rtl/README.md.
//
// Loading. The host streams a node's .bin image into the image window as 32-bit words at
// increasing addresses from the window base (a write at the base starts a new image), writes
// LENGTH and then 1 to LOAD. The loader digests one byte per cycle and the CRC runs over the
// covered bytes: header bytes go to a header register, entry bytes into a bit buffer from
// which one field a cycle is taken (op, flow, parent, the children, step, start_addr, size,
// the pad), each as wide as the header says, checked as it is taken and placed in the entry;
// an entry whose pad is taken is written into the inactive bank. cfg_ready_o is low while a
// word's bytes are digested or a field can be taken. LOAD accepts the image
// when the header, every entry, the length and the CRC are right: the loaded bank becomes the
// table and STATUS reads loaded. Otherwise STATUS reads error, error_cause_o says why, and the
// previous table stays. The checks are the reader's of IMAGE_FORMAT.md ("Validity") plus the
// capacity of this instance (parameters below).
//
// Reading. rd_idx_i selects an entry of the installed table; its fields appear on rd_*_o in
// the next cycle (a synchronous read, as an SRAM macro gives it). Node fields hold nil as all
// ones in NODE_W bits, whatever the image's node_bits.
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
  output logic [4:0]          error_cause_o,
  // Head read port.
  input  logic [IDX_W-1:0]    rd_idx_i,
  output logic [1:0]          rd_op_o,
  output logic [NODE_W-1:0]   rd_flow_o,
  output logic [NODE_W-1:0]   rd_parent_o,
  output logic [K*NODE_W-1:0] rd_children_o,
  output logic [STEP_W-1:0]   rd_step_o,
  output logic [ADDR_W-1:0]   rd_addr_o,
  output logic [SIZE_W-1:0]   rd_size_o
);

  `include "ni_formats.svh"

  // error_cause_o: the first check that failed (0: none).
  localparam logic [4:0] ErrNone = 5'd0;
  localparam logic [4:0] ErrMagic = 5'd1;         // magic is not MTST
  localparam logic [4:0] ErrVersion = 5'd2;       // version is not 1
  localparam logic [4:0] ErrHeaderBytes = 5'd3;   // header_bytes is not 60
  localparam logic [4:0] ErrWidths = 5'd4;        // a width differs from its formula, nodes = 0
  localparam logic [4:0] ErrDtype = 5'd5;         // dtype is not 0 or 1
  localparam logic [4:0] ErrWrap = 5'd6;          // base_addr + bytes > 2^64
  localparam logic [4:0] ErrNode = 5'd7;          // node_id/nodes are not this NI's
  localparam logic [4:0] ErrCapacity = 5'd8;      // more than the parameters allow
  localparam logic [4:0] ErrLength = 5'd9;        // LENGTH, the bytes streamed and the header disagree
  localparam logic [4:0] ErrCrc = 5'd10;          // the CRC does not match
  localparam logic [4:0] ErrEntryOp = 5'd11;      // op 3
  localparam logic [4:0] ErrEntryFlow = 5'd12;    // flow >= flows
  localparam logic [4:0] ErrEntryNode = 5'd13;    // parent/child not a node or nil, child after nil, NOP with a parent
  localparam logic [4:0] ErrEntryStep = 5'd14;    // step outside 1..2T
  localparam logic [4:0] ErrEntryRange = 5'd15;   // [start_addr, +size) outside the buffer, or a send of 0 bytes
  localparam logic [4:0] ErrEntryPad = 5'd16;     // a pad bit is 1
  localparam logic [4:0] ErrOrder = 5'd17;        // a window write that is not the next word

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
  localparam int unsigned ChildW = K > 1 ? $clog2(K) : 1;
  // Range arithmetic: base_addr and bytes fit ADDR_W + 1 bits once the header is accepted.
  localparam int unsigned RangeW = (SIZE_W > ADDR_W ? SIZE_W : ADDR_W) + 1;
  // The entry's fields in stream order (field_q).
  localparam logic [2:0] FOp = 3'd0, FFlow = 3'd1, FParent = 3'd2, FChild = 3'd3, FStep = 3'd4,
                         FAddr = 3'd5, FSize = 3'd6, FPad = 3'd7;
  // An entry as stored: op, flow, parent, children[K], step, start_addr, size (LSB first).
  localparam int unsigned EntryW = 2 + NODE_W * (2 + K) + STEP_W + ADDR_W + SIZE_W;
  localparam int unsigned HdrBits = 8 * IMG_HEADER_BYTES;
  // An entry before its fields are taken: nil children, everything else 0.
  localparam logic [EntryW-1:0] EntryEmpty = {(SIZE_W + ADDR_W + STEP_W)'(0), {K * NODE_W{1'b1}},
                                              (2 * NODE_W + 2)'(0)};

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
  logic [31:0]          pos_q, pos_d;          // bytes of the image digested
  logic [HdrBits-1:0]   hdr_q, hdr_d;
  logic [31:0]          crc_q, crc_d;
  logic [BufW-1:0]      buf_q, buf_d;          // entry bits not yet taken, LSB first
  logic [NbW-1:0]       nbits_q, nbits_d;      // how many
  logic [CntW-1:0]      taken_q, taken_d;      // entries whose bytes are all in
  logic [EposW-1:0]     ent_pos_q, ent_pos_d;  // bytes in of the entry coming in
  logic [31:0]          end_q, end_d;          // image bytes up to the last one kept
  logic [2:0]           field_q, field_d;      // the next field of the entry being decoded
  logic [ChildW-1:0]    child_q, child_d;      // its next child slot (field FChild)
  logic                 seen_nil_q, seen_nil_d;  // a nil child came before it
  logic [EntryW-1:0]    e_q, e_d;              // the entry's fields so far, as stored
  logic [4:0]           e_err_q, e_err_d;      // the first error in them
  logic [CntW-1:0]      ent_idx_q, ent_idx_d;  // entries decoded
  logic [4:0]           err_q, err_d;          // first stream or entry error
  logic [31:0]          length_q, length_d;

  // ---- installed table ----------------------------------------------------------------------
  logic        active_q, active_d;   // bank in use; the loader fills the other
  logic [1:0]  status_q, status_d;
  logic [31:0] entries_q, entries_d;
  logic        dtype_q, dtype_d;
  logic [4:0]  cause_q, cause_d;
  logic [EntryW-1:0] rd_q;             // the entry at last cycle's rd_idx_i

  // ---- header fields (little-endian, from the generated offsets) ----------------------------
  logic [31:0] h_magic, h_node_id, h_nodes, h_flows, h_entries, h_steps, h_crc;
  logic [15:0] h_version, h_header_bytes, h_entry_bits, h_entry_bytes;
  logic [7:0]  h_k, h_op_bits, h_flow_bits, h_node_bits, h_step_bits, h_addr_bits, h_size_bits;
  logic [7:0]  h_dtype;
  logic [63:0] h_bytes, h_base;

  assign h_magic        = hdr_q[8*IMG_MAGIC_OFFSET +: 32];
  assign h_version      = hdr_q[8*IMG_VERSION_OFFSET +: 16];
  assign h_header_bytes = hdr_q[8*IMG_HEADER_BYTES_OFFSET +: 16];
  assign h_node_id      = hdr_q[8*IMG_NODE_ID_OFFSET +: 32];
  assign h_nodes        = hdr_q[8*IMG_NODES_OFFSET +: 32];
  assign h_flows        = hdr_q[8*IMG_FLOWS_OFFSET +: 32];
  assign h_entries      = hdr_q[8*IMG_ENTRIES_OFFSET +: 32];
  assign h_steps        = hdr_q[8*IMG_STEPS_PER_PHASE_OFFSET +: 32];
  assign h_k            = hdr_q[8*IMG_CHILDREN_SLOTS_OFFSET +: 8];
  assign h_op_bits      = hdr_q[8*IMG_OP_BITS_OFFSET +: 8];
  assign h_flow_bits    = hdr_q[8*IMG_FLOW_BITS_OFFSET +: 8];
  assign h_node_bits    = hdr_q[8*IMG_NODE_BITS_OFFSET +: 8];
  assign h_step_bits    = hdr_q[8*IMG_STEP_BITS_OFFSET +: 8];
  assign h_addr_bits    = hdr_q[8*IMG_ADDR_BITS_OFFSET +: 8];
  assign h_size_bits    = hdr_q[8*IMG_SIZE_BITS_OFFSET +: 8];
  assign h_dtype        = hdr_q[8*IMG_DTYPE_OFFSET +: 8];
  assign h_entry_bits   = hdr_q[8*IMG_ENTRY_BITS_OFFSET +: 16];
  assign h_entry_bytes  = hdr_q[8*IMG_ENTRY_BYTES_OFFSET +: 16];
  assign h_bytes        = hdr_q[8*IMG_BYTES_OFFSET +: 64];
  assign h_base         = hdr_q[8*IMG_BASE_ADDR_OFFSET +: 64];
  assign h_crc          = hdr_q[8*IMG_CRC32_OFFSET +: 32];

  // Bits needed to write v (0 for 0): C++20 std::bit_width.
  function automatic logic [6:0] bit_width(input logic [63:0] v);
    bit_width = '0;
    for (int i = 0; i < 64; i++) begin
      if (v[i]) bit_width = 7'(i + 1);
    end
  endfunction

  // ---- header checks (valid once the 60 header bytes are in) --------------------------------
  logic [6:0]  want_flow_bits, want_node_bits, want_step_bits;
  logic [31:0] want_entry_bits, want_entry_bytes;
  logic [64:0] buffer_end;   // base_addr + bytes, 65 bits
  logic [4:0]  hdr_err;

  always_comb begin
    want_flow_bits = bit_width(h_flows == '0 ? 64'd0 : 64'(h_flows) - 64'd1);
    if (want_flow_bits == '0) want_flow_bits = 7'd1;
    want_node_bits = bit_width(64'(h_nodes));
    want_step_bits = bit_width(64'(h_steps) << 1);
    want_entry_bits = 32'(IMG_OP_BITS) + 32'(want_flow_bits) +
                      32'(want_node_bits) * (32'd1 + 32'(h_k)) + 32'(want_step_bits) +
                      32'(h_addr_bits) + 32'(h_size_bits);
    want_entry_bytes = (want_entry_bits + 32'd7) >> 3;
    buffer_end = 65'(h_base) + 65'(h_bytes);

    hdr_err = ErrNone;
    if (h_magic != IMG_MAGIC) begin
      hdr_err = ErrMagic;
    end else if (32'(h_version) != 32'(IMG_VERSION)) begin
      hdr_err = ErrVersion;
    end else if (32'(h_header_bytes) != 32'(IMG_HEADER_BYTES)) begin
      hdr_err = ErrHeaderBytes;
    end else if (h_nodes == '0 || h_addr_bits == '0 || h_addr_bits > 8'd64 ||
                 h_size_bits == '0 || h_size_bits > 8'd64 || want_entry_bits > 32'd65535 ||
                 32'(h_op_bits) != 32'(IMG_OP_BITS) || h_flow_bits != 8'(want_flow_bits) ||
                 h_node_bits != 8'(want_node_bits) || h_step_bits != 8'(want_step_bits) ||
                 32'(h_entry_bits) != want_entry_bits ||
                 32'(h_entry_bytes) != want_entry_bytes) begin
      hdr_err = ErrWidths;
    end else if (h_dtype > 8'd1) begin
      hdr_err = ErrDtype;
    end else if (buffer_end[64] && buffer_end[63:0] != '0) begin
      hdr_err = ErrWrap;
    end else if (h_node_id >= h_nodes || h_node_id != 32'(node_id_i) ||
                 h_nodes != 32'(nodes_i)) begin
      hdr_err = ErrNode;
    end else if (32'(h_k) > K || 32'(h_node_bits) > NODE_W || 32'(h_flow_bits) > NODE_W ||
                 32'(h_step_bits) > STEP_W || 32'(h_addr_bits) > ADDR_W ||
                 32'(h_size_bits) > SIZE_W || h_entries > DEPTH ||
                 buffer_end > (65'd1 << ADDR_W)) begin
      hdr_err = ErrCapacity;
    end
  end

  // ---- the entry's fields, one a cycle from the bit buffer ------------------------------------
  logic              entry_phase;  // the header is in and right
  logic              extract;      // a field is taken in this cycle
  logic [NbW-1:0]    fw;           // the width of field_q
  logic [FieldW-1:0] val;          // its value
  logic              val_nil;      // as a node field: nil (all ones in the image's node_bits)
  logic [4:0]        f_err;        // what its check finds
  logic              e_done;       // the entry's last field (its pad) is taken
  logic [4:0]        e_final;      // the entry's first error, its pad included
  logic              restart;      // a window write at the base starts a new image

  assign entry_phase = pos_q >= 32'(IMG_HEADER_BYTES) && hdr_err == ErrNone;

  always_comb begin
    unique case (field_q)
      FOp:             fw = NbW'(IMG_OP_BITS);
      FFlow:           fw = NbW'(h_flow_bits);
      FParent, FChild: fw = NbW'(h_node_bits);
      FStep:           fw = NbW'(h_step_bits);
      FAddr:           fw = NbW'(h_addr_bits);
      FSize:           fw = NbW'(h_size_bits);
      default:         fw = NbW'(3'(3'd0 - h_entry_bits[2:0]));  // FPad: up to the byte
    endcase
  end

  assign extract = entry_phase && 32'(ent_idx_q) < h_entries && nbits_q >= fw;
  assign val = buf_q[FieldW-1:0] & ~({FieldW{1'b1}} << fw);
  assign val_nil = val[NODE_W-1:0] == NODE_W'(~({NODE_W{1'b1}} << h_node_bits));
  assign e_done = extract && field_q == FPad;

  // The check of the field being taken, in IMAGE_FORMAT.md's order (the first error of an
  // entry is the one reported, so the order of the fields is the order of the checks).
  always_comb begin
    logic [NODE_W-1:0] node;
    logic [RangeW-1:0] base, bytes, addr, offset;
    node = val[NODE_W-1:0];
    base = RangeW'(h_base);
    bytes = RangeW'(h_bytes);
    addr = RangeW'(e_q[2 + (2 + K) * NODE_W + STEP_W +: ADDR_W]);
    offset = addr - base;
    f_err = ErrNone;
    unique case (field_q)
      FOp:     if (val[1:0] == 2'd3) f_err = ErrEntryOp;
      FFlow:   if (32'(node) >= h_flows) f_err = ErrEntryFlow;
      FParent: if ((!val_nil && 32'(node) >= h_nodes) || (32'(e_q[1:0]) == OP_NOP && !val_nil)) begin
                 f_err = ErrEntryNode;
               end
      FChild:  if (!val_nil && (seen_nil_q || 32'(node) >= h_nodes)) f_err = ErrEntryNode;
      FStep:   if (val[STEP_W-1:0] == '0 || 33'(val[STEP_W-1:0]) > {h_steps, 1'b0}) begin
                 f_err = ErrEntryStep;
               end
      FAddr:   f_err = ErrNone;  // checked with the size
      FSize:   if (addr < base || offset > bytes || RangeW'(val[SIZE_W-1:0]) > bytes - offset ||
                   (32'(e_q[1:0]) != OP_NOP && val[SIZE_W-1:0] == '0)) begin
                 f_err = ErrEntryRange;
               end
      default: if (val[7:0] != '0) f_err = ErrEntryPad;
    endcase
    e_final = e_err_q != ErrNone ? e_err_q : f_err;
  end

  // The entry's state after this cycle's field: the field placed where the bank stores it
  // (node fields as NODE_W bits, nil as all ones), the next field chosen.
  always_comb begin
    e_d = e_q;
    e_err_d = e_err_q;
    field_d = field_q;
    child_d = child_q;
    seen_nil_d = seen_nil_q;
    if (extract) begin
      if (e_err_q == ErrNone) e_err_d = f_err;
      field_d = field_q + 3'd1;
      unique case (field_q)
        FOp:     e_d[1:0] = val[1:0];
        FFlow:   e_d[2 +: NODE_W] = val[NODE_W-1:0];
        FParent: begin
          e_d[2 + NODE_W +: NODE_W] = val_nil ? '1 : val[NODE_W-1:0];
          child_d = '0;
          if (h_k == '0) field_d = FStep;
        end
        FChild: begin
          if (val_nil) seen_nil_d = 1'b1;
          else e_d[2 + (2 + 32'(child_q)) * NODE_W +: NODE_W] = val[NODE_W-1:0];
          child_d = child_q + ChildW'(1);
          if (32'(child_q) + 32'd1 != 32'(h_k)) field_d = FChild;
        end
        FStep:   e_d[2 + (2 + K) * NODE_W +: STEP_W] = val[STEP_W-1:0];
        FAddr:   e_d[2 + (2 + K) * NODE_W + STEP_W +: ADDR_W] = val[ADDR_W-1:0];
        FSize:   e_d[2 + (2 + K) * NODE_W + STEP_W + ADDR_W +: SIZE_W] = val[SIZE_W-1:0];
        default: ;
      endcase
    end
    if (e_done || restart) begin  // the next entry starts with nil children, no error
      e_d = EntryEmpty;
      e_err_d = ErrNone;
      field_d = FOp;
      seen_nil_d = 1'b0;
    end
  end

  // ---- digest one byte per cycle --------------------------------------------------------------
  logic       digest, keep;
  logic [7:0] byte_in;
  logic [31:0] crc_next;

  // An entry byte waits while the buffer has no room for it.
  assign keep    = entry_phase && 32'(taken_q) < h_entries;
  assign digest  = word_left_q != '0 && !(keep && nbits_q > NbW'(FieldW));
  assign byte_in = word_q[7:0];
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
    hdr_d = hdr_q;
    crc_d = crc_q;
    ent_pos_d = ent_pos_q;
    taken_d = taken_q;
    end_d = end_q;
    ent_idx_d = ent_idx_q;
    err_d = err_q;
    filled = buf_q;

    // The entry decoded in this cycle: its error, if it is the image's first.
    if (e_done) begin
      if (err_d == ErrNone) err_d = e_final;
      ent_idx_d = ent_idx_q + CntW'(1);
    end

    if (digest) begin
      word_d = word_q >> 8;
      word_left_d = word_left_q - 3'd1;
      pos_d = pos_q + 32'd1;
      if (pos_q < 32'(IMG_HEADER_BYTES)) begin
        hdr_d[8*pos_q[5:0] +: 8] = byte_in;
        if (pos_q < 32'(IMG_CRC32_OFFSET)) crc_d = crc_next;
        end_d = pos_q + 32'd1;
      end else if (keep) begin
        crc_d = crc_next;
        filled = buf_q | (BufW'(byte_in) << nbits_q);
        end_d = pos_q + 32'd1;
        if (32'(ent_pos_q) + 32'd1 == 32'(h_entry_bytes)) begin
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
        err_d = ErrNone;
      end else if (cfg_addr_i - 32'(CFG_IMAGE_BASE) != pos_q && err_d == ErrNone) begin
        err_d = ErrOrder;
      end
    end
  end

  // ---- registers and LOAD ----------------------------------------------------------------------
  logic [4:0] load_err;

  always_comb begin
    load_err = err_q;
    if (pos_q < 32'(IMG_HEADER_BYTES)) begin
      load_err = ErrLength;
    end else if (hdr_err != ErrNone) begin
      load_err = hdr_err;
    end else if (load_err == ErrNone && (32'(ent_idx_q) != h_entries || length_q != end_q ||
                 pos_q < length_q || pos_q - length_q >= 32'd4)) begin
      load_err = ErrLength;
    end else if (load_err == ErrNone && (crc_q ^ 32'hFFFF_FFFF) != h_crc) begin
      load_err = ErrCrc;
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
            else length_d = cfg_wdata_i;
          end
          32'(CFG_REG_LOAD): begin
            if (!cfg_write_i || cfg_wdata_i != 32'd1) begin
              resp_error_d = 1'b1;
            end else if (load_err == ErrNone) begin
              active_d = !active_q;
              status_d = 2'(TABLE_STATUS_LOADED);
              entries_d = h_entries;
              dtype_d = h_dtype[0];
              cause_d = ErrNone;
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
            resp_data_d = entries_q;
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
      hdr_q <= '0;
      crc_q <= '1;
      buf_q <= '0;
      nbits_q <= '0;
      taken_q <= '0;
      ent_pos_q <= '0;
      end_q <= '0;
      field_q <= FOp;
      child_q <= '0;
      seen_nil_q <= 1'b0;
      e_q <= EntryEmpty;
      e_err_q <= ErrNone;
      ent_idx_q <= '0;
      err_q <= ErrNone;
      length_q <= '0;
      active_q <= 1'b0;
      status_q <= 2'(TABLE_STATUS_EMPTY);
      entries_q <= '0;
      dtype_q <= 1'b0;
      cause_q <= ErrNone;
      resp_valid_q <= 1'b0;
      resp_error_q <= 1'b0;
      resp_data_q <= '0;
    end else begin
      word_q <= word_d;
      word_left_q <= word_left_d;
      pos_q <= pos_d;
      hdr_q <= hdr_d;
      crc_q <= crc_d;
      buf_q <= buf_d;
      nbits_q <= nbits_d;
      taken_q <= taken_d;
      ent_pos_q <= ent_pos_d;
      end_q <= end_d;
      field_q <= field_d;
      child_q <= child_d;
      seen_nil_q <= seen_nil_d;
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

  // The banks, one storage array of 2 * DEPTH entries (bank, index): the loader writes the
  // inactive bank, the head port reads the active one (a registered read).
  storage_array #(
    .WIDTH(EntryW), .DEPTH(2 * DEPTH), .WRITES(1), .READS(1), .SYNC_READ(1'b1)
  ) u_banks (
    .clk_i,
    .we_i(e_done && e_final == ErrNone && err_q == ErrNone && 32'(ent_idx_q) < DEPTH),
    .waddr_i({!active_q, ent_idx_q[IDX_W-1:0]}), .wmask_i(1'b1), .wdata_i(e_q),
    .raddr_i({active_q, rd_idx_i}), .rdata_o(rd_q)
  );

  assign cfg_rvalid_o  = resp_valid_q;
  assign cfg_error_o   = resp_error_q;
  assign cfg_rdata_o   = resp_data_q;
  assign status_o      = status_q;
  assign entries_o     = entries_q;
  assign dtype_o       = dtype_q;
  assign error_cause_o = cause_q;

  assign rd_op_o       = rd_q[1:0];
  assign rd_flow_o     = rd_q[2 +: NODE_W];
  assign rd_parent_o   = rd_q[2 + NODE_W +: NODE_W];
  assign rd_children_o = rd_q[2 + 2 * NODE_W +: K * NODE_W];
  assign rd_step_o     = rd_q[2 + (2 + K) * NODE_W +: STEP_W];
  assign rd_addr_o     = rd_q[2 + (2 + K) * NODE_W + STEP_W +: ADDR_W];
  assign rd_size_o     = rd_q[2 + (2 + K) * NODE_W + STEP_W + ADDR_W +: SIZE_W];

endmodule
