// The VC allocators on their own (hw/router/vc_allocator.h over hw/router/output_unit.h), no SystemC
// design: docs/architecture.md "Router microarchitecture" step 3 and router.vc_allocator.
// - per-port: per output port, requests in input VC order (in_port * V + vc) served round robin from a
//   pointer that moves past the last winner; each winner takes the lowest free output VC of its range
//   with a credit (cut-through / store-and-forward: credits for the whole packet); every request that
//   can be met is met; an exclusive ejection port takes one packet at a time.
// - islip: one iteration of a separable iSLIP allocator over input VCs x output VCs: every free output VC
//   grants the first request at or after its grant pointer, every input VC accepts the first grant (output
//   VC numbered port * V + vc) at or after its accept pointer, both pointers move past the match only;
//   a wormhole head is given a VC without a credit, a whole packet's room is checked.
// Each case: the output units' state, then rounds of (releases, credits back, requests, expected grants).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hw/router/output_unit.h"
#include "hw/router/vc_allocator.h"

namespace meshmp {
namespace {

struct PortVc {
  int port;
  int vc;
};

struct Owned {
  int port;
  int vc;
  int owner;  // input VC
};

struct Used {
  int port;
  int vc;
  int flits;  // credits consumed before the first round
};

struct Request {
  int out_port;
  VcRequest request;
};

struct Grant {
  int input_vc;
  int out_port;
  int out_vc;
  bool operator==(const Grant& o) const {
    return input_vc == o.input_vc && out_port == o.out_port && out_vc == o.out_vc;
  }
};

struct Round {
  std::vector<PortVc> releases;        // tails that left before this round (the VC is free again)
  std::vector<PortVc> credits_back;    // credits returned before this round
  std::vector<Request> requests;       // in increasing input VC order
  std::vector<Grant> grants;           // expected, in the order the allocator reports them
};

struct VcCase {
  std::string name;
  bool islip;
  int ejection_port;  // -1: none; else that port is an ejection port
  bool exclusive;     // ... exclusive (one packet at a time over its VCs)
  std::vector<Owned> owned;
  std::vector<Used> used;
  std::vector<Round> rounds;
};

// Every case: 2 ports x 4 VCs (input VC = in_port * 4 + vc, 0..7), buffers of 8 flits.
constexpr int kPorts = 2;
constexpr int kVcs = 4;
constexpr int kBuffer = 8;

// A wormhole request (one credit) and a whole-packet request.
Request worm(int out_port, int input_vc, int vc_begin = 0, int vc_end = kVcs) {
  return {out_port, {input_vc, vc_begin, vc_end, 1}};
}
Request whole(int out_port, int input_vc, int flits, int vc_begin = 0, int vc_end = kVcs) {
  return {out_port, {input_vc, vc_begin, vc_end, flits}};
}

std::string describe(const std::vector<Grant>& grants) {
  std::string text;
  for (const Grant& g : grants)
    text += "(input VC " + std::to_string(g.input_vc) + " -> port " + std::to_string(g.out_port) + " VC " +
            std::to_string(g.out_vc) + ") ";
  return text.empty() ? "(none)" : text;
}

void run_cases(const std::vector<VcCase>& cases) {
  for (const VcCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<OutputUnit> outputs;
    for (int p = 0; p < kPorts; ++p)
      outputs.emplace_back(kVcs, kBuffer, p == c.ejection_port, p == c.ejection_port && c.exclusive);
    for (const Owned& o : c.owned) outputs[o.port].allocate(o.vc, o.owner);
    for (const Used& u : c.used)
      for (int k = 0; k < u.flits; ++k) ASSERT_TRUE(outputs[u.port].consume_credit(u.vc));
    VcAllocator allocator(kPorts, kVcs, c.islip);
    for (std::size_t r = 0; r < c.rounds.size(); ++r) {
      SCOPED_TRACE("round " + std::to_string(r + 1));
      const Round& round = c.rounds[r];
      for (const PortVc& x : round.releases) outputs[x.port].release(x.vc);
      for (const PortVc& x : round.credits_back) ASSERT_TRUE(outputs[x.port].return_credit(x.vc));
      for (const Request& q : round.requests) allocator.request(q.out_port, q.request);
      std::vector<Grant> grants;
      allocator.allocate(outputs, [&](int input_vc, int out_port, int out_vc) {
        grants.push_back({input_vc, out_port, out_vc});
      });
      EXPECT_EQ(grants, round.grants) << "granted " << describe(grants) << ", expected " << describe(round.grants);
      // A grant makes the input VC the output VC's owner.
      for (const Grant& g : grants) EXPECT_EQ(outputs[g.out_port].owner(g.out_vc), g.input_vc);
    }
  }
}

TEST(VcAllocator, PerPortTableOfCases) {
  const std::vector<VcCase> cases = {
      {"a wormhole head takes the lowest free output VC", false, -1, true, {}, {},
       {{{}, {}, {worm(1, 5)}, {{5, 1, 0}}}}},
      {"the allowed range is respected (dateline class 1 = VCs 2..3)", false, -1, true, {}, {},
       {{{}, {}, {worm(0, 2, 2, 4)}, {{2, 0, 2}}}}},
      {"an output VC owned by another packet is skipped", false, -1, true, {{0, 0, 7}}, {},
       {{{}, {}, {worm(0, 1)}, {{1, 0, 1}}}}},
      {"a VC without a credit is skipped; one credit is enough for a wormhole head", false, -1, true, {},
       {{0, 0, kBuffer}, {0, 1, kBuffer - 1}},
       {{{}, {}, {worm(0, 1)}, {{1, 0, 1}}}}},
      {"cut-through: only a VC with room for the whole packet; a later request may take a lower VC", false, -1,
       true, {}, {{0, 0, 3}},  // VC 0 has 5 credits, VCs 1..3 have 8
       // Input VC 1 needs 6: VC 0 is too small, VC 1 it is. Input VC 5 needs 5: VC 0 fits.
       {{{}, {}, {whole(0, 1, 6), whole(0, 5, 5)}, {{1, 0, 1}, {5, 0, 0}}}}},
      {"store-and-forward: no VC with room, no grant until a credit comes back", false, -1, true, {},
       {{0, 0, 1}, {0, 1, 1}, {0, 2, 1}, {0, 3, 1}},  // 7 credits each
       {{{}, {}, {whole(0, 3, 8)}, {}},
        {{}, {{0, 2}}, {whole(0, 3, 8)}, {{3, 0, 2}}}}},
      {"every request that can be met is met, in input VC order", false, -1, true, {}, {},
       {{{}, {}, {worm(1, 1), worm(1, 2), worm(1, 6)}, {{1, 1, 0}, {2, 1, 1}, {6, 1, 2}}}}},
      {"round robin: the pointer moves past the winner and wraps", false, -1, true, {}, {},
       // One VC in range, two requests: input VC 1 (pointer 0 -> 2), then 5 (first >= 2; pointer -> 6),
       // then 1 again (none >= 6).
       {{{}, {}, {worm(0, 1, 0, 1), worm(0, 5, 0, 1)}, {{1, 0, 0}}},
        {{{0, 0}}, {}, {worm(0, 1, 0, 1), worm(0, 5, 0, 1)}, {{5, 0, 0}}},
        {{{0, 0}}, {}, {worm(0, 1, 0, 1), worm(0, 5, 0, 1)}, {{1, 0, 0}}}}},
      {"the pointer moves past the last winner, not the first", false, -1, true, {}, {},
       // Pointer 0: 1 takes VC 0, 3 takes VC 1, 5 finds VC 0 taken: pointer -> 4. Then all three ask for
       // VC 0: 5 is served first.
       {{{}, {}, {worm(0, 1, 0, 1), worm(0, 3, 1, 2), worm(0, 5, 0, 1)}, {{1, 0, 0}, {3, 0, 1}}},
        {{{0, 0}, {0, 1}}, {}, {worm(0, 1, 0, 1), worm(0, 3, 0, 1), worm(0, 5, 0, 1)}, {{5, 0, 0}}}}},
      {"no rotation without a grant", false, -1, true, {}, {},
       // 1 wins (pointer -> 2); then 5 and 6 find VC 0 owned: no grant, the pointer stays at 2; then 5 wins.
       {{{}, {}, {worm(0, 1, 0, 1)}, {{1, 0, 0}}},
        {{}, {}, {worm(0, 5, 0, 1), worm(0, 6, 0, 1)}, {}},
        {{{0, 0}}, {}, {worm(0, 1, 0, 1), worm(0, 5, 0, 1), worm(0, 6, 0, 1)}, {{5, 0, 0}}}}},
      {"each output port has its own pointer", false, -1, true, {}, {},
       // Port 0 serves 1 (its pointer -> 2); port 1's pointer is still 0, so it serves 1 before 5 too.
       {{{}, {}, {worm(0, 1, 0, 1), worm(0, 5, 0, 1)}, {{1, 0, 0}}},
        {{}, {}, {worm(1, 1, 0, 1), worm(1, 5, 0, 1)}, {{1, 1, 0}}}}},
      {"an exclusive ejection port takes one packet at a time over all its VCs", false, 1, true, {}, {},
       {{{}, {}, {worm(1, 0), worm(1, 4)}, {{0, 1, 0}}},
        {{{1, 0}}, {}, {worm(1, 4)}, {{4, 1, 0}}}}},
      {"a non-exclusive ejection port (traffic sinks) takes several packets", false, 1, false, {}, {},
       {{{}, {}, {worm(1, 0), worm(1, 4)}, {{0, 1, 0}, {4, 1, 1}}}}},
  };
  run_cases(cases);
}

TEST(VcAllocator, IslipTableOfCases) {
  const std::vector<VcCase> cases = {
      {"a single request: the first output VC at or after the accept pointer", true, -1, true, {}, {},
       {{{}, {}, {worm(1, 5)}, {{5, 1, 0}}}}},
      {"a wormhole head is given a VC without a credit", true, -1, true, {}, {{0, 0, kBuffer}},
       {{{}, {}, {worm(0, 1)}, {{1, 0, 0}}}}},
      {"a whole packet's room is checked", true, -1, true, {}, {{0, 0, 3}},  // VC 0: 5 credits
       {{{}, {}, {whole(0, 1, 6)}, {{1, 0, 1}}}}},
      {"an owned output VC grants nobody", true, -1, true, {{0, 0, 7}}, {},
       {{{}, {}, {worm(0, 1)}, {{1, 0, 1}}}}},
      {"one iteration: every free VC grants the same input VC, the other request waits, VCs stay idle", true, -1,
       true, {}, {},
       {{{}, {}, {worm(0, 1), worm(0, 5)}, {{1, 0, 0}}}}},
      {"output VCs have their own grant pointers: two input VCs matched in one iteration", true, -1, true, {}, {},
       // VC 1 serves input VC 1 (VC 1's grant pointer -> 2, input VC 1's accept pointer -> 2). Then VC 0
       // grants 1 (pointer 0) and VC 1 grants 5 (first >= 2); 1 accepts VC 0 (its only grant), 5 VC 1.
       {{{}, {}, {worm(0, 1, 1, 2)}, {{1, 0, 1}}},
        {{{0, 1}}, {}, {worm(0, 1, 0, 2), worm(0, 5, 0, 2)}, {{1, 0, 0}, {5, 0, 1}}}}},
      {"an input VC's successive packets take the output VCs in turn (accept pointer), wrapping", true, -1, true,
       {}, {},
       {{{}, {}, {worm(0, 1)}, {{1, 0, 0}}},
        {{{0, 0}}, {}, {worm(0, 1)}, {{1, 0, 1}}},
        {{{0, 1}}, {}, {worm(0, 1)}, {{1, 0, 2}}},
        {{{0, 2}}, {}, {worm(0, 1)}, {{1, 0, 3}}},
        {{{0, 3}}, {}, {worm(0, 1)}, {{1, 0, 0}}}}},
      {"an output VC's grant pointer moves past the accepted input VC and wraps", true, -1, true, {}, {},
       {{{}, {}, {worm(0, 1, 0, 1), worm(0, 5, 0, 1)}, {{1, 0, 0}}},
        {{{0, 0}}, {}, {worm(0, 1, 0, 1), worm(0, 5, 0, 1)}, {{5, 0, 0}}},
        {{{0, 0}}, {}, {worm(0, 1, 0, 1), worm(0, 5, 0, 1)}, {{1, 0, 0}}}}},
      {"no match, no pointer moves", true, -1, true, {{0, 0, 7}}, {},
       // VC 0 is owned: 5 is not served and VC 0's grant pointer stays 0 (not past 5), so once free it
       // serves 5 before 6.
       {{{}, {}, {worm(0, 5, 0, 1)}, {}},
        {{{0, 0}}, {}, {worm(0, 5, 0, 1), worm(0, 6, 0, 1)}, {{5, 0, 0}}}}},
      {"an exclusive ejection port: a second accepted grant is dropped", true, 1, true, {}, {},
       {{{}, {}, {worm(1, 0, 0, 1), worm(1, 4, 1, 2)}, {{0, 1, 0}}},
        {{{1, 0}}, {}, {worm(1, 4, 1, 2)}, {{4, 1, 1}}}}},
      {"a non-exclusive ejection port: both matches stand", true, 1, false, {}, {},
       {{{}, {}, {worm(1, 0, 0, 1), worm(1, 4, 1, 2)}, {{0, 1, 0}, {4, 1, 1}}}}},
  };
  run_cases(cases);
}

}  // namespace
}  // namespace meshmp
