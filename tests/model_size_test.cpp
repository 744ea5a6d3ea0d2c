// The host-memory estimate that refuses a machine before it is built (hw/machine/model_size.*): every node's
// whole local memory (the algorithm's scratch too) and the network interface's table of the peers it
// talks to.
#include <gtest/gtest.h>

#include "hw/machine/model_size.h"
#include "hw/node/peer_table.h"
#include "meshmp_process.h"

namespace meshmp {
namespace {

MachineConfig config_of(const std::string& topology) {
  MachineConfig config;
  config.topology = topology;
  config.block_bytes = 1;
  return config;
}

// The scratch is part of a node's memory: tseng-c1 on 32x32x32 at 1-byte blocks needs 17 N bytes per
// node (17.1 GiB in all), not just its 2 N bytes of send and receive buffers.
TEST(ModelSize, NodeMemoriesIncludeTheScratch) {
  const Topology topology = Topology::parse("torus:32x32x32");
  const std::uint64_t n = 32768;
  const ModelSize size = estimate_model_size(topology, config_of("torus:32x32x32"), NodeFootprint{17 * n, n});
  EXPECT_EQ(size.memory_bytes, n * 17 * n);
}

// A node that talks to every node costs a flat table; one that talks to a few peers a few pages.
TEST(ModelSize, PeerTableGrowsWithThePeersTalkedTo) {
  const Topology topology = Topology::parse("torus:32x32x32");
  const std::uint64_t n = 32768, pages = n / PeerTable::kPageEntries;
  const std::uint64_t page_bytes = PeerTable::kPageEntries * sizeof(PeerState);
  const MachineConfig config = config_of("torus:32x32x32");
  const ModelSize everyone = estimate_model_size(topology, config, NodeFootprint{2 * n, n});
  const ModelSize few = estimate_model_size(topology, config, NodeFootprint{2 * n, 30});
  EXPECT_EQ(everyone.node_bytes - few.node_bytes, n * (pages - 30) * page_bytes);
  EXPECT_GE(everyone.node_bytes, n * n * sizeof(PeerState));
  EXPECT_EQ(estimate_model_size(topology, config, std::nullopt).node_bytes, 0u) << "a bare network has no nodes";
}

// 004's bus and switch have no routers (a bus:1024 was refused as 1,024 routers of 1,023 ports, 18 GiB);
// the shared memory adds its global memory, one node memory per node.
TEST(ModelSize, FabricsHaveNoRoutersAndTheSharedMemoryItsGlobalMemory) {
  const std::uint64_t n = 1024, memory = 2 << 20;
  for (const char* spec : {"bus:1024", "omega:1024"}) {
    const ModelSize size = estimate_model_size(Topology::parse(spec), config_of(spec), NodeFootprint{memory, n});
    EXPECT_EQ(size.router_bytes, 0u) << spec;
    EXPECT_EQ(size.fabric_bytes, 0u) << spec;
  }
  const ModelSize shared = estimate_model_size(Topology::parse("shared-memory:1024"), config_of("shared-memory:1024"),
                                               NodeFootprint{memory, n});
  EXPECT_EQ(shared.router_bytes, 0u);
  EXPECT_EQ(shared.fabric_bytes, n * memory);
  EXPECT_EQ(shared.total(), shared.fabric_bytes + shared.memory_bytes + shared.node_bytes);
}

TEST(PeerTable, PagesAreAllocatedWhenFirstTouched) {
  PeerTable table(32768);
  EXPECT_EQ(table.pages_in_use(), 0u);
  EXPECT_EQ(table.get(1000).posted_head, -1);
  EXPECT_EQ(table.get(1000).next_sequence_to, 0u);
  table.at(1000).next_sequence_to = 7;
  table.at(1001).next_sequence_from = 3;
  table.at(32767).posted_head = 5;
  EXPECT_EQ(table.pages_in_use(), 2u);
  EXPECT_EQ(table.get(1000).next_sequence_to, 7u);
  EXPECT_EQ(table.get(1001).next_sequence_from, 3u);
  EXPECT_EQ(table.get(32767).posted_head, 5);
  EXPECT_EQ(table.get(999).next_sequence_to, 0u);
}

// 32,768 processors need a stack and a guard page each: past the host's vm.max_map_count the run is
// refused naming the sysctl, instead of failing with bad_alloc once the machine is half built.
TEST(ModelSize, ThreadStacksBeyondTheHostsMappingLimitAreRefused) {
  const std::uint64_t needed = 2 * 32768 + kOtherMemoryMappings;
  if (memory_map_limit() == 0 || memory_map_limit() >= needed)
    GTEST_SKIP() << "this host allows " << memory_map_limit() << " memory mappings";
  const meshmp_test::Outcome o = meshmp_test::meshmp("run --topology torus:32x32x32 --algorithm tseng-c64 -m 1 -o \"\"");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("topology = 'torus:32x32x32': its 32768 processors' thread stacks need about 69632 memory "
                          "mappings, more than this host's vm.max_map_count"),
            std::string::npos)
      << o.output;
}

}  // namespace
}  // namespace meshmp
