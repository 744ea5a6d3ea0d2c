// The progress line of a long run (sims/progress_line.h, hw/base/progress_poll.h):
//  - ProgressPoll: the reporter runs at a poll after its period, never between, and never after the poll
//    is gone;
//  - `meshmp run` on a terminal (a pseudo-terminal from script(1)) prints the line on standard error and
//    erases it before the summary; with --quiet, or when standard error is not a terminal, it prints none.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "meshmp_process.h"
#include "hw/base/progress_poll.h"

namespace meshmp {
namespace {

TEST(ProgressPoll, ReportsAtAPollAfterEachPeriodAndNotAfterItEnds) {
  int reports = 0;
  {
    ProgressPoll poll(std::chrono::milliseconds(10), [&reports] { ++reports; });
    poll_progress();
    EXPECT_EQ(reports, 0);  // nothing is due before the first period ends
    const auto start = std::chrono::steady_clock::now();
    while (reports < 3 && std::chrono::steady_clock::now() - start < std::chrono::seconds(10)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      poll_progress();
    }
    EXPECT_EQ(reports, 3);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  poll_progress();
  EXPECT_EQ(reports, 3);
}

// A run of a few seconds: 256 nodes exchanging 64-byte blocks.
const char* kLongRun = "run -t torus:16x16 -a direct -m 64 -o ''";

TEST(ProgressLine, ARunOnATerminalShowsItsProgressAndErasesIt) {
  const std::string run = std::string(MESHMP_BINARY) + " " + kLongRun;
  const auto on_terminal = meshmp_test::run_command("script -qec \"" + run + "\" /dev/null");
  ASSERT_EQ(on_terminal.status, 0) << on_terminal.output;
  const std::size_t line = on_terminal.output.find("  simulated cycle ");
  ASSERT_NE(line, std::string::npos) << on_terminal.output;
  EXPECT_NE(on_terminal.output.find(" messages delivered, ", line), std::string::npos) << on_terminal.output;
  EXPECT_NE(on_terminal.output.find(" cycles/s", line), std::string::npos) << on_terminal.output;
  // Erased (carriage return, erase to the end of the line) before the summary begins.
  EXPECT_NE(on_terminal.output.find("\r\033[Kmeshmp: torus:16x16", line), std::string::npos) << on_terminal.output;

  const auto quiet = meshmp_test::run_command("script -qec \"" + run + " --quiet\" /dev/null");
  ASSERT_EQ(quiet.status, 0) << quiet.output;
  EXPECT_EQ(quiet.output.find("  simulated cycle "), std::string::npos) << quiet.output;

  const auto piped = meshmp_test::meshmp(kLongRun);
  ASSERT_EQ(piped.status, 0) << piped.output;
  EXPECT_EQ(piped.output.find("  simulated cycle "), std::string::npos) << piped.output;
}

}  // namespace
}  // namespace meshmp
