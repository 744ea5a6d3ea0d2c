// GoogleTest entry point: libsystemc defines main() and calls sc_main(), so the tests start here.
#include <gtest/gtest.h>
#include <systemc>

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
