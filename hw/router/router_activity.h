// What a router did, counted event by event for the network's power model (hw/power/network_power.h):
// flits written into each input port's buffers, and crossbar traversals from each input port to each
// output port (a traversal reads its flit out of the input's buffer, so the reads are the traversals'
// sums). Ports are numbered as the router's (network ports, then local ports). One array holds every
// count, so the two a flit adds at a router lie together.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace meshmp {

class RouterActivity {
 public:
  explicit RouterActivity(int num_ports)
      : ports_(num_ports), counts_(static_cast<std::size_t>(num_ports) * static_cast<std::size_t>(num_ports + 1), 0) {}

  int ports() const { return ports_; }
  std::uint64_t buffer_writes(int in_port) const { return counts_[static_cast<std::size_t>(in_port)]; }
  std::uint64_t traversals(int in_port, int out_port) const { return counts_[crossbar_index(in_port, out_port)]; }
  std::uint64_t buffer_reads(int in_port) const {
    std::uint64_t reads = 0;
    for (int out = 0; out < ports_; ++out) reads += traversals(in_port, out);
    return reads;
  }

  void count_write(int in_port) { ++counts_[static_cast<std::size_t>(in_port)]; }
  void set_buffer_writes(int in_port, std::uint64_t writes) { counts_[static_cast<std::size_t>(in_port)] = writes; }
  void count_traversal(int in_port, int out_port) { ++counts_[crossbar_index(in_port, out_port)]; }

  // Empty when `other` holds the same counts; otherwise the first that differs, with both values ("crossbar
  // 2 -> 4: 17, other 16").
  std::string difference_from(const RouterActivity& other) const {
    for (std::size_t i = 0; i < counts_.size() && i < other.counts_.size(); ++i) {
      if (counts_[i] == other.counts_[i]) continue;
      const std::string what =
          i < static_cast<std::size_t>(ports_)
              ? "buffer writes at input " + std::to_string(i)
              : "crossbar " + std::to_string((i - static_cast<std::size_t>(ports_)) / static_cast<std::size_t>(ports_)) +
                    " -> " + std::to_string((i - static_cast<std::size_t>(ports_)) % static_cast<std::size_t>(ports_));
      return what + ": " + std::to_string(counts_[i]) + ", other " + std::to_string(other.counts_[i]);
    }
    return counts_.size() == other.counts_.size() ? "" : "a different number of ports";
  }

  // The events since `earlier`, this router's counts at an earlier moment.
  RouterActivity since(const RouterActivity& earlier) const {
    RouterActivity difference(ports_);
    for (std::size_t i = 0; i < counts_.size(); ++i) difference.counts_[i] = counts_[i] - earlier.counts_[i];
    return difference;
  }

 private:
  std::size_t crossbar_index(int in_port, int out_port) const {
    return static_cast<std::size_t>(ports_) + static_cast<std::size_t>(in_port) * static_cast<std::size_t>(ports_) +
           static_cast<std::size_t>(out_port);
  }

  int ports_;
  std::vector<std::uint64_t> counts_;  // buffer writes per input port, then crossbar traversals [in][out]
};

}  // namespace meshmp
