// The NI's all-reduce schedule table (paper §IV-A, Fig. 6) with its image loader. SystemC
// twin: systemc/ni/schedule_table.hpp; image format: host_sw/image/IMAGE_FORMAT.md; register
// map: format/ni_formats.json (`config`); bus and behaviour: rtl/README.md.
//
// Loading. The host streams a node's .bin image into the image window as 32-bit words at
// increasing addresses from the window base (a write at the base starts a new image), writes
// LENGTH and then 1 to LOAD. The loader digests one byte per cycle (cfg_ready_o is low while
// it digests a word): header bytes go to a header register, entry bytes are assembled,
// decoded with the header's field widths and checked in the cycle after their last byte, and
// written into the inactive bank; the CRC runs over the covered bytes. LOAD accepts the image
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
  localparam int unsigned EntBits = 8 * MaxEntryBytes;
  // An entry as stored: op, flow, parent, children[K], step, start_addr, size (LSB first).
  localparam int unsigned EntryW = 2 + NODE_W * (2 + K) + STEP_W + ADDR_W + SIZE_W;
  localparam int unsigned HdrBits = 8 * IMG_HEADER_BYTES;

  // ---- bus ------------------------------------------------------------------------------
  logic [31:0] word_q, word_d;         // the window word being digested
  logic [2:0]  word_left_q, word_left_d;
  logic        handshake, window_access;
  logic        resp_valid_d, resp_valid_q, resp_error_d, resp_error_q;
  logic [31:0] resp_data_d, resp_data_q;

  assign cfg_ready_o   = word_left_q == '0 && !full_valid_q;
  assign handshake     = cfg_valid_i && cfg_ready_o;
  // The window starts at CFG_IMAGE_BASE; below it the difference wraps and is large.
  assign window_access = cfg_addr_i - 32'(CFG_IMAGE_BASE) < 32'(CFG_IMAGE_WINDOW);

  // ---- loader state -----------------------------------------------------------------------
  logic [31:0]          pos_q, pos_d;          // bytes of the image digested
  logic [HdrBits-1:0]   hdr_q, hdr_d;
  logic [31:0]          crc_q, crc_d;
  logic [EntBits-1:0]   ent_q, ent_d;          // the entry being assembled
  logic [15:0]          ent_pos_q, ent_pos_d;  // its bytes so far
  logic [EntBits-1:0]   full_q, full_d;        // an assembled entry, decoded this cycle
  logic                 full_valid_q, full_valid_d;
  logic [31:0]          ent_idx_q, ent_idx_d;  // entries decoded
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
  logic [63:0] total_bytes;  // 60 + entries * entry_bytes
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
    total_bytes = 64'(IMG_HEADER_BYTES) + 64'(h_entries) * 64'(h_entry_bytes);

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

  // ---- entry decode and checks (the entry in full_q) ----------------------------------------
  logic [1:0]          e_op;
  logic [63:0]         e_flow, e_parent, e_step, e_addr, e_size, e_nil, e_child;
  logic [K*NODE_W-1:0] e_children;
  logic [4:0]          e_err;
  logic [EntryW-1:0]   e_packed;

  // Field `bits` wide at bit `lsb` of the entry.
  function automatic logic [63:0] field(input logic [EntBits-1:0] e, input logic [31:0] lsb,
                                        input logic [7:0] bits);
    field = 64'(e >> lsb) & ~(64'hFFFF_FFFF_FFFF_FFFF << bits);
    if (bits >= 8'd64) field = 64'(e >> lsb);
  endfunction

  always_comb begin
    logic [31:0] at;
    logic        seen_nil;
    logic [63:0] offset;
    logic [EntBits-1:0] pad;
    e_child = '0;
    e_step = '0;
    e_addr = '0;
    e_size = '0;
    pad = '0;
    offset = '0;
    e_op = full_q[1:0];
    at = 32'(IMG_OP_BITS);
    e_flow = field(full_q, at, h_flow_bits);
    at = at + 32'(h_flow_bits);
    e_parent = field(full_q, at, h_node_bits);
    at = at + 32'(h_node_bits);
    e_nil = ~(64'hFFFF_FFFF_FFFF_FFFF << h_node_bits);
    e_err = ErrNone;
    seen_nil = 1'b0;
    e_children = '1;
    for (int k = 0; k < K; k++) begin
      if (k < 32'(h_k)) begin
        e_child = field(full_q, at, h_node_bits);
        at = at + 32'(h_node_bits);
        if (e_child == e_nil) begin
          seen_nil = 1'b1;
        end else begin
          if (seen_nil || e_child >= 64'(h_nodes)) e_err = ErrEntryNode;
          e_children[k*NODE_W +: NODE_W] = e_child[NODE_W-1:0];
        end
      end
    end
    e_step = field(full_q, at, h_step_bits);
    at = at + 32'(h_step_bits);
    e_addr = field(full_q, at, h_addr_bits);
    at = at + 32'(h_addr_bits);
    e_size = field(full_q, at, h_size_bits);
    at = at + 32'(h_size_bits);
    pad = full_q >> at;
    offset = e_addr - h_base;

    if (e_op == 2'd3) begin
      e_err = ErrEntryOp;
    end else if (e_flow >= 64'(h_flows)) begin
      e_err = ErrEntryFlow;
    end else if ((e_parent != e_nil && e_parent >= 64'(h_nodes)) ||
                 (32'(e_op) == OP_NOP && e_parent != e_nil)) begin
      e_err = ErrEntryNode;
    end else if (e_err != ErrNone) begin
      e_err = ErrEntryNode;  // a child
    end else if (e_step == '0 || e_step > (64'(h_steps) << 1)) begin
      e_err = ErrEntryStep;
    end else if (e_addr < h_base || offset > h_bytes || e_size > h_bytes - offset ||
                 (32'(e_op) != OP_NOP && e_size == '0)) begin
      e_err = ErrEntryRange;
    end else if (pad != '0) begin
      e_err = ErrEntryPad;
    end

    e_packed = {e_size[SIZE_W-1:0], e_addr[ADDR_W-1:0], e_step[STEP_W-1:0], e_children,
                e_parent == e_nil ? {NODE_W{1'b1}} : e_parent[NODE_W-1:0],
                e_flow[NODE_W-1:0], e_op};
  end

  // ---- digest one byte per cycle --------------------------------------------------------------
  logic       digest;
  logic [7:0] byte_in;
  logic [31:0] crc_next;

  assign digest  = word_left_q != '0;
  assign byte_in = word_q[7:0];

  image_crc32 u_crc (
    .crc_i (crc_q),
    .byte_i(byte_in),
    .crc_o (crc_next)
  );

  always_comb begin
    word_d = word_q;
    word_left_d = word_left_q;
    pos_d = pos_q;
    hdr_d = hdr_q;
    crc_d = crc_q;
    ent_d = ent_q;
    ent_pos_d = ent_pos_q;
    full_d = full_q;
    full_valid_d = 1'b0;
    ent_idx_d = ent_idx_q;
    err_d = err_q;

    // The entry assembled last cycle: checked and written into the loading bank.
    if (full_valid_q) begin
      if (err_d == ErrNone) err_d = e_err;
      ent_idx_d = ent_idx_q + 32'd1;
    end

    if (digest) begin
      word_d = word_q >> 8;
      word_left_d = word_left_q - 3'd1;
      pos_d = pos_q + 32'd1;
      if (pos_q < 32'(IMG_HEADER_BYTES)) begin
        hdr_d[8*pos_q[5:0] +: 8] = byte_in;
        if (pos_q < 32'(IMG_CRC32_OFFSET)) crc_d = crc_next;
      end else if (64'(pos_q) < total_bytes && hdr_err == ErrNone) begin
        crc_d = crc_next;
        if (32'(ent_pos_q) < MaxEntryBytes) ent_d[8*ent_pos_q +: 8] = byte_in;
        if (ent_pos_q + 16'd1 == h_entry_bytes) begin
          full_d = ent_d;
          full_valid_d = 1'b1;
          ent_d = '0;
          ent_pos_d = '0;
        end else begin
          ent_pos_d = ent_pos_q + 16'd1;
        end
      end
    end

    // A window write starts an image (at the base) or continues it (at the next word).
    if (handshake && cfg_write_i && window_access) begin
      word_d = cfg_wdata_i;
      word_left_d = 3'd4;
      if (cfg_addr_i == 32'(CFG_IMAGE_BASE)) begin
        pos_d = '0;
        crc_d = '1;
        ent_d = '0;
        ent_pos_d = '0;
        full_valid_d = 1'b0;
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
    end else if (load_err == ErrNone && (64'(length_q) != total_bytes ||
                 pos_q < length_q || pos_q - length_q >= 32'd4 || ent_idx_q != h_entries)) begin
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
      ent_q <= '0;
      ent_pos_q <= '0;
      full_q <= '0;
      full_valid_q <= 1'b0;
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
      ent_q <= ent_d;
      ent_pos_q <= ent_pos_d;
      full_q <= full_d;
      full_valid_q <= full_valid_d;
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
    .we_i(full_valid_q && e_err == ErrNone && err_q == ErrNone && ent_idx_q < DEPTH),
    .waddr_i({!active_q, ent_idx_q[IDX_W-1:0]}), .wmask_i(1'b1), .wdata_i(e_packed),
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
