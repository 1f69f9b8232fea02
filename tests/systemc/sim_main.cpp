// main() of every SystemC test executable: SystemC owns main and calls sc_main, which runs the
// GoogleTest cases (VCML's arrangement).
#include <gtest/gtest.h>
#include <systemc>

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
