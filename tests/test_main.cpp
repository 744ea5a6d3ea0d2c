// GoogleTest entry point: libsystemc defines main() and calls sc_main(), so the tests start here.
//
// In the rtl/ pass (MESHMP_TEST_ROUTER_MODEL=rtl, tests/CMakeLists.txt) every entry must build the
// verilated routers: a test that ran and passed without building one is not an RTL test, and the run
// fails naming it (ctest runs one entry per process, so the exit code is that entry's).
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <systemc>
#include <vector>

#include "hw/router/rtl_router.h"

namespace {

class RtlPassCheck : public ::testing::EmptyTestEventListener {
 public:
  void OnTestStart(const ::testing::TestInfo&) override { built_before_ = meshmp::RtlRouter::built_count(); }
  void OnTestEnd(const ::testing::TestInfo& test) override {
    const ::testing::TestResult& result = *test.result();
    if (result.Passed() && !result.Skipped() && meshmp::RtlRouter::built_count() == built_before_)
      without_rtl_.push_back(std::string(test.test_suite_name()) + "." + test.name());
  }
  const std::vector<std::string>& without_rtl() const { return without_rtl_; }

 private:
  std::uint64_t built_before_ = 0;
  std::vector<std::string> without_rtl_;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  const char* model = std::getenv("MESHMP_TEST_ROUTER_MODEL");
  RtlPassCheck* check = nullptr;
  if (model != nullptr && std::string(model) == "rtl") {
    check = new RtlPassCheck;  // owned by GoogleTest's listener list
    ::testing::UnitTest::GetInstance()->listeners().Append(check);
  }
  const int status = RUN_ALL_TESTS();
  if (check == nullptr || check->without_rtl().empty()) return status;
  for (const std::string& name : check->without_rtl())
    std::cerr << "rtl/ pass: " << name << " built no RTL router: it is not an RTL test (tests/CMakeLists.txt)\n";
  return 1;
}
