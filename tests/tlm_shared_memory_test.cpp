// Paper 004's shared memory (tlm/shared_memory.h) driven by small scripted TLM-2.0 initiators: the cost of a
// lone access (1 + tau + ceil(m / b) cycles from a request at an edge), banks used at once without conflict,
// bank conflicts that wait exactly what the bank schedule says, the k* port limit, the round-robin order,
// data moving at completion, the error responses and the statistics. Each TEST elaborates its own design
// and calls sc_start once: run one per process (gtest_discover_tests, or --gtest_filter).
#define SC_INCLUDE_DYNAMIC_PROCESSES  // sc_spawn: one thread per script
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "tlm/shared_memory.h"
#include "tlm/strided_access.h"

namespace meshmp {
namespace {

const sc_core::sc_time kCycle(10, sc_core::SC_NS);

// One scripted transaction: issued at `at` (or when the previous one of its thread returns, if later).
struct Access {
  tlm::tlm_command command = tlm::TLM_READ_COMMAND;
  std::uint64_t address = 0;
  std::vector<unsigned char> data;  // a write's bytes; a read's buffer (length = size)
  sc_core::sc_time at;
  sc_core::sc_time annotated;             // annotated delay handed to b_transport
  bool byte_enables = false;              // attach a byte-enable array (refused by the memory)
  int streaming_width = -1;               // -1: = length
  StridedAccess strided;                  // attached when piece_bytes > 0
  // Results.
  sc_core::sc_time issued, returned, delay_after;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
};

Access write(double at_cycles, std::uint64_t address, std::vector<unsigned char> bytes) {
  Access a;
  a.command = tlm::TLM_WRITE_COMMAND;
  a.address = address;
  a.data = std::move(bytes);
  a.at = kCycle * at_cycles;
  return a;
}
Access write(double at_cycles, std::uint64_t address, std::size_t length, unsigned char value) {
  return write(at_cycles, address, std::vector<unsigned char>(length, value));
}
Access read(double at_cycles, std::uint64_t address, std::size_t length) {
  Access a;
  a.command = tlm::TLM_READ_COMMAND;
  a.address = address;
  a.data.assign(length, 0xEE);
  a.at = kCycle * at_cycles;
  return a;
}

Access strided(Access a, std::uint32_t piece_bytes, std::uint32_t stride_bytes) {
  a.strided = StridedAccess(piece_bytes, stride_bytes);
  return a;
}

std::vector<unsigned char> pattern(std::size_t length, unsigned seed) {
  std::vector<unsigned char> bytes(length);
  for (std::size_t i = 0; i < length; ++i) bytes[i] = static_cast<unsigned char>(seed * 37 + i * 11 + 1);
  return bytes;
}

// Whole cycles of kCycle in t (every time this test checks falls on an edge).
std::uint64_t cycles(const sc_core::sc_time& t) {
  EXPECT_EQ(t.value() % kCycle.value(), 0u) << t;
  return t.value() / kCycle.value();
}

// A processor: one initiator socket, one SC_THREAD per script (each runs its accesses in order).
struct Processor : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Processor> socket;
  std::vector<std::vector<Access>> scripts;

  Processor(sc_core::sc_module_name name, std::vector<std::vector<Access>> s)
      : sc_core::sc_module(name), socket("socket"), scripts(std::move(s)) {
    for (std::size_t i = 0; i < scripts.size(); ++i)
      sc_core::sc_spawn([this, i] { run(scripts[i]); }, sc_core::sc_gen_unique_name("script"));
  }
  Processor(sc_core::sc_module_name name, std::vector<Access> script)
      : Processor(name, std::vector<std::vector<Access>>{std::move(script)}) {}

  Access& at(std::size_t i) { return scripts[0][i]; }

  void run(std::vector<Access>& script) {
    for (Access& a : script) {
      if (a.at > sc_core::sc_time_stamp()) sc_core::wait(a.at - sc_core::sc_time_stamp());
      tlm::tlm_generic_payload trans;
      unsigned char enables[4] = {0xFF, 0xFF, 0xFF, 0xFF};
      trans.set_command(a.command);
      trans.set_address(a.address);
      trans.set_data_ptr(a.data.data());
      trans.set_data_length(static_cast<unsigned>(a.data.size()));
      trans.set_streaming_width(a.streaming_width < 0 ? static_cast<unsigned>(a.data.size())
                                                      : static_cast<unsigned>(a.streaming_width));
      if (a.byte_enables) {
        trans.set_byte_enable_ptr(enables);
        trans.set_byte_enable_length(4);
      }
      trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      if (a.strided.piece_bytes > 0) trans.set_extension(&a.strided);
      sc_core::sc_time delay = a.annotated;
      a.issued = sc_core::sc_time_stamp();
      socket->b_transport(trans, delay);
      trans.clear_extension<StridedAccess>();  // the script's: the payload must not free it
      a.returned = sc_core::sc_time_stamp();
      a.delay_after = delay;
      a.status = trans.get_response_status();
    }
  }
};

void run_to_end() { sc_core::sc_start(); }

TEST(TlmSharedMemory, SingleAccessTakesOnePlusTauPlusWords) {
  // tau = 3, b = 8 bytes per cycle.
  SharedMemory memory("memory", 1, 1024, 4, 8, 1, FabricTiming{3, 8}, kCycle);
  const std::vector<unsigned char> data = pattern(20, 1);
  Access delayed = read(30, 16, 8);
  delayed.annotated = kCycle * 3;
  Processor p0("p0", {write(0, 16, data),   // cycle 0 -> edge 1, T = 3 + ceil(20/8) = 6: ends at 7
                      read(0, 16, 20),      // made at 7 -> edge 8, T = 6: ends at 14
                      read(20.5, 16, 8),    // made during cycle 20 -> edge 21, T = 3 + 1: ends at 25
                      delayed,              // 30 + 3 annotated = 33 -> edge 34, T = 4: ends at 38
                      read(40, 1024, 0)});  // no bytes (at the end of the memory): T = tau = 3, ends at 44
  p0.socket.bind(memory.processors);
  run_to_end();

  for (const Access& a : p0.scripts[0]) EXPECT_EQ(a.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(cycles(p0.at(0).returned), 1u + 3u + 3u);
  EXPECT_EQ(cycles(p0.at(1).issued), 7u);
  EXPECT_EQ(cycles(p0.at(1).returned), 7u + 1u + 3u + 3u);
  EXPECT_EQ(p0.at(1).data, data);
  EXPECT_EQ(cycles(p0.at(2).returned), 25u);
  EXPECT_EQ(std::vector<unsigned char>(p0.at(2).data), std::vector<unsigned char>(data.begin(), data.begin() + 8));
  EXPECT_EQ(cycles(p0.at(3).returned), 38u);
  EXPECT_EQ(p0.at(3).delay_after, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(cycles(p0.at(4).returned), 44u);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), memory.bytes().begin() + 16));

  const SharedMemoryStatistics& s = memory.statistics();
  EXPECT_EQ(s.accesses, 5u);
  EXPECT_EQ(s.writes, 1u);
  EXPECT_EQ(s.reads, 4u);
  EXPECT_EQ(s.bytes_written, 20u);
  EXPECT_EQ(s.bytes_read, 20u + 8u + 8u);
  EXPECT_EQ(s.peak_concurrent, 1u);
  EXPECT_EQ(s.busy_cycles, 6u + 6u + 4u + 4u + 3u);
  EXPECT_EQ(s.bank_conflicts, 0u);
  EXPECT_EQ(s.port_waits, 0u);
  EXPECT_EQ(s.errors, 0u);
}

TEST(TlmSharedMemory, DisjointBlocksInDifferentBanksRunAtOnce) {
  // B = 4 banks of 8-byte words, b = 8: one word per cycle. Processor p writes 8 words from word 9p (bank p);
  // at one rate the banks' rotation keeps the four schedules apart, so all four run at once.
  SharedMemory memory("memory", 4, 1024, 4, 8, 4, FabricTiming{2, 8}, kCycle);
  std::vector<std::unique_ptr<Processor>> procs;
  for (int p = 0; p < 4; ++p) {
    procs.push_back(std::make_unique<Processor>(sc_core::sc_gen_unique_name("p"),
                                                std::vector<Access>{write(0, 72u * p, pattern(64, p))}));
    procs.back()->socket.bind(memory.processors);
  }
  run_to_end();
  for (int p = 0; p < 4; ++p) {
    const Access& a = procs[p]->at(0);
    EXPECT_EQ(a.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(memory.bank_of(a.address), p);
    EXPECT_EQ(cycles(a.returned), 1u + 2u + 8u) << "processor " << p;
    EXPECT_TRUE(std::equal(a.data.begin(), a.data.end(), memory.bytes().begin() + 72 * p)) << "processor " << p;
  }
  const SharedMemoryStatistics& s = memory.statistics();
  EXPECT_EQ(s.bank_conflicts, 0u);
  EXPECT_EQ(s.bank_conflict_cycles, 0u);
  EXPECT_EQ(s.port_waits, 0u);
  EXPECT_EQ(s.peak_concurrent, 4u);
  EXPECT_EQ(s.busy_cycles, 10u);
  EXPECT_EQ(s.bytes_written, 256u);
}

TEST(TlmSharedMemory, SameStartBankAtOneEdgeConflictsForOneEdge) {
  // As above, but both blocks start in bank 0: at edge 1 both would use bank 0 in cycle 3; processor 1 (later
  // in the round-robin) waits one edge, after which its schedule runs one cycle behind processor 0's and
  // never meets it.
  SharedMemory memory("memory", 2, 1024, 4, 8, 2, FabricTiming{2, 8}, kCycle);
  Processor p0("p0", {write(0, 0, pattern(64, 0))});
  Processor p1("p1", {write(0, 256, pattern(64, 1))});
  p0.socket.bind(memory.processors);
  p1.socket.bind(memory.processors);
  run_to_end();
  EXPECT_EQ(cycles(p0.at(0).returned), 11u);
  EXPECT_EQ(cycles(p1.at(0).returned), 12u);
  EXPECT_TRUE(std::equal(p1.at(0).data.begin(), p1.at(0).data.end(), memory.bytes().begin() + 256));
  const SharedMemoryStatistics& s = memory.statistics();
  EXPECT_EQ(s.bank_conflicts, 1u);
  EXPECT_EQ(s.bank_conflict_cycles, 1u);
  EXPECT_EQ(s.peak_concurrent, 2u);
  EXPECT_EQ(s.busy_cycles, 11u);
}

TEST(TlmSharedMemory, WideChannelConflictWaitsUntilItsBanksAreFree) {
  // B = 2 banks of 4-byte words, b = 8: each streaming cycle uses both banks. Processor 0's 32 bytes stream
  // in cycles 2..5 (granted at 1, tau = 1); processor 1's block also starts in bank 0. Granted at edge e it
  // would stream in cycles e+1 .. e+4, so every edge up to 4 collides: it is granted at 5 (4 edges waited)
  // and ends at 5 + 1 + 4 = 10.
  SharedMemory memory("memory", 2, 256, 2, 4, 2, FabricTiming{1, 8}, kCycle);
  Processor p0("p0", {write(0, 0, pattern(32, 0))});
  Processor p1("p1", {write(0, 64, pattern(32, 1))});
  p0.socket.bind(memory.processors);
  p1.socket.bind(memory.processors);
  run_to_end();
  EXPECT_EQ(cycles(p0.at(0).returned), 6u);
  EXPECT_EQ(cycles(p1.at(0).returned), 10u);
  const SharedMemoryStatistics& s = memory.statistics();
  EXPECT_EQ(s.bank_conflicts, 1u);
  EXPECT_EQ(s.bank_conflict_cycles, 4u);
  EXPECT_EQ(s.peak_concurrent, 2u);  // processor 1 starts (edge 5) as processor 0 is in its last cycle
  EXPECT_EQ(s.busy_cycles, 9u);      // cycles 1..9
}

TEST(TlmSharedMemory, PortLimitBoundsAccessesInFlight) {
  // k* = 2. Three 2-word writes whose bank schedules never collide (banks 0-1, 2-3, 1-2 at edge 1: bank 1 in
  // cycles 4 and 3, bank 2 in 3 and 4): the third waits for a port until the first two end at edge 5.
  SharedMemory memory("memory", 3, 1024, 4, 8, 2, FabricTiming{2, 8}, kCycle);
  Processor p0("p0", {write(0, 0, pattern(16, 0))});
  Processor p1("p1", {write(0, 16, pattern(16, 1))});
  Processor p2("p2", {write(0, 40, pattern(16, 2))});
  p0.socket.bind(memory.processors);
  p1.socket.bind(memory.processors);
  p2.socket.bind(memory.processors);
  run_to_end();
  EXPECT_EQ(cycles(p0.at(0).returned), 5u);
  EXPECT_EQ(cycles(p1.at(0).returned), 5u);
  EXPECT_EQ(cycles(p2.at(0).returned), 9u);
  const SharedMemoryStatistics& s = memory.statistics();
  EXPECT_EQ(s.port_waits, 1u);
  EXPECT_EQ(s.port_wait_cycles, 4u);
  EXPECT_EQ(s.bank_conflicts, 0u);
  EXPECT_EQ(s.peak_concurrent, 2u);
  EXPECT_EQ(s.busy_cycles, 8u);
}

TEST(TlmSharedMemory, RoundRobinStartsAfterTheLastGranted) {
  // One bank, tau = 0, one-word writes (T = 1): every pair of accesses granted at one edge collides.
  // Processor 0's second write, made at cycle 2, meets processor 2's at edge 3: round-robin after the last
  // granted (1) serves 2 first; ascending order would have served 0. The processors are constructed in
  // reverse order (SystemC then runs their threads in another order); the outcome is the same.
  SharedMemory memory("memory", 3, 64, 1, 8, 3, FabricTiming{0, 8}, kCycle);
  Processor p2("p2", {write(0, 24, 8, 0x33)});
  Processor p1("p1", {write(0, 16, 8, 0x22)});
  Processor p0("p0", {write(0, 0, 8, 0x11), write(2, 8, 8, 0x12)});
  p0.socket.bind(memory.processors);
  p1.socket.bind(memory.processors);
  p2.socket.bind(memory.processors);
  run_to_end();
  EXPECT_EQ(cycles(p0.at(0).returned), 2u);
  EXPECT_EQ(cycles(p1.at(0).returned), 3u);
  EXPECT_EQ(cycles(p2.at(0).returned), 4u);
  EXPECT_EQ(cycles(p0.at(1).issued), 2u);
  EXPECT_EQ(cycles(p0.at(1).returned), 5u);
  const SharedMemoryStatistics& s = memory.statistics();
  EXPECT_EQ(s.bank_conflicts, 3u);       // p1 (edge 1), p2 (edges 1, 2), p0's second (edge 3)
  EXPECT_EQ(s.bank_conflict_cycles, 4u);
  EXPECT_EQ(s.peak_concurrent, 1u);
  EXPECT_EQ(memory.bytes()[8], 0x12);
  EXPECT_EQ(memory.bytes()[24], 0x33);
}

// A request made exactly at an edge (here edges 1 and 6, where the memory also grants and completes
// processor 0's accesses) is considered at the next edge, whichever of the memory's process and the
// processors' threads SystemC runs first: every construction order gives the same times.
void request_at_an_edge(bool memory_first, bool p1_first) {
  std::unique_ptr<SharedMemory> memory;
  std::unique_ptr<Processor> p0, p1;
  auto make_memory = [&] {
    memory = std::make_unique<SharedMemory>("memory", 2, 64, 2, 8, 2, FabricTiming{1, 8}, kCycle);
  };
  // p0: one word at edge 1 (bank 0, cycle 2; ends 3), one at edge 4 (its request at 3, when the first ends;
  // ends 6).
  auto make_p0 = [&] {
    p0 = std::make_unique<Processor>("p0", std::vector<Access>{write(0, 0, 8, 0x11), write(0, 16, 8, 0x12)});
  };
  // p1: a word in bank 1, made at exactly 1.0 and 6.0 cycles: granted at 2 and 7, ending at 4 and 9.
  auto make_p1 = [&] {
    p1 = std::make_unique<Processor>("p1", std::vector<Access>{write(1, 8, 8, 0x21), write(6, 24, 8, 0x22)});
  };
  if (memory_first) make_memory();
  if (p1_first) make_p1();
  make_p0();
  if (!p1_first) make_p1();
  if (!memory_first) make_memory();
  p0->socket.bind(memory->processors);
  p1->socket.bind(memory->processors);
  run_to_end();
  EXPECT_EQ(cycles(p0->at(0).returned), 3u);
  EXPECT_EQ(cycles(p0->at(1).returned), 6u);
  EXPECT_EQ(cycles(p1->at(0).issued), 1u);
  EXPECT_EQ(cycles(p1->at(0).returned), 4u);
  EXPECT_EQ(cycles(p1->at(1).issued), 6u);
  EXPECT_EQ(cycles(p1->at(1).returned), 9u);
  EXPECT_EQ(memory->statistics().bank_conflicts, 0u);
}

TEST(TlmSharedMemory, RequestAtAnEdgeIsConsideredAtTheNextMemoryFirst) { request_at_an_edge(true, false); }
TEST(TlmSharedMemory, RequestAtAnEdgeIsConsideredAtTheNextMemoryFirstP1First) { request_at_an_edge(true, true); }
TEST(TlmSharedMemory, RequestAtAnEdgeIsConsideredAtTheNextProcessorsFirst) { request_at_an_edge(false, false); }
TEST(TlmSharedMemory, RequestAtAnEdgeIsConsideredAtTheNextProcessorsFirstP1First) { request_at_an_edge(false, true); }

TEST(TlmSharedMemory, DataMovesAtCompletion) {
  // B = 4 banks of 8 bytes, b = 8, tau = 1. Memory bytes 0..63 start as 0xAA.
  //  p0 writes words 0..3 (0x11) at edge 1: banks 0,1,2,3 in cycles 2,3,4,5; ends at 6.
  //  p1 reads word 3 at edge 1 (bank 3 in cycle 2; ends at 3): the write has not completed: 0xAA.
  //  p2 writes words 3..4 (0x22) made at cycle 2, granted at 3: banks 3, 0 in cycles 4, 5; ends at 6 too. Both
  //     writes land at edge 6 in grant order: word 3 is p2's.
  //  p1 reads word 1, made at cycle 3, granted at 4 (bank 1 in cycle 5), ends at 6: the writes completing at
  //     its own completion edge land first, so it reads 0x11.
  SharedMemory memory("memory", 3, 128, 4, 8, 3, FabricTiming{1, 8}, kCycle);
  std::fill(memory.bytes().begin(), memory.bytes().begin() + 64, 0xAA);
  Processor p0("p0", {write(0, 0, 32, 0x11)});
  Processor p1("p1", {read(0, 24, 8), read(3.5, 8, 8)});
  Processor p2("p2", {write(2, 24, 16, 0x22)});
  p0.socket.bind(memory.processors);
  p1.socket.bind(memory.processors);
  p2.socket.bind(memory.processors);
  run_to_end();
  EXPECT_EQ(cycles(p0.at(0).returned), 6u);
  EXPECT_EQ(cycles(p1.at(0).returned), 3u);
  EXPECT_EQ(p1.at(0).data, std::vector<unsigned char>(8, 0xAA));
  EXPECT_EQ(cycles(p2.at(0).returned), 6u);
  EXPECT_EQ(cycles(p1.at(1).returned), 6u);
  EXPECT_EQ(p1.at(1).data, std::vector<unsigned char>(8, 0x11));
  for (int b = 0; b < 24; ++b) EXPECT_EQ(memory.bytes()[b], 0x11) << "byte " << b;
  for (int b = 24; b < 40; ++b) EXPECT_EQ(memory.bytes()[b], 0x22) << "byte " << b;
  for (int b = 40; b < 64; ++b) EXPECT_EQ(memory.bytes()[b], 0xAA) << "byte " << b;
  EXPECT_EQ(memory.statistics().bank_conflicts, 0u);
  EXPECT_EQ(memory.statistics().peak_concurrent, 3u);
}

TEST(TlmSharedMemory, UnalignedAccessesUseTheBanksTheirBytesStreamThrough) {
  // B = 4 banks of 8-byte words, b = 4, tau = 1. p0 writes 10 bytes at address 6: word 0 (its bytes 0-1)
  // and word 1 (its bytes 2-9) both start in the first streaming cycle: banks 0 and 1 in cycle 2;
  // T = 1 + ceil(10/4) = 4, ends at 5. p1 writes word 1 (4 bytes at 12) at edge 1: bank 1 in cycle 2
  // collides; at edge 2 bank 1 in cycle 3 is free: ends at 2 + 1 + 1 = 4, before p0's write lands at 5 and
  // overwrites bytes 12..15. p0 then reads its 10 bytes back.
  SharedMemory memory("memory", 2, 64, 4, 8, 2, FabricTiming{1, 4}, kCycle);
  const std::vector<unsigned char> data = pattern(10, 7);
  Processor p0("p0", {write(0, 6, data), read(0, 6, 10)});
  Processor p1("p1", {write(0, 12, 4, 0x55)});
  p0.socket.bind(memory.processors);
  p1.socket.bind(memory.processors);
  run_to_end();
  EXPECT_EQ(cycles(p0.at(0).returned), 5u);
  EXPECT_EQ(cycles(p1.at(0).returned), 4u);
  EXPECT_EQ(cycles(p0.at(1).returned), 5u + 1u + 4u);
  EXPECT_EQ(p0.at(1).data, data);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), memory.bytes().begin() + 6));
  EXPECT_EQ(memory.statistics().bank_conflicts, 1u);
  EXPECT_EQ(memory.statistics().bank_conflict_cycles, 1u);
}

TEST(TlmSharedMemory, ErrorsAnswerAtOnceAndLeaveMemoryUntouched) {
  SharedMemory memory("memory", 1, 64, 2, 8, 1, FabricTiming{5, 8}, kCycle);
  Access beyond = write(0, 60, 8, 0x77);   // bytes 60..67 of 64
  Access far = read(0, 65, 0);             // starts past the end
  Access enables = write(0, 0, 8, 0x77);
  enables.byte_enables = true;
  Access burst = write(0, 0, 8, 0x77);
  burst.streaming_width = 4;
  Access ignore = write(0, 0, 8, 0x77);
  ignore.command = tlm::TLM_IGNORE_COMMAND;
  Access delayed = write(0, 60, 8, 0x77);  // the annotated delay is still waited out first
  delayed.annotated = kCycle * 2;
  Processor p0("p0", {beyond, far, enables, burst, ignore, delayed});
  p0.socket.bind(memory.processors);
  bool dmi = true;
  unsigned debug_read = 0;
  sc_core::sc_spawn([&] {
    tlm::tlm_generic_payload trans;
    tlm::tlm_dmi dmi_data;
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_address(0);
    dmi = p0.socket->get_direct_mem_ptr(trans, dmi_data);
    unsigned char buffer[4] = {};
    trans.set_data_ptr(buffer);
    trans.set_data_length(4);
    debug_read = p0.socket->transport_dbg(trans);
  });
  run_to_end();
  const tlm::tlm_response_status expected[] = {tlm::TLM_ADDRESS_ERROR_RESPONSE,     tlm::TLM_ADDRESS_ERROR_RESPONSE,
                                               tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, tlm::TLM_BURST_ERROR_RESPONSE,
                                               tlm::TLM_COMMAND_ERROR_RESPONSE,     tlm::TLM_ADDRESS_ERROR_RESPONSE};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(p0.at(i).status, expected[i]) << "access " << i;
    EXPECT_EQ(p0.at(i).delay_after, sc_core::SC_ZERO_TIME) << "access " << i;
  }
  for (int i = 0; i < 5; ++i) EXPECT_EQ(p0.at(i).returned, sc_core::SC_ZERO_TIME) << "access " << i;
  EXPECT_EQ(cycles(p0.at(5).returned), 2u);
  EXPECT_FALSE(dmi);
  EXPECT_EQ(debug_read, 4u);
  for (std::uint8_t byte : memory.bytes()) EXPECT_EQ(byte, 0);
  EXPECT_EQ(memory.statistics().errors, 6u);
  EXPECT_EQ(memory.statistics().accesses, 0u);
  EXPECT_EQ(memory.statistics().busy_cycles, 0u);
}

TEST(TlmSharedMemory, AStridedAccessCostsOneStartUpAndUsesItsPiecesBanks) {
  // B = 4 banks of 8-byte words, b = 8, tau = 2. p0 writes 24 bytes in pieces of 8 every 32 bytes
  // (words 0, 4, 8: bank 0 in cycles 3, 4, 5) at edge 1: T = 2 + 3 = 5, as contiguous, ends at 6. p1 writes
  // word 12 (bank 0) at edge 1: bank 0 is p0's in cycles 3, 4 and 5, so p1 waits three edges (a contiguous
  // 24 bytes would have held bank 0 in cycle 3 only: one edge) and is granted at 4, ending at 4 + 2 + 1 = 7.
  // p0 then reads its pieces back in one strided read, and the bytes between the pieces stay untouched.
  SharedMemory memory("memory", 2, 128, 4, 8, 2, FabricTiming{2, 8}, kCycle);
  const std::vector<unsigned char> data = pattern(24, 5);
  Processor p0("p0", {strided(write(0, 0, data), 8, 32), strided(read(0, 0, 24), 8, 32)});
  Processor p1("p1", {write(0, 96, 8, 0x66)});
  p0.socket.bind(memory.processors);
  p1.socket.bind(memory.processors);
  run_to_end();
  EXPECT_EQ(p0.at(0).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(cycles(p0.at(0).returned), 6u);
  EXPECT_EQ(cycles(p1.at(0).returned), 7u);
  EXPECT_EQ(memory.statistics().bank_conflict_cycles, 3u);
  EXPECT_EQ(cycles(p0.at(1).returned), 6u + 1u + 5u);
  EXPECT_EQ(p0.at(1).data, data);
  for (std::size_t b = 0; b < 128; ++b) {
    const std::size_t piece = b / 32, within = b % 32;
    const unsigned char expected = b >= 96 && b < 104 ? 0x66 : piece < 3 && within < 8 ? data[piece * 8 + within] : 0;
    EXPECT_EQ(memory.bytes()[b], expected) << "byte " << b;
  }
}

TEST(TlmSharedMemory, StridedPiecesThatDoNotFitAreRefused) {
  SharedMemory memory("memory", 1, 64, 2, 8, 1, FabricTiming{5, 8}, kCycle);
  Processor p0("p0", {strided(write(0, 0, 24, 0x77), 16, 16),   // 16 does not divide 24
                      strided(write(0, 0, 16, 0x77), 8, 4),     // pieces would overlap
                      strided(write(0, 0, 16, 0x77), 8, 60),    // the second piece ends at 68 of 64
                      strided(read(0, 0, 16), 8, 56)});         // ends at 64: served
  p0.socket.bind(memory.processors);
  run_to_end();
  EXPECT_EQ(p0.at(0).status, tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(p0.at(1).status, tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(p0.at(2).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(p0.at(3).status, tlm::TLM_OK_RESPONSE);
  for (std::uint8_t byte : memory.bytes()) EXPECT_EQ(byte, 0);
  EXPECT_EQ(memory.statistics().errors, 3u);
}

TEST(TlmSharedMemory, StatisticsCountAccessesBytesAndWaits) {
  // B = 4 banks of 8 bytes, b = 8, tau = 1, k* = 2.
  //  edge 1: p0 write words 0..3 granted (banks 0-3 in cycles 2-5, ends 6); p1 write words 4..7 (bank 0 in
  //          cycle 2) collides: bank conflict; p2 read word 1 (bank 1 in cycle 2) granted, ends 3; p2's second
  //          read (word 2, made half a cycle later from another thread) waits for p2's channel.
  //  edge 2: p1 finds both ports taken: port wait; p2's second: channel (p2 busy until 3).
  //  edge 3: p2's read ends; round-robin from 0: p1 granted (banks 0-3 in cycles 4-7, ends 8), then p2's
  //          second finds both ports taken: port wait, at edges 3, 4 and 5.
  //  edge 6: p0 ends; p2's second read (bank 2 in cycle 7; p1 has it in cycle 6) granted, ends 8.
  SharedMemory memory("memory", 3, 256, 4, 8, 2, FabricTiming{1, 8}, kCycle);
  Processor p0("p0", {write(0, 0, 32, 0x10)});
  Processor p1("p1", {write(0, 32, 32, 0x20)});
  Processor p2("p2", std::vector<std::vector<Access>>{{read(0, 8, 8)}, {read(0.5, 16, 8)}});
  p0.socket.bind(memory.processors);
  p1.socket.bind(memory.processors);
  p2.socket.bind(memory.processors);
  run_to_end();
  EXPECT_EQ(cycles(p0.at(0).returned), 6u);
  EXPECT_EQ(cycles(p1.at(0).returned), 8u);
  EXPECT_EQ(cycles(p2.scripts[0][0].returned), 3u);
  EXPECT_EQ(cycles(p2.scripts[1][0].returned), 8u);
  EXPECT_EQ(p2.scripts[1][0].data, std::vector<unsigned char>(8, 0x10));
  const SharedMemoryStatistics& s = memory.statistics();
  EXPECT_EQ(s.accesses, 4u);
  EXPECT_EQ(s.writes, 2u);
  EXPECT_EQ(s.reads, 2u);
  EXPECT_EQ(s.bytes_written, 64u);
  EXPECT_EQ(s.bytes_read, 16u);
  EXPECT_EQ(s.errors, 0u);
  EXPECT_EQ(s.peak_concurrent, 2u);
  EXPECT_EQ(s.bank_conflicts, 1u);
  EXPECT_EQ(s.bank_conflict_cycles, 1u);
  EXPECT_EQ(s.port_waits, 2u);
  EXPECT_EQ(s.port_wait_cycles, 1u + 3u);
  EXPECT_EQ(s.channel_waits, 1u);
  EXPECT_EQ(s.channel_wait_cycles, 2u);
  EXPECT_EQ(s.busy_cycles, 7u);  // cycles 1..7
}

TEST(TlmSharedMemory, BindingCountIsCheckedAtEndOfElaboration) {
  SharedMemory memory("memory", 2, 64, 1, 8, 1, FabricTiming{1, 8}, kCycle);
  Processor p0("p0", std::vector<Access>{});
  p0.socket.bind(memory.processors);  // processor 1 is never bound
  sc_core::sc_report_handler::set_actions("meshmp/SharedMemory", sc_core::SC_ERROR, sc_core::SC_THROW);
  try {
    sc_core::sc_start();
    ADD_FAILURE() << "sc_start did not report the missing binding";
  } catch (const sc_core::sc_report& report) {
    EXPECT_NE(std::string(report.what()).find("bound 1 times, expected once per processor (2)"), std::string::npos)
        << report.what();
  }
}

TEST(TlmSharedMemory, ConstructorRejectsBadParameters) {
  EXPECT_THROW(SharedMemory("zero_processors", 0, 64, 1, 8, 1, FabricTiming{1, 8}, kCycle), std::invalid_argument);
  EXPECT_THROW(SharedMemory("zero_banks", 1, 64, 0, 8, 1, FabricTiming{1, 8}, kCycle), std::invalid_argument);
  EXPECT_THROW(SharedMemory("zero_word", 1, 64, 1, 0, 1, FabricTiming{1, 8}, kCycle), std::invalid_argument);
  EXPECT_THROW(SharedMemory("zero_ports", 1, 64, 1, 8, 0, FabricTiming{1, 8}, kCycle), std::invalid_argument);
  EXPECT_THROW(SharedMemory("zero_rate", 1, 64, 1, 8, 1, FabricTiming{1, 0}, kCycle), std::invalid_argument);
  EXPECT_THROW(SharedMemory("zero_cycle", 1, 64, 1, 8, 1, FabricTiming{1, 8}, sc_core::SC_ZERO_TIME),
               std::invalid_argument);
}

}  // namespace
}  // namespace meshmp
