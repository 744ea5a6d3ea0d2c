// Every configuration meshmp accepts as deadlock-free runs 10^6 cycles beyond saturation without the
// watchdog firing: configurations drawn at random (a fixed seed per instance) over topologies, routing
// functions (each function an instance), selections, VC counts, buffer depths and packet lengths; a draw meshmp refuses (a rule it
// breaks) or `meshmp check` flags (a cycle) is drawn again, so each instance runs one accepted as safe.
#include <gtest/gtest.h>

#include <random>

#include "meshmp_process.h"

namespace meshmp {
namespace {

// Under the sanitizers (a Debug build some 30x slower) each instance runs 10^5 cycles, which is what the
// memory and undefined-behaviour checks need; the release pass runs the 10^6.
#if defined(__SANITIZE_ADDRESS__)
constexpr const char* kMeasureCycles = "99000";
#else
constexpr const char* kMeasureCycles = "999000";
#endif

template <class T>
const T& pick(const std::vector<T>& from, std::mt19937_64& random) {
  return from[random() % from.size()];
}

// Instance i runs routing function i; the rest of the machine is drawn.
class RoutingSaturation : public ::testing::TestWithParam<int> {};

TEST_P(RoutingSaturation, AnAcceptedConfigurationRunsAMillionCyclesWithoutDeadlock) {
  std::mt19937_64 random(1000 + GetParam());
  const std::vector<std::string> topologies{"mesh:4x4", "mesh:3x5", "torus:4x4", "torus:3x4", "ring:8",
                                            "hypercube:4", "ghc:3x3", "product:path3xring4"};
  const std::vector<std::string> routings{"dimension-order", "dimension-order-split-ties", "west-first", "north-last",
                                          "negative-first", "odd-even", "min-adaptive", "valiant", "romm"};
  std::string machine;
  int draws = 0;
  for (;; ++draws) {
    ASSERT_LT(draws, 200) << "no accepted configuration drawn";
    const std::string& routing = routings[GetParam()];
    machine = "-t " + pick(topologies, random) + " --routing " + routing + " --vcs " +
              std::to_string(1 + random() % 4) + " --buffer-flits " + pick(std::vector<std::string>{"2", "4", "8"}, random) +
              " --packet-flits " + pick(std::vector<std::string>{"1", "4", "9"}, random);
    if (routing == "min-adaptive" || routing == "west-first" || routing == "odd-even")
      machine += " --selection " + pick(std::vector<std::string>{"first", "random", "most-credits"}, random);
    if (meshmp_test::meshmp("check " + machine).status == 0) break;
  }
  const auto run = meshmp_test::meshmp("traffic " + machine + " --rate 0.9 --warmup-cycles 1000 --measure-cycles " +
                                       kMeasureCycles + " --drain-cycles 0 --seed " + std::to_string(GetParam()) + " -o -");
  ASSERT_EQ(run.status, 0) << machine << ": " << run.output;
  EXPECT_FALSE(meshmp_test::contains(run.output, "deadlock")) << machine << ": " << run.output;
  const nlohmann::json result = meshmp_test::json_in_output(run.output);
  EXPECT_GT(result.value("accepted_flits_per_node_per_cycle", 0.0), 0.05) << machine;
  std::cout << "ran " << kMeasureCycles << " + 1000 cycles at 0.9 offered: " << machine << " (drawn in " << draws + 1 << "), accepted "
            << result.value("accepted_flits_per_node_per_cycle", 0.0) << "\n";
}

INSTANTIATE_TEST_SUITE_P(Drawn, RoutingSaturation, ::testing::Range(0, 9));

}  // namespace
}  // namespace meshmp
