// CRC-32 as used by the schedule images: IEEE 802.3 / zlib (reflected, polynomial 0xEDB88320,
// init and final xor 0xFFFFFFFF). Check value: crc32("123456789") == 0xCBF43926.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mt {

// Chainable like zlib's crc32(): crc32(b, nb, crc32(a, na)) == crc32(a followed by b).
// Pass prev = 0 to start.
uint32_t crc32(const uint8_t* data, std::size_t size, uint32_t prev = 0);

}  // namespace mt
