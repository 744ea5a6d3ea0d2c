// A node's network interface and DMA engine. See network_interface.h.
#include "hw/node/network_interface.h"

#include "tlm/dma_registers.h"

namespace meshmp {

NetworkInterface::NetworkInterface(sc_core::sc_module_name name, int node, Interconnect& network,
                                   std::size_t memory_bytes, std::uint64_t unexpected_buffer_bytes,
                                   MessageStatistics& messages, std::uint64_t channel_startup_cycles)
    : sc_core::sc_module(name),
      registers("registers"),
      memory_port("memory_port"),
      node_(node),
      network_(network),
      memory_bytes_(memory_bytes),
      channel_startup_cycles_(channel_startup_cycles),
      registers_(node, "the router network", DmaRegisterSet{false, true},
                 [this](std::uint32_t value) { return command(value); }),
      matcher_(node, network.topology().num_nodes(), unexpected_buffer_bytes, messages,
               ReceiveMatcher::Hooks{
                   [this](std::uint32_t address, const std::uint8_t* bytes, std::uint32_t length) {
                     memory_.access(tlm::TLM_WRITE_COMMAND, address, const_cast<std::uint8_t*>(bytes), length);
                   },
                   [this](const std::string& error) { network_.report_failure(error); },
                   [this](std::uint32_t receive, const ZeroLoadStamp& zero_load) {
                     if (zero_load_) zero_load_->message_received(node_, receive, zero_load);
                     registers_.complete(receive);
                   },
                   [this] { update_probe(); }}) {
  registers.register_b_transport(this, &NetworkInterface::b_transport);
  registers.register_get_direct_mem_ptr(this, &NetworkInterface::direct_registers);
  registers_.on_direct_access_void([this] { registers->invalidate_direct_mem_ptr(0, ~sc_dt::uint64{0}); });
  transport_ = make_message_transport(node, network, matcher_, *this);
}

void NetworkInterface::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  registers_.serve(trans);
}

bool NetworkInterface::command(std::uint32_t value) {
  if (value == dma::kCommandSend) return start_send();
  if (value == dma::kCommandReceive) return start_receive();
  return registers_.reject("COMMAND = " + std::to_string(value) + ": expected 1 (send) or 2 (receive)");
}

std::string NetworkInterface::describe_registers(const char* kind) const {
  return std::string(kind) + " node " + std::to_string(registers_.peer()) + " tag " + std::to_string(registers_.tag());
}

bool NetworkInterface::descriptor_fits(const char* kind) {
  const std::uint32_t peer = registers_.peer(), address = registers_.local_address(), length = registers_.length();
  const int nodes = network_.topology().num_nodes();
  if (peer >= static_cast<std::uint32_t>(nodes))
    return registers_.reject(describe_registers(kind) + ": PEER = " + std::to_string(peer) + " is not a node (0.." +
                             std::to_string(nodes - 1) + ")");
  if (static_cast<std::uint64_t>(address) + length > memory_bytes_)
    return registers_.reject(describe_registers(kind) + ": LOCAL_ADDRESS + LENGTH = " +
                             std::to_string(std::uint64_t{address} + length) + " exceeds the local memory of " +
                             std::to_string(memory_bytes_) + " bytes");
  return true;
}

bool NetworkInterface::read_source_route(std::vector<std::uint8_t>& route) {
  const Topology& topo = network_.topology();
  const std::uint32_t hops = registers_.route_length();
  if (hops > static_cast<std::uint32_t>(kMaxRouteHops))
    return registers_.reject(describe_registers("send to") + ": ROUTE_LENGTH = " + std::to_string(hops) +
                             " exceeds " + std::to_string(kMaxRouteHops) + " hops");
  route.assign(registers_.route().begin(), registers_.route().begin() + hops);
  int at = node_;
  for (std::uint8_t port : route) {
    int next = port < topo.num_ports() ? topo.neighbor(at, port) : -1;
    if (next < 0)
      return registers_.reject(describe_registers("send to") + ": source route port " + std::to_string(port) +
                               " leads nowhere from node " + std::to_string(at));
    at = next;
  }
  if (!route.empty() && at != static_cast<int>(registers_.peer()))
    return registers_.reject(describe_registers("send to") + ": the source route ends at node " + std::to_string(at) +
                             ", not at the peer");
  return true;
}

bool NetworkInterface::choose_channel(const std::vector<std::uint8_t>& route, int& channel) {
  const int channels = transport_->channels();
  const int peer = static_cast<int>(registers_.peer());
  channel = 0;
  if (registers_.channel() != dma::kAutoChannel) {
    if (registers_.channel() >= static_cast<std::uint32_t>(channels))
      return registers_.reject(describe_registers("send to") + ": CHANNEL = " + std::to_string(registers_.channel()) +
                               " (this node has " + std::to_string(channels) + " injection channels)");
    channel = static_cast<int>(registers_.channel());
  } else if (channels > 1 && peer != node_) {
    channel = route.empty() ? network_.routing()(network_.topology(), node_, peer) : route[0];
  }
  return true;
}

bool NetworkInterface::start_send() {
  if (!descriptor_fits("send to")) return false;
  OutgoingMessage msg;
  int channel = 0;
  if (!read_source_route(msg.route) || !choose_channel(msg.route, channel)) return false;
  const int peer = static_cast<int>(registers_.peer());
  if (message_rule_)
    if (auto broken = message_rule_->record(static_cast<int>(registers_.step_mark()), node_, peer, registers_.tag()))
      return registers_.reject(*broken);
  msg.payload = transport_->payload_buffer();
  msg.payload.resize(registers_.length());
  if (!memory_.access(tlm::TLM_READ_COMMAND, registers_.local_address(), msg.payload.data(), registers_.length()))
    return registers_.reject(describe_registers("send to") + ": local memory read failed");
  const std::uint64_t cycle = network_.current_cycle();
  msg.src = node_;
  msg.dst = peer;
  msg.tag = registers_.tag();
  msg.message_id = matcher_.take_sequence_number_to(peer);
  msg.created_cycle = cycle;
  msg.step = registers_.step_mark();
  if (zero_load_) msg.zero_load = zero_load_->stamp_sent(node_);
  msg.ready_cycle = cycle + 1;
  msg.startup_cycles = channel_startup_cycles_;
  msg.descriptor = static_cast<int>(registers_.new_descriptor());
  transport_->send(channel, std::move(msg));
  update_probe();
  return true;
}

bool NetworkInterface::start_receive() {
  if (!descriptor_fits("receive from")) return false;
  const int peer = static_cast<int>(registers_.peer());
  const std::uint32_t tag = registers_.tag(), length = registers_.length();
  if (auto waiting = matcher_.waiting_message_bytes(peer, tag); waiting && *waiting != length)
    return registers_.reject(describe_registers("receive from") + ": the message is " + std::to_string(*waiting) +
                             " bytes, the receive LENGTH is " + std::to_string(length));
  if (matcher_.post(peer, registers_.local_address(), length, tag, registers_.new_descriptor()))
    transport_->receive_posted();
  update_probe();
  return true;
}

void NetworkInterface::update_probe() {
  if (!probe_enabled_) return;
  transport_->count_queued(probe_.queued_sends, probe_.bytes_left);
  probe_.busy = probe_.queued_sends > 0;
  probe_.receives_pending = matcher_.receives_pending();
  probe_.completed = registers_.completed();
}

std::vector<std::string> NetworkInterface::unreceived_descriptions() const {
  std::vector<std::string> lines;
  for (const auto& line : describe_pending())
    if (line.find(" holds message ") != std::string::npos) lines.push_back(line);
  return lines;
}

std::vector<std::string> NetworkInterface::describe_pending() const {
  std::vector<std::string> lines;
  const std::string me = "node " + std::to_string(node_) + " DMA: ";
  transport_->describe_injection(me, lines);
  matcher_.describe_posted(me, lines);
  transport_->describe_ejection(me, lines);
  matcher_.describe_arrivals(me, lines);
  return lines;
}

std::string NetworkInterface::describe_descriptor(std::uint32_t id) const {
  const std::string number = "descriptor " + std::to_string(id);
  if (!registers_.exists(id)) return number + " (no such descriptor)";
  if (std::string send = transport_->describe_send(id); !send.empty()) return send;
  if (std::string receive = matcher_.describe_receive(id); !receive.empty()) return receive;
  return number + (registers_.done(id) ? " (done)" : "");
}

}  // namespace meshmp
