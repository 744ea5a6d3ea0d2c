// The switch allocator on its own (hw/router/switch_allocator.h), no SystemC design: the rule of
// docs/architecture.md "Router microarchitecture" step 4. Separable input-first: each input port picks
// one of its requesting VCs round robin from its pointer, each output port grants one of the inputs whose
// pick asks for it round robin from its pointer, the pointers move past the winner on a grant only, at
// most one flit per input and per output, grants in increasing output port order.
// Each case is a sequence of cycles: the requests offered and the grants expected.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hw/router/switch_allocator.h"

namespace meshmp {
namespace {

struct Request {
  int in_port;
  int vc;
  int out_port;
};

struct Cycle {
  std::vector<Request> requests;  // in increasing (input port, VC) order, as the allocator requires
  std::vector<SwitchGrant> grants;  // expected, in increasing output port order
};

struct SwitchCase {
  std::string name;
  int inputs;
  int outputs;
  int vcs;
  std::vector<Cycle> cycles;
};

std::string describe(const std::vector<SwitchGrant>& grants) {
  std::string text;
  for (const SwitchGrant& g : grants)
    text += "(in " + std::to_string(g.in_port) + " vc " + std::to_string(g.vc) + " -> out " +
            std::to_string(g.out_port) + ") ";
  return text.empty() ? "(none)" : text;
}

bool same(const std::vector<SwitchGrant>& a, const std::vector<SwitchGrant>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].in_port != b[i].in_port || a[i].vc != b[i].vc || a[i].out_port != b[i].out_port) return false;
  return true;
}

TEST(SwitchAllocator, TableOfCases) {
  const std::vector<SwitchCase> cases = {
      {"a single request is granted",
       3, 3, 2,
       {{{{1, 1, 2}}, {{1, 1, 2}}}}},
      {"no requests, no grants",
       3, 3, 2,
       {{{}, {}}}},
      {"requests of one cycle are not carried into the next",
       3, 3, 2,
       {{{{0, 0, 1}, {2, 1, 0}}, {{2, 1, 0}, {0, 0, 1}}},
        {{}, {}}}},
      {"grants come out in increasing output port order, one per output, conflict-free requests all win",
       3, 3, 1,
       {{{{0, 0, 2}, {1, 0, 0}, {2, 0, 1}}, {{1, 0, 0}, {2, 0, 1}, {0, 0, 2}}}}},
      {"two inputs for one output: the lowest input first, then the output's pointer rotates past it",
       3, 2, 1,
       // Output 0's pointer starts at input 0: input 0 wins, the pointer goes to 1; then input 2 (the first
       // at or after 1), the pointer goes to 0 (past the last input); then input 0 again.
       {{{{0, 0, 0}, {2, 0, 0}}, {{0, 0, 0}}},
        {{{0, 0, 0}, {2, 0, 0}}, {{2, 0, 0}}},
        {{{0, 0, 0}, {2, 0, 0}}, {{0, 0, 0}}}}},
      {"an output's pointer wraps: no request at or after it, the first request wins",
       3, 1, 1,
       // Input 1 wins alone: the pointer goes to 2. Inputs 0 and 1 then ask: none at or after 2, so input 0.
       {{{{1, 0, 0}}, {{1, 0, 0}}},
        {{{0, 0, 0}, {1, 0, 0}}, {{0, 0, 0}}}}},
      {"one flit per input: an input with two VCs to two free outputs sends one, its pointer rotates over VCs",
       2, 2, 2,
       // Input 0's pointer starts at VC 0: VC 0 (to output 0) goes, the pointer moves to 1, so VC 1 (to
       // output 1) goes next, and the pointer wraps to 0.
       {{{{0, 0, 0}, {0, 1, 1}}, {{0, 0, 0}}},
        {{{0, 0, 0}, {0, 1, 1}}, {{0, 1, 1}}},
        {{{0, 0, 0}, {0, 1, 1}}, {{0, 0, 0}}}}},
      {"an input's pointer skips VCs that do not ask: the first requesting VC at or after it wins",
       1, 4, 4,
       // VC 1 wins alone (pointer -> 2); then VCs 0 and 3 ask: VC 3 is the first at or after 2.
       {{{{0, 1, 1}}, {{0, 1, 1}}},
        {{{0, 0, 0}, {0, 3, 3}}, {{0, 3, 3}}},
        {{{0, 0, 0}, {0, 3, 3}}, {{0, 0, 0}}}}},
      {"no rotation without a grant: an input whose pick loses at the output keeps its pointer",
       3, 2, 2,
       // Cycle 1: input 1 wins output 0 alone, output 0's pointer goes to 2.
       // Cycle 2: input 0 picks VC 0 (to output 0), input 2 picks VC 0 (to output 0); output 0 grants
       //   input 2 (at its pointer), so input 0 sends nothing, although its VC 1 asked for the idle
       //   output 1 (separable allocation); output 0's pointer wraps to 0; input 0's stays at VC 0.
       // Cycle 3: input 0 picks VC 0 again (no rotation), input 2 (pointer 1) wraps to VC 0; output 0
       //   grants input 0 (pointer 0). Input 0's pointer moves to VC 1, output 0's to input 1.
       // Cycle 4: input 0 picks VC 1 (output 1), input 2 VC 0 (output 0): both granted.
       {{{{1, 0, 0}}, {{1, 0, 0}}},
        {{{0, 0, 0}, {0, 1, 1}, {2, 0, 0}}, {{2, 0, 0}}},
        {{{0, 0, 0}, {0, 1, 1}, {2, 0, 0}}, {{0, 0, 0}}},
        {{{0, 0, 0}, {0, 1, 1}, {2, 0, 0}}, {{2, 0, 0}, {0, 1, 1}}}}},
      {"outputs keep their own pointers: a grant on one output does not move another's",
       2, 2, 1,
       // Output 0 grants input 0 (its pointer -> 1). Then both inputs ask for output 1, whose pointer is
       // still 0: input 0 wins there. Then both ask for output 0: input 1 (pointer 1).
       {{{{0, 0, 0}}, {{0, 0, 0}}},
        {{{0, 0, 1}, {1, 0, 1}}, {{0, 0, 1}}},
        {{{0, 0, 0}, {1, 0, 0}}, {{1, 0, 0}}}}},
      {"three inputs contend for two outputs: each output grants one, the third input waits",
       3, 2, 2,
       // Inputs 0 and 1 ask for output 0, input 2 for output 1 (VC 1). Output 0 grants input 0, output 1
       // input 2. Next cycle the same: output 0's pointer is now 1, so input 1.
       {{{{0, 0, 0}, {1, 0, 0}, {2, 1, 1}}, {{0, 0, 0}, {2, 1, 1}}},
        {{{0, 0, 0}, {1, 0, 0}, {2, 1, 1}}, {{1, 0, 0}, {2, 1, 1}}}}},
  };

  for (const SwitchCase& c : cases) {
    SCOPED_TRACE(c.name);
    SwitchAllocator allocator(c.inputs, c.outputs, c.vcs);
    for (std::size_t t = 0; t < c.cycles.size(); ++t) {
      SCOPED_TRACE("cycle " + std::to_string(t + 1));
      for (const Request& r : c.cycles[t].requests) allocator.offer(r.in_port, r.vc, r.out_port);
      const std::vector<SwitchGrant>& grants = allocator.allocate();
      EXPECT_TRUE(same(grants, c.cycles[t].grants))
          << "granted " << describe(grants) << ", expected " << describe(c.cycles[t].grants);
    }
  }
}

}  // namespace
}  // namespace meshmp
