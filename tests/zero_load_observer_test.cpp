// The zero-load model as an observer (hw/node/zero_load_observer.h), told by hand what the processors and the
// network interfaces tell it in a run: a receive is costed by its message's modelled arrival when the
// message belongs to the receiver's step, by the receiver's own arrivals otherwise, and a message no
// modelled send created (another initiator on the registers) is not costed. The whole-machine cases are
// tests/zero_load_model_test.cpp.
#include <gtest/gtest.h>

#include "hw/router/routing.h"
#include "hw/network/zero_load_model.h"
#include "hw/node/zero_load_observer.h"

namespace meshmp {
namespace {

struct Ring {
  Topology topology = Topology::parse("ring:4");
  TransferTiming timing = [] {
    TransferTiming t;
    t.routing = find_routing_function("dimension-order");
    return t;
  }();
  ProcessorParams params;  // t_s = 100 on the processor
  ZeroLoadObserver observer{topology, timing, params};
  ZeroLoadStamp stamp;  // what the last message sent carries

  // Node `src` sends `bytes` to its neighbour `dst` as the processor and its interface report it.
  std::uint64_t send(int src, int dst, Handle handle, std::uint32_t bytes) {
    observer.sending(src, dst, bytes, {});
    stamp = observer.stamp_sent(src);
    observer.issued(src, handle);
    return observer.injected(src, handle).value();
  }
};

TEST(ZeroLoadObserver, AReceiveOfThisStepCostsItsMessagesModelledArrival) {
  Ring ring;
  const RouterParams router;
  // t_s, a cycle to the DMA engine, then the message's flits on the channel.
  EXPECT_EQ(ring.send(0, 1, 0, 64), 100 + 1 + message_flits(router, 64));
  EXPECT_TRUE(ring.stamp.stamped());
  EXPECT_EQ(ring.stamp.arrival, 101 + zero_load_transfer_cycles(router, 1, 64));
  ring.observer.completed(0, 0);
  ring.observer.message_received(1, 7, ring.stamp);
  ring.observer.completed(1, 7);
  EXPECT_EQ(ring.observer.close_step(1), 101 + zero_load_transfer_cycles(router, 1, 64));
  EXPECT_EQ(ring.observer.close_step(0), 101 + zero_load_transfer_cycles(router, 1, 64)) << "the sender's own arrival";
}

TEST(ZeroLoadObserver, AMessageOfAnotherStepFallsBackToTheReceiversOwnArrivals) {
  Ring ring;
  ring.send(0, 1, 0, 64);
  ring.observer.begin_step(1, 1);  // the receiver is a step ahead when the message completes its receive
  ring.observer.message_received(1, 3, ring.stamp);
  ring.observer.completed(1, 3);
  EXPECT_EQ(ring.observer.close_step(1), 0u) << "node 1 sent nothing: its own arrivals end at 0";
}

TEST(ZeroLoadObserver, AMessageNoModelledSendCreatedIsNotCosted) {
  Ring ring;
  const ZeroLoadStamp stamp = ring.observer.stamp_sent(2);  // another initiator on node 2's registers
  EXPECT_FALSE(stamp.stamped());
  ring.observer.message_received(3, 0, stamp);
  ring.observer.completed(3, 0);
  EXPECT_EQ(ring.observer.close_step(3), 0u);
}

TEST(ZeroLoadObserver, CopiesComputationAndBarriersAdvanceTheCursor) {
  Ring ring;
  ring.observer.local_work(2, 40);
  ring.observer.local_work(2, 2);
  EXPECT_EQ(ring.observer.close_step(2), 42u);
  EXPECT_EQ(ring.observer.close_step(2), 0u) << "a closed step starts the next afresh";
}

}  // namespace
}  // namespace meshmp
