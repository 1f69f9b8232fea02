// Line and field splitting shared by the text importers (SCALE-Sim CSV, ASTRA-sim text).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mt::workload {

// The lines of a text, without their "\n" or "\r\n" endings; line i is line number i + 1.
std::vector<std::string> split_lines(const std::string& text);

// s without leading and trailing spaces and tabs.
std::string trim(const std::string& s);

// A whole number written in decimal digits, as a field of `at` named `field`: InputError
// "<at>, <field>: ..." when it is empty, negative, not a whole number or above 2^64 - 1.
uint64_t parse_count(const std::string& s, const std::string& at, const std::string& field);

}  // namespace mt::workload
