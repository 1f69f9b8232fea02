// The offered loads of a latency-throughput sweep, from the command line's --rate, --rates and
// --sweep. Rates are flits/node/cycle in (0, 1]: a node injects at most one flit per cycle.
#pragma once

#include <string>
#include <vector>

namespace mt::noc {

// Throws InputError unless 0 < rate <= 1.
void check_rate(double rate);
// "0.02,0.05,0.1": each a number in (0, 1]. Throws InputError naming the bad item.
std::vector<double> parse_rates(const std::string& list);
// "START:STOP:STEP": START, START + STEP, ... up to STOP inclusive (within rounding), each in
// (0, 1], STEP > 0, at most 1000 points. Values are rounded to 9 decimals so 0.1 + 0.2 prints
// as 0.3.
std::vector<double> parse_sweep(const std::string& spec);

}  // namespace mt::noc
