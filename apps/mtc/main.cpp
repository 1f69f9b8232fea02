// mtc: the MultiTree compiler command line (plan, show, verify, dot).
#include <iostream>

#include "mtc/commands.hpp"

int main(int argc, char** argv) { return mt::mtc_main(argc, argv, std::cout, std::cerr); }
