// Simulation only: a Verilog host that loads a schedule table from the `.hex` form of an image
// (host_sw/image/IMAGE_FORMAT.md, "Hex image"). The entries come in by $readmemh, the header
// from the file's `// <field> <value>` comments; the loader rebuilds the `.bin` from them (as
// hex_to_image does) and writes it through rtl/schedule_table.sv's table-write port word by
// word, then LENGTH and LOAD, as a host would. The file is the plusarg +hex=<path>. The
// routes the table stores come from route_of below, a stand-in for the NI's first hop that
// differs from node to node. tb/table_hex_loader_test.cpp loads every golden .hex with it.
module table_hex_loader #(
  // The table's parameters (rtl/schedule_table.sv).
  parameter int unsigned NODE_W = 8,
  parameter int unsigned K = 4,
  parameter int unsigned STEP_W = 8,
  parameter int unsigned ADDR_W = 32,
  parameter int unsigned SIZE_W = 32,
  parameter int unsigned DEPTH = 256,
  // Bytes of the widest entry a .hex may hold.
  parameter int unsigned MAX_ENTRY_BYTES = 32,
  localparam int unsigned ROUTE_W = ni_formats_pkg::FLIT_PORT_BITS + 1,
  localparam int unsigned IDX_W = $clog2(DEPTH)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [NODE_W-1:0]   node_id_i,
  input  logic [NODE_W-1:0]   nodes_i,
  // The load is over (LOAD written); the table's status and a read port of its entries.
  output logic                done_o,
  // The file could not be read, or a write of the load was refused.
  output logic                bad_file_o,
  output logic                write_error_o,
  output logic [1:0]          status_o,
  output logic [31:0]         entries_o,
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
  `include "ni_image_header_sim.svh"

  localparam int unsigned MaxBytes = IMG_HEADER_BYTES + DEPTH * MAX_ENTRY_BYTES;

  logic [7:0]                   image [MaxBytes];
  logic [8*MAX_ENTRY_BYTES-1:0] entry [DEPTH];
  int unsigned                  length;
  logic                         bad_file;

  // Puts `value` into header field `name` (little-endian); 0 if there is no such field.
  function automatic bit put_field(input string name, input logic [63:0] value);
    int offset, bytes;
    put_field = image_header_field(name, offset, bytes);
    if (put_field) begin
      for (int b = 0; b < bytes; b++) image[offset + b] = value[8*b +: 8];
    end
  endfunction

  initial begin
    string path, line, name, text, unused_extra;
    int fd, fields, entries, entry_bytes;
    logic [63:0] value;
    bad_file = 1'b0;
    fields = 0;
    entries = 0;
    entry_bytes = 0;
    for (int i = 0; i < MaxBytes; i++) image[i] = 8'h00;
    for (int i = 0; i < DEPTH; i++) entry[i] = '0;
    if (!$value$plusargs("hex=%s", path)) path = "";
    fd = $fopen(path, "r");
    if (fd == 0) bad_file = 1'b1;
    while (fd != 0 && !$feof(fd)) begin
      if ($fgets(line, fd) == 0) break;
      // A header field is a comment of exactly two tokens: `// <field> <value>`.
      if ($sscanf(line, "// %s %s %s", name, text, unused_extra) != 2) continue;
      if (name == "magic") begin
        value = 64'(text.getc(0)) | 64'(text.getc(1)) << 8 | 64'(text.getc(2)) << 16 |
                64'(text.getc(3)) << 24;
      end else if (text.len() > 2 && text.substr(0, 1) == "0x") begin
        if ($sscanf(text.substr(2, text.len() - 1), "%h", value) != 1) bad_file = 1'b1;
      end else if ($sscanf(text, "%d", value) != 1) begin
        bad_file = 1'b1;
      end
      if (put_field(name, value)) begin
        fields++;
        if (name == "entries") entries = int'(value);
        if (name == "entry_bytes") entry_bytes = int'(value);
      end
    end
    if (fd != 0) $fclose(fd);
    if (entries > DEPTH || entry_bytes > MAX_ENTRY_BYTES || fields != IMAGE_HEADER_FIELDS) begin
      bad_file = 1'b1;
    end
    if (!bad_file) $readmemh(path, entry);
    for (int i = 0; i < entries && i < DEPTH; i++) begin
      for (int b = 0; b < entry_bytes && b < MAX_ENTRY_BYTES; b++) begin
        image[IMG_HEADER_BYTES + i * entry_bytes + b] = entry[i][8*b +: 8];
      end
    end
    length = IMG_HEADER_BYTES + entries * entry_bytes;
  end

  // The host: the image word by word from the window base, then LENGTH, then LOAD.
  logic        cfg_valid, cfg_ready, cfg_rvalid, cfg_error;
  logic [31:0] cfg_addr, cfg_wdata;
  logic        write_error_q;
  logic [31:0] unused_rdata;
  logic        unused_dtype;
  logic [ni_formats_pkg::TABLE_ERROR_BITS-1:0] unused_cause;
  logic [NODE_W-1:0] route_node;

  logic [ROUTE_W-1:0] route_q [2];

  // The route the table stores for a send to `node` (tb/table_hex_loader_test.cpp's route_of),
  // two cycles after it asks, as rtl/first_hop.sv answers.
  function automatic logic [ROUTE_W-1:0] route_of(input logic [NODE_W-1:0] node);
    route_of = ROUTE_W'(32'(node) * 7 + 1);
  endfunction
  always_ff @(posedge clk_i) begin
    route_q[0] <= route_of(route_node);
    route_q[1] <= route_q[0];
  end
  int unsigned at_q;       // next image byte; then the registers
  logic [1:0]  phase_q;    // 0 image, 1 LENGTH, 2 LOAD, 3 done

  always_comb begin
    cfg_valid = rst_ni && !bad_file && phase_q != 2'd3;
    cfg_addr = 32'(CFG_IMAGE_BASE) + at_q;
    cfg_wdata = {image[at_q + 3], image[at_q + 2], image[at_q + 1], image[at_q]};
    if (phase_q == 2'd1) begin
      cfg_addr = 32'(CFG_REG_LENGTH);
      cfg_wdata = length;
    end else if (phase_q == 2'd2) begin
      cfg_addr = 32'(CFG_REG_LOAD);
      cfg_wdata = 32'd1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) write_error_q <= 1'b0;
    else if (cfg_rvalid && cfg_error) write_error_q <= 1'b1;
    if (!rst_ni) begin
      at_q <= 0;
      phase_q <= length == 0 ? 2'd1 : 2'd0;
    end else if (cfg_valid && cfg_ready) begin
      if (phase_q == 2'd0) begin
        at_q <= at_q + 4;
        if (at_q + 4 >= length) phase_q <= 2'd1;
      end else begin
        phase_q <= phase_q + 2'd1;
      end
    end
  end

  schedule_table #(
    .NODE_W(NODE_W), .K(K), .STEP_W(STEP_W), .ADDR_W(ADDR_W), .SIZE_W(SIZE_W), .DEPTH(DEPTH)
  ) u_table (
    .clk_i, .rst_ni, .node_id_i, .nodes_i,
    .cfg_valid_i(cfg_valid), .cfg_ready_o(cfg_ready), .cfg_write_i(1'b1), .cfg_addr_i(cfg_addr),
    .cfg_wdata_i(cfg_wdata), .cfg_rvalid_o(cfg_rvalid), .cfg_error_o(cfg_error),
    .cfg_rdata_o(unused_rdata), .status_o, .entries_o, .dtype_o(unused_dtype),
    .error_cause_o(unused_cause), .route_node_o(route_node), .route_i(route_q[1]),
    .rd_en_i, .rd_idx_i, .rd_idx_next_i, .rd_op_o, .rd_flow_o, .rd_parent_o, .rd_children_o, .rd_step_o,
    .rd_addr_o, .rd_size_o, .rd_routes_o, .nx_op_o, .nx_flow_o, .nx_parent_o, .nx_children_o
  );

  assign done_o = phase_q == 2'd3 && !cfg_rvalid;
  assign bad_file_o = bad_file;
  assign write_error_o = write_error_q;

endmodule
