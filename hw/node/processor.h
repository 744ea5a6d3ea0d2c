// A node's processor: runs the node's firmware in an SC_THREAD and implements the node API on the
// modelled hardware. Every message costs the start-up t_s (software + DMA set-up, 000 §3.3 / 001 §1
// cost model) before its descriptor is written to the DMA engine's registers by TLM-2.0 b_transport (the
// registers without side effects, DESCRIPTOR_ID, COMPLETED, STEP_MARK and IRQ_THRESHOLD, by direct memory
// interface); local copies go through the memory's TLM socket and cost rho cycles per byte; waits sleep
// on the DMA engine's completion interrupt.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "firmware/api/node_api.h"
#include "firmware/workloads/workload.h"
#include "hw/node/hardware_barrier.h"
#include "hw/node/processor_params.h"
#include "hw/router/router_params.h"
#include "hw/router/routing.h"
#include "hw/node/step_statistics.h"
#include "hw/node/processor_activity.h"
#include "tlm/message_transfer.h"

namespace meshmp {

using Firmware = std::function<void(NodeApi&)>;

class Processor : public sc_core::sc_module, public NodeApi {
 public:
  tlm_utils::simple_initiator_socket<Processor> dma_port;
  tlm_utils::simple_initiator_socket<Processor> memory_port;

  SC_HAS_PROCESS(Processor);
  Processor(sc_core::sc_module_name name, int node, const Topology& topology, const Workload& workload,
            const ProcessorParams& params, const TransferTiming& timing, sc_core::sc_time clock_period,
            HardwareBarrier& barrier, StepStatistics& step_statistics, ProcessorActivity& activity,
            const sc_core::sc_event& completion_irq,
            std::function<std::string()> dma_error_text, std::function<std::string(Handle)> describe_descriptor,
            Firmware firmware, const AlgorithmOptions& options, std::function<void()> on_finish);

  // NodeApi
  int id() const override { return node_; }
  bool all_port() const override { return timing_.port_model == PortModel::AllPort; }
  const Topology& topology() const override { return topology_; }
  const Workload& workload() const override { return workload_; }
  const ExchangeLayout& layout() const override;
  Handle send(int peer, std::uint32_t address, std::uint32_t length, std::uint32_t tag,
              const std::vector<int>& route = {}) override;
  Handle receive(int peer, std::uint32_t address, std::uint32_t length, std::uint32_t tag) override;
  Handle broadcast(std::uint32_t address, std::uint32_t length, std::uint32_t tag) override;
  Handle shared_write(std::uint32_t global_address, std::uint32_t local_address, std::uint32_t length,
                      GlobalPieces pieces = {}) override;
  Handle shared_read(std::uint32_t local_address, std::uint32_t global_address, std::uint32_t length,
                     GlobalPieces pieces = {}) override;
  void wait(Handle handle) override;
  void wait_all() override;
  bool test(Handle handle) override;
  std::size_t wait_any(const std::vector<Handle>& handles) override;
  const AlgorithmOptions& options() const override { return options_; }
  ExchangeParameters cost_parameters() const override;
  void local_copies(const std::vector<LocalCopy>& copies) override;
  void local_copy_each(const std::vector<LocalCopy>& copies) override;
  void compute(std::uint64_t cycles) override;
  void hardware_barrier() override;
  void begin_step(int step) override;
  std::uint64_t now_cycles() const override;

  // Results.
  bool finished() const { return finished_; }
  std::uint64_t finish_cycle() const { return finish_cycle_; }
  const std::string& error() const { return error_; }
  std::uint64_t startups() const { return startups_; }
  // Bytes this node copied within its memory (local_copy: the algorithm's rearrangements).
  std::uint64_t copied_bytes() const { return copied_bytes_; }
  // Bytes its DMA engine read out of its memory (sends, shared writes) and wrote into it (receives,
  // shared reads): the energy model's DMA and memory bytes (hw/power/node_energy.h).
  std::uint64_t dma_read_bytes() const { return dma_read_bytes_; }
  std::uint64_t dma_written_bytes() const { return dma_written_bytes_; }
  // What the firmware is blocked on (stall reports; asks the DMA engine which descriptor is not done);
  // empty while it runs.
  std::string waiting_for();

 private:
  void run();
  // A register access: a load or a store where the engine granted the register by direct memory
  // interface, a TLM-2.0 transaction otherwise.
  void write_register(std::uint64_t address, std::uint32_t value);
  std::uint32_t read_register(std::uint64_t address);
  // The word of DESCRIPTOR_ID, COMPLETED, STEP_MARK or IRQ_THRESHOLD when the engine grants it for this
  // access (asked for at first use, again after an invalidation); null for any other register, or when
  // refused.
  unsigned char* direct_register(std::uint64_t address, bool write);
  void invalidate_direct_registers(sc_dt::uint64 start, sc_dt::uint64 end);
  // Whether descriptor `handle` is done: its bit of DONE_TABLE by direct memory interface when granted (a
  // load), QUERY and STATUS otherwise.
  bool descriptor_done(Handle handle);
  void register_access(tlm::tlm_command command, std::uint64_t address, unsigned char* data, unsigned length);
  Handle issue(std::uint32_t command, std::uint32_t peer, std::uint32_t address, std::uint32_t length, std::uint32_t tag,
               const std::vector<int>& route, std::uint32_t global_address = 0, GlobalPieces pieces = {});
  // A message or shared-memory access leaving through the DMA engine: t_s, the activity hook (the
  // zero-load model), the descriptor, the step's counts.
  Handle start_transfer(std::uint32_t command, std::uint32_t peer, int model_peer, std::uint32_t address,
                        std::uint32_t length, std::uint32_t tag, const std::vector<int>& route,
                        std::uint32_t global_address = 0, GlobalPieces pieces = {});
  // Ends the simulation when the program is being stopped (hw/base/stop_request.h); prints a progress
  // line when one is due (hw/base/progress_poll.h).
  void poll_host_requests();
  void wait_cycles(std::uint64_t cycles);
  // A local copy's bytes moved (bounds checked first: FirmwareError names the piece); returns them.
  std::uint64_t copy_in_memory(const std::vector<LocalCopy>& copies);
  // rho cycles per byte, rounded up: one local operation's time (000 §3.3).
  std::uint64_t copy_cycles(std::uint64_t bytes) const;
  void spend_copy_cycles(std::uint64_t cycles);
  // The local memory's bytes by direct memory interface (asked for once); FirmwareError if refused.
  unsigned char* direct_memory();
  // Hands the current step's counts and the activity hook's cost of it (the zero-load model's) to the
  // step statistics.
  void end_step();

  int node_;
  const Topology& topology_;
  const Workload& workload_;
  ProcessorParams params_;
  TransferTiming timing_;
  sc_core::sc_time period_;
  HardwareBarrier& barrier_;
  StepStatistics& step_statistics_;
  ProcessorActivity& activity_;  // told what the firmware does (hw/node/processor_activity.h)
  const sc_core::sc_event& completion_irq_;
  Firmware firmware_;
  const AlgorithmOptions& options_;
  std::function<void()> on_finish_;
  std::function<std::string()> dma_error_text_;  // why the DMA answered with an error response
  std::function<std::string(Handle)> describe_descriptor_;  // what a descriptor is, to say what a wait is for

  // Descriptors issued since the last wait_all() (handles are numbered in issue order): wait_all() waits
  // for [first_outstanding_, next_handle_).
  Handle first_outstanding_ = 0;
  Handle next_handle_ = 0;
  bool finished_ = false;
  std::uint64_t finish_cycle_ = 0;
  std::string error_;
  std::uint64_t startups_ = 0;
  std::uint64_t copied_bytes_ = 0;
  std::uint64_t dma_read_bytes_ = 0;
  std::uint64_t dma_written_bytes_ = 0;
  unsigned char* memory_ = nullptr;  // the local memory through TLM-2.0 direct memory access, once granted
  struct DirectRegister {
    bool asked = false;
    bool writable = false;
    unsigned char* word = nullptr;  // null: by transaction
  };
  DirectRegister descriptor_id_register_, completed_register_, step_mark_register_, irq_threshold_register_;
  struct DirectTable {
    bool asked = false;
    const unsigned char* words = nullptr;  // DONE_TABLE's first word; null: by QUERY and STATUS
    std::uint64_t descriptors = 0;         // the descriptors the words granted cover
  } done_table_;
  int current_step_ = 0;
  StepCount step_count_;
  std::uint64_t step_begin_cycle_ = 0;
  enum class Blocked { No, OnDescriptor, OnAllIssued, OnBarrier };
  Blocked blocked_ = Blocked::No;
  sc_core::sc_event halted_;  // never notified: what a processor whose firmware is done waits for
  Handle blocked_handle_ = 0;
};

}  // namespace meshmp
