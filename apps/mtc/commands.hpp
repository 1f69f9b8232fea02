#pragma once

#include <ostream>
#include <string>

namespace mt {

// Exit codes: 0 ok, 1 bad input, 2 internal error.
int mtc_main(int argc, char** argv, std::ostream& out, std::ostream& err);

// Throws InputError unless `f` (a --format value) is text or json.
void check_format(const std::string& f);

}  // namespace mt
