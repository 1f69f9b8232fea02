// CRC-32 of the schedule-table image (host_sw/image/IMAGE_FORMAT.md, "CRC"): zlib's CRC-32
// (IEEE 802.3, reflected, polynomial 0xEDB88320), one byte per call. Combinational; the
// caller keeps the running value. Start from INIT, feed every covered byte, and the CRC is
// the running value xor FINAL_XOR. The host computes it with zlib's crc32_z (image_crc).
module image_crc32 (
  input  logic [31:0] crc_i,
  input  logic [7:0]  byte_i,
  output logic [31:0] crc_o
);

  // The reflected polynomial of CRC-32.
  localparam logic [31:0] Poly = 32'hEDB88320;

  always_comb begin
    crc_o = crc_i ^ {24'h0, byte_i};
    for (int i = 0; i < 8; i++) begin
      crc_o = crc_o[0] ? ((crc_o >> 1) ^ Poly) : (crc_o >> 1);
    end
  end

endmodule
