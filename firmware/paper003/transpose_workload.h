// The transpose workload (003 §2, §4): a P x Q matrix placed on a Boolean n-cube's nodes by a partitioning
// and an encoding, to be replaced by its transpose under the same or a chosen placement
// (firmware/paper003/transpose_layout.h says where every element lies). Firmware reaches the layout through
// transpose_layout(api).
#pragma once

#include "firmware/api/node_api.h"
#include "firmware/paper003/transpose_layout.h"
#include "firmware/workloads/workload.h"

namespace meshmp {

class TransposeWorkload : public Workload {
 public:
  TransposeWorkload(TransposeLayout layout, std::uint64_t scratch_bytes) : layout_(layout), scratch_bytes_(scratch_bytes) {}
  const TransposeLayout& layout() const { return layout_; }

  std::string name() const override { return "transpose"; }
  std::string describe() const override;
  std::string unit() const override { return "element"; }
  std::uint32_t unit_bytes() const override { return layout_.element_bytes(); }
  std::uint64_t scratch_base() const override { return layout_.scratch_base(); }
  std::uint64_t memory_bytes() const override { return layout_.scratch_base() + scratch_bytes_; }
  void fill(int node, std::vector<std::uint8_t>& memory) const override;
  VerificationReport verify(const MemoryOf& memory_of) const override;

 private:
  TransposeLayout layout_;
  std::uint64_t scratch_bytes_;
};

// The transpose layout of a run's workload options on a topology (which must be a hypercube, or have a
// power-of-two number of nodes). Throws ConfigError naming the field.
TransposeLayout transpose_layout_for(const Topology& topology, const ExchangeParameters& parameters);
// The layout the firmware runs on; FirmwareError when the run's workload is not a transpose.
const TransposeLayout& transpose_layout(const NodeApi& api);

}  // namespace meshmp
