// The DMA register file on its own (hw/node/dma_register_file.h over the register map tlm/dma_registers.h),
// served through b_transport-style generic payloads with no SystemC design and a stand-in engine for
// COMMAND. Rules checked (tlm/dma_registers.h, docs/architecture.md "Clocking": a descriptor is one burst
// PEER..COMMAND): 32-bit little-endian registers; the descriptor fields read back as written; a burst
// writes consecutive registers in address order and stops at the first refused one; COMMAND hands its
// value to the engine, whose refusal is the access's error; DESCRIPTOR_ID is the last descriptor created;
// QUERY selects the descriptor STATUS reports (pending / done, an error for one never issued); COMPLETED
// counts completions; ROUTE_LENGTH must be 0 and CHANNEL is ignored (no source routes, one channel);
// GLOBAL_ADDRESS exists on the shared memory's engine only; write-only, read-only and unmapped offsets and
// accesses that are not 32 bits wide answer TLM_GENERIC_ERROR_RESPONSE with last_error() saying why; after
// refuse_from_now every access answers the refusal; the direct memory interface reaches DESCRIPTOR_ID,
// COMPLETED and STEP_MARK only, until a refusal voids it.
#include <gtest/gtest.h>

#include <tlm>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "hw/node/dma_register_file.h"
#include "hw/router/flit.h"
#include "tlm/dma_registers.h"

namespace meshmp {
namespace {

enum class Op { Write, Read, Complete, Refuse };

struct Access {
  Op op;
  std::uint64_t address = 0;          // Write / Read
  std::vector<std::uint32_t> values;  // Write: the registers of the burst; Complete: the descriptor
  std::uint32_t read_value = 0;       // Read: expected value when ok
  bool ok = true;
  std::string error;                  // a fragment of last_error() when not ok (Refuse: the reason)
  int length = -1;                    // bytes of the access; -1: 4 per value written, 4 for a read
};

Access write(std::uint64_t address, std::vector<std::uint32_t> values) {
  return {Op::Write, address, std::move(values), 0, true, "", -1};
}
Access write_fails(std::uint64_t address, std::vector<std::uint32_t> values, std::string error, int length = -1) {
  return {Op::Write, address, std::move(values), 0, false, std::move(error), length};
}
Access read(std::uint64_t address, std::uint32_t value) { return {Op::Read, address, {}, value, true, "", -1}; }
Access read_fails(std::uint64_t address, std::string error, int length = -1) {
  return {Op::Read, address, {}, 0, false, std::move(error), length};
}
Access complete(std::uint32_t descriptor) { return {Op::Complete, 0, {descriptor}, 0, true, "", -1}; }
Access refuse(std::string why) { return {Op::Refuse, 0, {}, 0, true, std::move(why), -1}; }

// What the engine saw when COMMAND was written: the value and the descriptor fields at that moment.
struct CommandCall {
  std::uint32_t value, peer, local_address, length, tag;
  bool operator==(const CommandCall& o) const {
    return value == o.value && peer == o.peer && local_address == o.local_address && length == o.length &&
           tag == o.tag;
  }
};

struct DmaCase {
  std::string name;
  bool global_address;
  std::vector<Access> accesses;
  std::vector<CommandCall> commands;
};

constexpr std::uint32_t kSend = dma::kCommandSend;
constexpr std::uint32_t kReceive = dma::kCommandReceive;

std::string describe(const std::vector<CommandCall>& calls) {
  std::string text;
  for (const CommandCall& c : calls)
    text += "(COMMAND " + std::to_string(c.value) + " PEER " + std::to_string(c.peer) + " LOCAL_ADDRESS " +
            std::to_string(c.local_address) + " LENGTH " + std::to_string(c.length) + " TAG " +
            std::to_string(c.tag) + ") ";
  return text.empty() ? "(none)" : text;
}

TEST(DmaRegisterFile, TableOfCases) {
  using namespace dma;
  const std::vector<DmaCase> cases = {
      {"the descriptor fields and the step mark read back as written", false,
       {write(kPeer, {5}), write(kLocalAddress, {0x100}), write(kLength, {64}), write(kTag, {9}),
        write(kStepMark, {2}), read(kPeer, 5), read(kLocalAddress, 0x100), read(kLength, 64), read(kTag, 9),
        read(kStepMark, 2), write(kPeer, {kPeerAllOthers}), read(kPeer, kPeerAllOthers)},
       {}},
      {"a burst PEER..COMMAND writes the fields in address order, then starts the descriptor", false,
       {write(kPeer, {5, 0x100, 64, 9, 0, 0, kSend}), read(kDescriptorId, 0),
        write(kPeer, {6, 0x200, 8, 10, kAutoChannel, 0, kReceive}), read(kDescriptorId, 1), read(kPeer, 6),
        read(kLength, 8)},
       {{kSend, 5, 0x100, 64, 9}, {kReceive, 6, 0x200, 8, 10}}},
      {"QUERY selects the descriptor STATUS reports; COMPLETED counts the completed ones", false,
       {read(kCompleted, 0), write(kCommand, {kSend}), write(kCommand, {kSend}), write(kQuery, {1}),
        read(kStatus, kStatusPending), complete(1), read(kStatus, kStatusDone), read(kCompleted, 1),
        write(kQuery, {0}), read(kStatus, kStatusPending), complete(0), read(kStatus, kStatusDone),
        read(kCompleted, 2), read(kDescriptorId, 1)},
       {{kSend, 0, 0, 0, 0}, {kSend, 0, 0, 0, 0}}},
      {"STATUS of a descriptor never issued is an error", false,
       {read_fails(kStatus, "QUERY = 0: no such descriptor"), write(kCommand, {kSend}), read(kStatus, kStatusPending),
        write(kQuery, {1}), read_fails(kStatus, "QUERY = 1: no such descriptor")},
       {{kSend, 0, 0, 0, 0}}},
      {"the engine's refusal of a COMMAND is the access's error", false,
       {write(kPeer, {2}), write_fails(kCommand, {7}, "node 3 DMA: COMMAND = 7: refused by the test engine"),
        read_fails(kStatus, "QUERY = 0: no such descriptor")},
       {{7, 2, 0, 0, 0}}},
      {"a burst stops at the first refused register: the fields before it are written, COMMAND is not", false,
       {write_fails(kPeer, {5, 0x100, 64, 9, 0, 3, kSend},
                    "node 3 DMA: ROUTE_LENGTH = 3: source routes are the router network's; "
                    "a shared-resource machine has none"),
        read(kPeer, 5), read(kLocalAddress, 0x100), read(kLength, 64), read(kTag, 9)},
       {}},
      {"ROUTE_LENGTH 0 and any CHANNEL are accepted (no source routes, one channel)", false,
       {write(kRouteLength, {0}), write(kChannel, {3}), write(kChannel, {kAutoChannel}),
        write(kPeer, {1, 2, 3, 4, 5, 0, kSend})},
       {{kSend, 1, 2, 3, 4}}},
      {"write-only registers are not readable", false,
       {read_fails(kChannel, "no readable register at offset 16"),
        read_fails(kRouteLength, "no readable register at offset 20"),
        read_fails(kCommand, "no readable register at offset 24"),
        read_fails(kQuery, "no readable register at offset 32")},
       {}},
      {"read-only registers are not writable", false,
       {write_fails(kDescriptorId, {0}, "no writable register at offset 28"),
        write_fails(kStatus, {1}, "no writable register at offset 36"),
        write_fails(kCompleted, {5}, "no writable register at offset 40"), read(kCompleted, 0)},
       {}},
      {"offsets outside the map: past the source route, the source route, an unaligned offset", false,
       {write_fails(0x60, {1}, "no writable register at offset 96"),
        read_fails(0x60, "no readable register at offset 96"),
        write_fails(kRoute, {1}, "no writable register at offset 64"),
        read_fails(0x02, "no readable register at offset 2")},
       {}},
      {"accesses must be 32 bits wide (a read exactly 4 bytes, a write a multiple of 4)", false,
       {read_fails(kPeer, "register 0 is 32 bits wide (a read of 8 bytes)", 8),
        write_fails(kPeer, {7}, "register 0 is 32 bits wide (a write of 2 bytes)", 2),
        write_fails(kLength, {7, 7}, "register 8 is 32 bits wide (a write of 6 bytes)", 6),
        write_fails(kTag, {7}, "register 12 is 32 bits wide (a write of 0 bytes)", 0), read(kPeer, 0),
        read(kLength, 0), read(kTag, 0)},
       {}},
      {"no GLOBAL_ADDRESS on a message-passing fabric's engine", false,
       {write_fails(kGlobalAddress, {0x8000}, "no writable register at offset 52"),
        read_fails(kGlobalAddress, "no readable register at offset 52")},
       {}},
      {"GLOBAL_ADDRESS on the shared memory's engine", true,
       {write(kGlobalAddress, {0x8000}), read(kGlobalAddress, 0x8000)},
       {}},
      {"after a refused transfer every access answers the refusal", false,
       {write(kPeer, {5}), write(kCommand, {kSend}), refuse("send tag 3: the fabric answered no"),
        read_fails(kPeer, "node 3 DMA: send tag 3: the fabric answered no"),
        write_fails(kPeer, {6}, "send tag 3: the fabric answered no"),
        write_fails(kCommand, {kSend}, "send tag 3: the fabric answered no"),
        read_fails(kCompleted, "send tag 3: the fabric answered no")},
       {{kSend, 5, 0, 0, 0}}},
      {"a burst past COMMAND into DESCRIPTOR_ID starts the descriptor, then answers an error", false,
       {write_fails(kPeer, {5, 0x100, 64, 9, 0, 0, kSend, 0}, "no writable register at offset 28"),
        read(kDescriptorId, 0), read(kStatus, kStatusPending)},
       {{kSend, 5, 0x100, 64, 9}}},
  };

  for (const DmaCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::function<bool(std::uint32_t)> command;
    DmaRegisterFile registers(3, "a shared-resource machine", DmaRegisterSet{c.global_address, false},
                              [&](std::uint32_t value) { return command(value); });
    std::vector<CommandCall> commands;
    // The stand-in engine: SEND and RECEIVE create a descriptor, any other value is refused.
    command = [&](std::uint32_t value) {
      commands.push_back({value, registers.peer(), registers.local_address(), registers.length(), registers.tag()});
      if (value != kSend && value != kReceive)
        return registers.reject("COMMAND = " + std::to_string(value) + ": refused by the test engine");
      registers.new_descriptor();
      return true;
    };
    for (std::size_t i = 0; i < c.accesses.size(); ++i) {
      const Access& a = c.accesses[i];
      SCOPED_TRACE("access " + std::to_string(i));
      if (a.op == Op::Complete) {
        registers.complete(a.values.at(0));
        continue;
      }
      if (a.op == Op::Refuse) {
        registers.refuse_from_now(a.error);
        continue;
      }
      // The bytes on the bus, little endian.
      const unsigned length = a.length >= 0           ? static_cast<unsigned>(a.length)
                              : a.op == Op::Write ? 4 * static_cast<unsigned>(a.values.size())
                                                  : 4u;
      std::vector<unsigned char> data(std::max<std::size_t>(length, 4 * a.values.size()) + 4, 0xee);
      for (std::size_t v = 0; v < a.values.size(); ++v)
        for (int b = 0; b < 4; ++b) data[4 * v + b] = static_cast<unsigned char>(a.values[v] >> (8 * b));
      tlm::tlm_generic_payload trans;
      trans.set_command(a.op == Op::Write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      trans.set_address(a.address);
      trans.set_data_ptr(data.data());
      trans.set_data_length(length);
      trans.set_streaming_width(length);
      trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      registers.serve(trans);
      EXPECT_EQ(trans.get_response_status(), a.ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_GENERIC_ERROR_RESPONSE)
          << "last error: " << registers.last_error();
      if (!a.ok) {
        EXPECT_NE(registers.last_error().find(a.error), std::string::npos) << "last error: " << registers.last_error();
        EXPECT_EQ(registers.last_error().rfind("node 3 DMA: ", 0), 0u) << "last error: " << registers.last_error();
      }
      if (a.op == Op::Read && a.ok) {
        const std::uint32_t value = std::uint32_t{data[0]} | std::uint32_t{data[1]} << 8 |
                                    std::uint32_t{data[2]} << 16 | std::uint32_t{data[3]} << 24;
        EXPECT_EQ(value, a.read_value);
      }
    }
    EXPECT_EQ(commands, c.commands) << "engine saw " << describe(commands) << ", expected " << describe(c.commands);
  }
}

// The router network's register set: CHANNEL and ROUTE_LENGTH are kept as written (the engine checks them
// when COMMAND starts the send), ROUTE takes one port per byte in any width, and neither is readable.
TEST(DmaRegisterFile, TheRouterNetworksSetKeepsTheChannelAndTheSourceRoute) {
  DmaRegisterFile registers(3, "the router network", DmaRegisterSet{false, true}, [](std::uint32_t) { return true; });
  EXPECT_EQ(registers.channel(), dma::kAutoChannel) << "CHANNEL resets to the first hop's";
  const auto access = [&](tlm::tlm_command command, std::uint64_t address, std::vector<unsigned char> bytes) {
    tlm::tlm_generic_payload trans;
    trans.set_command(command);
    trans.set_address(address);
    trans.set_data_ptr(bytes.data());
    trans.set_data_length(static_cast<unsigned>(bytes.size()));
    trans.set_streaming_width(static_cast<unsigned>(bytes.size()));
    registers.serve(trans);
    return trans.get_response_status() == tlm::TLM_OK_RESPONSE;
  };
  EXPECT_TRUE(access(tlm::TLM_WRITE_COMMAND, dma::kChannel, {2, 0, 0, 0}));
  EXPECT_TRUE(access(tlm::TLM_WRITE_COMMAND, dma::kRouteLength, {3, 0, 0, 0}));
  EXPECT_TRUE(access(tlm::TLM_WRITE_COMMAND, dma::kRoute, {1, 1, 2}));
  EXPECT_EQ(registers.channel(), 2u);
  EXPECT_EQ(registers.route_length(), 3u);
  ASSERT_EQ(registers.route().size(), static_cast<std::size_t>(kMaxRouteHops));
  EXPECT_EQ((std::vector<std::uint8_t>(registers.route().begin(), registers.route().begin() + 3)),
            (std::vector<std::uint8_t>{1, 1, 2}));
  EXPECT_TRUE(access(tlm::TLM_WRITE_COMMAND, dma::kRoute + kMaxRouteHops - 1, {7}));
  EXPECT_EQ(registers.route().back(), 7u);
  EXPECT_FALSE(access(tlm::TLM_WRITE_COMMAND, dma::kRoute + kMaxRouteHops - 1, {7, 7}))
      << "a write past the route's last byte";
  EXPECT_NE(registers.last_error().find("is 32 bits wide"), std::string::npos) << registers.last_error();
  EXPECT_FALSE(access(tlm::TLM_READ_COMMAND, dma::kChannel, {0, 0, 0, 0}));
  EXPECT_NE(registers.last_error().find("no readable register at offset 16"), std::string::npos) << registers.last_error();
}

// The direct memory interface reaches the registers whose accesses have no side effect, one word each
// and as the register map's little-endian words: DESCRIPTOR_ID and COMPLETED to read, STEP_MARK and
// IRQ_THRESHOLD to read and write. No other register is granted, and none once a refusal voids them (the engine is told).
TEST(DmaRegisterFile, GrantsDirectAccessToTheRegistersWithoutSideEffects) {
  int voided = 0;
  DmaRegisterFile registers(3, "a shared-resource machine", DmaRegisterSet{}, [](std::uint32_t) { return true; });
  registers.on_direct_access_void([&] { ++voided; });
  registers.new_descriptor();
  registers.new_descriptor();
  registers.complete(1);
  const auto word = [](const tlm::tlm_dmi& dmi) {
    std::uint32_t value = 0;
    for (int b = 3; b >= 0; --b) value = value << 8 | dmi.get_dmi_ptr()[b];
    return value;
  };
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(registers.grant(dma::kDescriptorId, dmi));
  EXPECT_EQ(dmi.get_start_address(), dma::kDescriptorId);
  EXPECT_EQ(dmi.get_end_address(), dma::kDescriptorId + 3);
  EXPECT_TRUE(dmi.is_read_allowed());
  EXPECT_FALSE(dmi.is_write_allowed());
  EXPECT_EQ(word(dmi), 1u);
  ASSERT_TRUE(registers.grant(dma::kCompleted + 2, dmi)) << "any byte of the word";
  EXPECT_EQ(dmi.get_start_address(), dma::kCompleted);
  EXPECT_FALSE(dmi.is_write_allowed());
  EXPECT_EQ(word(dmi), 1u);
  registers.complete(0);
  EXPECT_EQ(word(dmi), 2u) << "the pointer reads the register as it is now";
  ASSERT_TRUE(registers.grant(dma::kStepMark, dmi));
  EXPECT_TRUE(dmi.is_read_allowed());
  EXPECT_TRUE(dmi.is_write_allowed());
  dmi.get_dmi_ptr()[0] = 7;
  EXPECT_EQ(registers.step_mark(), 7u);
  ASSERT_TRUE(registers.grant(dma::kIrqThreshold, dmi));
  EXPECT_TRUE(dmi.is_write_allowed());
  for (std::uint64_t side_effects : {dma::kPeer, dma::kCommand, dma::kQuery, dma::kStatus, dma::kGlobalAddress})
    EXPECT_FALSE(registers.grant(side_effects, dmi)) << "register " << side_effects;
  EXPECT_EQ(voided, 1) << "DONE_TABLE grew at the first descriptor";
  registers.refuse_from_now("the fabric answered no");
  EXPECT_EQ(voided, 2);
  EXPECT_FALSE(registers.grant(dma::kCompleted, dmi)) << "a refusal is answered by transactions only";
}

// DONE_TABLE: a bit per descriptor, set when it completes, read by b_transport or through the direct
// memory interface, whose grant is voided when the table grows (its words move).
TEST(DmaRegisterFile, TheDoneTableHasABitPerDescriptor) {
  int voided = 0;
  DmaRegisterFile registers(3, "a shared-resource machine", DmaRegisterSet{}, [](std::uint32_t) { return true; });
  registers.on_direct_access_void([&] { ++voided; });
  const auto read_word = [&](std::uint64_t address) {
    unsigned char bytes[4] = {};
    tlm::tlm_generic_payload trans;
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_address(address);
    trans.set_data_ptr(bytes);
    trans.set_data_length(4);
    trans.set_streaming_width(4);
    registers.serve(trans);
    EXPECT_EQ(trans.get_response_status(), tlm::TLM_OK_RESPONSE) << registers.last_error();
    std::uint32_t value;
    std::memcpy(&value, bytes, 4);
    return value;
  };
  tlm::tlm_dmi dmi;
  EXPECT_FALSE(registers.grant(dma::kDoneTable, dmi)) << "no descriptor yet: no table";
  EXPECT_EQ(read_word(dma::kDoneTable), 0u);
  for (int d = 0; d < 40; ++d) registers.new_descriptor();
  EXPECT_EQ(voided, 1) << "the first descriptor made room for 128 (4 words): one growth";
  for (int d = 40; d < 129; ++d) registers.new_descriptor();
  EXPECT_EQ(voided, 2) << "the 129th doubled it";
  registers.complete(0);
  registers.complete(33);
  registers.complete(39);
  EXPECT_EQ(read_word(dma::kDoneTable), 1u);
  EXPECT_EQ(read_word(dma::kDoneTable + 4), (1u << 1) | (1u << 7));
  EXPECT_EQ(read_word(dma::kDoneTable + 400), 0u) << "descriptors not issued read 0";
  ASSERT_TRUE(registers.grant(dma::kDoneTable + 4, dmi));
  EXPECT_EQ(dmi.get_start_address(), dma::kDoneTable);
  EXPECT_FALSE(dmi.is_write_allowed());
  std::uint32_t second;
  std::memcpy(&second, dmi.get_dmi_ptr() + 4, 4);
  EXPECT_EQ(second, (1u << 1) | (1u << 7));
  EXPECT_TRUE(registers.done(33));
  EXPECT_FALSE(registers.done(34));
}

// Interrupt moderation: a completion raises the interrupt only once COMPLETED has reached IRQ_THRESHOLD;
// 0, the reset value, raises it at every completion; a refusal raises it whatever the threshold.
TEST(DmaRegisterFile, ACompletionRaisesTheInterruptOnceCompletedReachesTheThreshold) {
  DmaRegisterFile registers(3, "a shared-resource machine", DmaRegisterSet{}, [](std::uint32_t) { return true; });
  for (int d = 0; d < 5; ++d) registers.new_descriptor();
  std::uint32_t threshold = 3;
  unsigned char bytes[4];
  std::memcpy(bytes, &threshold, 4);
  tlm::tlm_generic_payload trans;
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(dma::kIrqThreshold);
  trans.set_data_ptr(bytes);
  trans.set_data_length(4);
  trans.set_streaming_width(4);
  registers.serve(trans);
  ASSERT_EQ(trans.get_response_status(), tlm::TLM_OK_RESPONSE) << registers.last_error();
  registers.complete(0);
  registers.complete(1);
  EXPECT_EQ(registers.interrupts_raised(), 0u) << "COMPLETED 2 is below the threshold 3";
  registers.complete(2);
  EXPECT_EQ(registers.interrupts_raised(), 1u);
  registers.complete(3);
  EXPECT_EQ(registers.interrupts_raised(), 2u) << "at and above the threshold every completion raises it";
  threshold = 9;
  std::memcpy(bytes, &threshold, 4);
  registers.serve(trans);
  registers.refuse_from_now("the fabric answered no");
  EXPECT_EQ(registers.interrupts_raised(), 3u) << "a refusal raises it whatever the threshold";
}

}  // namespace
}  // namespace meshmp
