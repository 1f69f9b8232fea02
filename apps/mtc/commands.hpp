#pragma once

#include <ostream>

namespace mt {

// Exit codes: 0 ok, 1 bad input, 2 internal error.
int mtc_main(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace mt
