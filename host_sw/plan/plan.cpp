#include "plan/plan.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include <fmt/format.h>

#include "common/error.hpp"

namespace mt {

const char* op_name(Op op) {
  switch (op) {
    case Op::kNop: return "nop";
    case Op::kReduce: return "reduce";
    case Op::kGather: return "gather";
    case Op::kPut: return "put";
  }
  return "?";
}

const char* dtype_name(DType t) { return t == DType::kInt32 ? "int32" : "fp32"; }

DType parse_dtype(const std::string& s) {
  if (s == "int32") return DType::kInt32;
  if (s == "fp32") return DType::kFp32;
  throw InputError(fmt::format("dtype \"{}\": must be int32 or fp32", s));
}

std::vector<ByteRange> split_bytes(uint64_t bytes, uint32_t parts) {
  if (parts == 0) throw std::logic_error("split_bytes: zero parts");
  const uint64_t grain = bytes >= uint64_t{kChunkLineBytes} * parts ? kChunkLineBytes
                                                                     : kChunkGrainBytes;
  const uint64_t grains = (bytes + grain - 1) / grain;
  const uint64_t base = grains / parts, extra = grains % parts;
  std::vector<ByteRange> out(parts);
  uint64_t offset = 0;
  for (uint32_t i = 0; i < parts; ++i) {
    const uint64_t n = base + (i < extra ? 1 : 0);
    const uint64_t size = std::min(n * grain, bytes - offset);
    out[i] = {offset, size};
    offset += size;
  }
  return out;
}

uint64_t parse_unsigned(const std::string& s, const std::string& what, uint64_t max) {
  if (s.empty()) throw InputError(fmt::format("{}: the value is empty", what));
  if (s[0] == '-') throw InputError(fmt::format("{} {}: must not be negative", what, s));
  uint64_t v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') {
      throw InputError(fmt::format("{} \"{}\": expected a whole number", what, s));
    }
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (v > (max - digit) / 10) {
      throw InputError(fmt::format("{} {}: too large, the largest is {}", what, s, max));
    }
    v = v * 10 + digit;
  }
  return v;
}

uint64_t parse_size(const std::string& s) {
  size_t i = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i == 0) {
    throw InputError(fmt::format("size \"{}\": expected a positive number of bytes such as 65536, "
                                 "64KiB or 1MiB", s));
  }
  const uint64_t number = parse_unsigned(s.substr(0, i), fmt::format("size \"{}\", the number", s));
  const std::string unit = s.substr(i);
  uint64_t scale = 0;
  if (unit.empty() || unit == "B") scale = 1;
  else if (unit == "KiB" || unit == "K") scale = 1ull << 10;
  else if (unit == "MiB" || unit == "M") scale = 1ull << 20;
  else if (unit == "GiB" || unit == "G") scale = 1ull << 30;
  else if (unit == "kB" || unit == "KB") scale = 1000;
  else if (unit == "MB") scale = 1000 * 1000;
  else if (unit == "GB") scale = 1000ull * 1000 * 1000;
  else {
    throw InputError(fmt::format("size \"{}\": unknown unit \"{}\" (B, KiB, MiB, GiB, kB, MB, GB)",
                                 s, unit));
  }
  if (number == 0) throw InputError(fmt::format("size \"{}\": must be greater than zero", s));
  if (number > std::numeric_limits<uint64_t>::max() / scale / 2) {
    throw InputError(fmt::format("size \"{}\": too large", s));
  }
  return number * scale;
}

}  // namespace mt
