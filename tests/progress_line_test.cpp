// The progress line of a long run (sims/progress_line.h, hw/base/progress_poll.h):
//  - ProgressPoll: the reporter runs at a poll after its period, never between, and never after the poll
//    is gone;
//  - `meshmp run` on a terminal (a pseudo-terminal from script(1)) prints the line on standard error and
//    erases it before the summary; with --quiet, or when standard error is not a terminal, it prints none;
//  - a child run (sims/child_run.h, what `meshmp paper` runs its rows in) hands its progress to its parent
//    on a pipe of its own, quiet as it is and with its standard error captured, and the parent shows it
//    as one line naming the run, erased when the child ends; without a relay the child reports nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include <sstream>

#include "meshmp_process.h"
#include "hw/base/progress_poll.h"
#include "sims/child_process.h"
#include "sims/child_run.h"

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

// A run of about 4 s here (the line comes once a second): nodes exchanging 96-byte blocks, 256 of them, or
// 144 under the sanitizers (the 256 take 21 s there, the 144 3.7 s).
#if defined(__SANITIZE_ADDRESS__)
#define MESHMP_LONG_RUN_MACHINE "torus:12x12"
#else
#define MESHMP_LONG_RUN_MACHINE "torus:16x16"
#endif
const char* kLongRun = "run -t " MESHMP_LONG_RUN_MACHINE " -a direct -m 96 -o ''";

TEST(ProgressLine, ARunOnATerminalShowsItsProgressAndErasesIt) {
  const std::string run = std::string(MESHMP_BINARY) + " " + kLongRun;
  const auto on_terminal = meshmp_test::run_command("script -qec \"" + run + "\" /dev/null");
  ASSERT_EQ(on_terminal.status, 0) << on_terminal.output;
  const std::size_t line = on_terminal.output.find("  simulated cycle ");
  ASSERT_NE(line, std::string::npos) << on_terminal.output;
  EXPECT_NE(on_terminal.output.find(" messages delivered, ", line), std::string::npos) << on_terminal.output;
  EXPECT_NE(on_terminal.output.find(" cycles/s", line), std::string::npos) << on_terminal.output;
  // Erased (carriage return, erase to the end of the line) before the summary begins.
  EXPECT_NE(on_terminal.output.find("\r\033[Kmeshmp: " MESHMP_LONG_RUN_MACHINE, line), std::string::npos)
      << on_terminal.output;

  const auto quiet = meshmp_test::run_command("script -qec \"" + run + " --quiet\" /dev/null");
  ASSERT_EQ(quiet.status, 0) << quiet.output;
  EXPECT_EQ(quiet.output.find("  simulated cycle "), std::string::npos) << quiet.output;

  const auto piped = meshmp_test::meshmp(kLongRun);
  ASSERT_EQ(piped.status, 0) << piped.output;
  EXPECT_EQ(piped.output.find("  simulated cycle "), std::string::npos) << piped.output;
}

TEST(ProgressLine, AChildRunShowsItsProgressThroughItsParent) {
  const std::string arguments = "-t " MESHMP_LONG_RUN_MACHINE " -a direct -m 96 --quiet";
  std::ostringstream shown;
  std::string failure;
  int exit_status = -1;
  const auto stats = run_child(MESHMP_BINARY, arguments, failure, exit_status, &shown);
  ASSERT_TRUE(stats.has_value()) << failure;
  const std::string text = shown.str();
  EXPECT_EQ(text.rfind("\r  " MESHMP_LONG_RUN_MACHINE " direct: simulated cycle ", 0), 0u) << text;
  EXPECT_NE(text.find(" messages delivered, "), std::string::npos) << text;
  EXPECT_EQ(text.size() - text.rfind("\033[K\r\033[K"), 7u) << text;  // erased as the child ends

  // The lines never reach the child's standard error; without a relay there are none.
  const ChildOutcome relayed = run_child_process({MESHMP_BINARY, "run", "-t", MESHMP_LONG_RUN_MACHINE, "-a", "direct", "-m", "96"},
                                                 [](const std::string&) {});
  EXPECT_EQ(relayed.exit_status, 0) << relayed.err;
  EXPECT_EQ(relayed.err.find("simulated cycle"), std::string::npos) << relayed.err;
  ASSERT_TRUE(run_child(MESHMP_BINARY, arguments, failure, exit_status, nullptr).has_value()) << failure;
}

// A stale MESHMP_PROGRESS_FD in the environment is ignored: a run writes its progress only to a pipe
// above the standard descriptors (run_child_process sets the variable only for a relay).
TEST(ProgressLine, AStaleProgressVariableIsIgnored) {
  for (const std::string stale : {"=2", "=5 5</dev/null"}) {
    const std::string variable = std::string(kProgressFdVariable) + stale.substr(0, 2);
    const std::string redirect = stale.size() > 2 ? stale.substr(3) : "";
    const auto run = meshmp_test::run_command("(" + variable + " " + MESHMP_BINARY + " " + kLongRun + " --quiet " +
                                              redirect + ")");
    ASSERT_EQ(run.status, 0) << run.output;
    EXPECT_EQ(run.output.find("simulated cycle"), std::string::npos) << stale << ": " << run.output;
  }
}

}  // namespace
}  // namespace meshmp
