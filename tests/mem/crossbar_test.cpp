// The crossbar: exact cycles for one packet, for serialisation of two inputs on one output (by
// round-robin, by flits), for back-pressure from a full output queue, head-of-line blocking, a
// full input queue, next_event, and the same deliveries whether ticked every cycle or skipping.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mem/crossbar.h"

namespace lockstep::mem {
namespace {

MemRequest request(uint64_t token) { return MemRequest{.line = token, .sectors = 1, .token = token}; }

// Ticks from `from` to `to` inclusive; returns the cycles at which tick moved a packet.
std::vector<uint64_t> tick_range(Crossbar& xbar, uint64_t from, uint64_t to) {
  std::vector<uint64_t> moved;
  for (uint64_t now = from; now <= to; ++now)
    if (xbar.tick(now)) moved.push_back(now);
  return moved;
}

// Pops everything that has arrived at `output` by `now`: the tokens, in order.
std::vector<uint64_t> drain(Crossbar& xbar, uint32_t output, uint64_t now) {
  std::vector<uint64_t> tokens;
  for (; xbar.can_pop(output, now); xbar.pop(output)) tokens.push_back(xbar.front(output).token);
  return tokens;
}

TEST(Crossbar, OnePacketArrivesAfterTheLatency) {
  Crossbar xbar({.inputs = 2, .outputs = 2, .latency = 5});
  EXPECT_EQ(xbar.next_event(9), UINT64_MAX);
  xbar.push(1, 0, 8, request(42), 10);
  EXPECT_EQ(xbar.next_event(9), 10u);
  EXPECT_TRUE(xbar.tick(10));
  EXPECT_EQ(xbar.next_event(10), 15u);
  EXPECT_FALSE(xbar.can_pop(0, 14));
  ASSERT_TRUE(xbar.can_pop(0, 15));
  EXPECT_EQ(xbar.front(0).token, 42u);
  EXPECT_EQ(xbar.front_bytes(0), 8u);
  EXPECT_FALSE(xbar.can_pop(1, 15));
  xbar.pop(0);
  EXPECT_EQ(xbar.next_event(15), UINT64_MAX);
  EXPECT_EQ(xbar.stats().packets, 1u);
  EXPECT_EQ(xbar.stats().bytes, 8u);
  EXPECT_EQ(xbar.stats().wait_cycles, 0u);
  EXPECT_EQ(xbar.stats().traversal_cycles, 5u);
}

// Three inputs always have a packet for output 0: it takes one a cycle, rotating 0, 1, 2, 0, ...
// (a fixed priority would serve input 0 every cycle).
TEST(Crossbar, OneOutputServesInputsRoundRobin) {
  Crossbar xbar({.inputs = 3, .outputs = 1, .latency = 1, .input_queue = 2, .output_queue = 8});
  for (uint32_t input = 0; input < 3; ++input)
    for (uint64_t k = 0; k < 2; ++k) xbar.push(input, 0, 8, request(10 * input + k), 0);
  std::vector<uint64_t> order;
  for (uint64_t now = 0; now < 6; ++now) {
    EXPECT_TRUE(xbar.tick(now));
    for (uint64_t token : drain(xbar, 0, now + 1)) order.push_back(token);
  }
  EXPECT_EQ(order, (std::vector<uint64_t>{0, 10, 20, 1, 11, 21}));
  // Waits: 0, 1 and 2 cycles for the first packets; 2 each for the second ones (ready from 1..3).
  EXPECT_EQ(xbar.stats().wait_cycles, 0u + 1 + 2 + 2 + 2 + 2);
}

// The pointer moves past the input last served: after input 2, input 0 is first again even if
// input 1 asks in the same cycle.
TEST(Crossbar, RoundRobinStartsAfterTheLastWinner) {
  Crossbar xbar({.inputs = 3, .outputs = 1, .latency = 1, .output_queue = 8});
  xbar.push(2, 0, 8, request(2), 0);
  EXPECT_TRUE(xbar.tick(0));
  xbar.push(1, 0, 8, request(1), 1);
  xbar.push(0, 0, 8, request(0), 1);
  EXPECT_EQ(tick_range(xbar, 1, 2), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(drain(xbar, 0, 3), (std::vector<uint64_t>{2, 0, 1}));
}

// 128-byte packets on 32-byte flits hold the output 4 cycles: accepted at 0 and 4.
TEST(Crossbar, WidePacketsSerialiseByFlits) {
  Crossbar xbar({.inputs = 2, .outputs = 1, .latency = 10, .flit_bytes = 32});
  xbar.push(0, 0, 128, request(1), 0);
  xbar.push(1, 0, 128, request(2), 0);
  EXPECT_TRUE(xbar.tick(0));
  EXPECT_EQ(xbar.next_event(0), 4u);
  EXPECT_EQ(tick_range(xbar, 1, 4), (std::vector<uint64_t>{4}));
  EXPECT_EQ(xbar.next_event(4), 10u);
  EXPECT_EQ(drain(xbar, 0, 13), (std::vector<uint64_t>{1}));
  EXPECT_EQ(xbar.next_event(13), 14u);
  EXPECT_EQ(drain(xbar, 0, 14), (std::vector<uint64_t>{2}));
  EXPECT_EQ(xbar.stats().wait_cycles, 4u);
  EXPECT_EQ(xbar.stats().traversal_cycles, 10u + 14u);
  // A 129-byte packet takes 5 flits; a 1-byte one, 1.
  xbar.push(0, 0, 129, request(3), 20);
  xbar.push(1, 0, 1, request(4), 20);
  EXPECT_EQ(tick_range(xbar, 20, 30), (std::vector<uint64_t>{20, 25}));
}

// Output queue of one: the second packet waits at its input until the consumer pops the first.
TEST(Crossbar, FullOutputQueueBacksUpTheInput) {
  Crossbar xbar({.inputs = 1, .outputs = 1, .latency = 2, .input_queue = 4, .output_queue = 1});
  xbar.push(0, 0, 8, request(1), 0);
  xbar.push(0, 0, 8, request(2), 0);
  EXPECT_TRUE(xbar.tick(0));
  EXPECT_EQ(xbar.next_event(0), 2u);  // the first arrives; the second cannot move before a pop
  EXPECT_EQ(tick_range(xbar, 1, 6), std::vector<uint64_t>{});
  EXPECT_EQ(xbar.next_event(6), UINT64_MAX);
  EXPECT_EQ(drain(xbar, 0, 7), (std::vector<uint64_t>{1}));
  EXPECT_EQ(xbar.next_event(6), 7u);
  EXPECT_TRUE(xbar.tick(7));
  EXPECT_FALSE(xbar.can_pop(0, 8));
  EXPECT_EQ(drain(xbar, 0, 9), (std::vector<uint64_t>{2}));
  EXPECT_EQ(xbar.stats().wait_cycles, 6u);  // ready from cycle 1, accepted at 7
}

// Input 0 holds a packet for the full output 0, then one for idle output 1: the second waits
// behind the first (head-of-line blocking), while input 1 reaches output 1 at once.
TEST(Crossbar, HeadOfLineBlocking) {
  Crossbar xbar({.inputs = 2, .outputs = 2, .latency = 1, .output_queue = 1});
  xbar.push(1, 0, 8, request(100), 0);
  EXPECT_TRUE(xbar.tick(0));  // output 0 is now full until someone pops it
  xbar.push(0, 0, 8, request(1), 1);
  xbar.push(0, 1, 8, request(2), 1);
  EXPECT_FALSE(xbar.tick(1));
  xbar.push(1, 1, 8, request(3), 2);
  EXPECT_EQ(tick_range(xbar, 2, 5), (std::vector<uint64_t>{2}));
  EXPECT_EQ(drain(xbar, 1, 5), (std::vector<uint64_t>{3}));
  EXPECT_EQ(drain(xbar, 0, 6), (std::vector<uint64_t>{100}));
  EXPECT_EQ(tick_range(xbar, 6, 7), (std::vector<uint64_t>{6, 7}));
  EXPECT_EQ(drain(xbar, 0, 8), (std::vector<uint64_t>{1}));
  EXPECT_EQ(drain(xbar, 1, 8), (std::vector<uint64_t>{2}));
}

// Different outputs accept in the same cycle; one input sends one packet a cycle.
TEST(Crossbar, OutputsWorkInParallelInputsSendOneAPacketACycle) {
  Crossbar xbar({.inputs = 2, .outputs = 2, .latency = 3});
  xbar.push(0, 0, 8, request(1), 0);
  xbar.push(1, 1, 8, request(2), 0);
  EXPECT_TRUE(xbar.tick(0));
  EXPECT_EQ(drain(xbar, 0, 3), (std::vector<uint64_t>{1}));
  EXPECT_EQ(drain(xbar, 1, 3), (std::vector<uint64_t>{2}));
  xbar.push(0, 0, 8, request(3), 4);
  xbar.push(0, 1, 8, request(4), 4);
  EXPECT_TRUE(xbar.tick(4));
  EXPECT_EQ(xbar.next_event(4), 5u);
  EXPECT_TRUE(xbar.tick(5));
  EXPECT_EQ(drain(xbar, 0, 7), (std::vector<uint64_t>{3}));
  EXPECT_EQ(drain(xbar, 1, 7), std::vector<uint64_t>{});
  EXPECT_EQ(drain(xbar, 1, 8), (std::vector<uint64_t>{4}));
}

TEST(Crossbar, FullInputQueueRefusesPushes) {
  Crossbar xbar({.inputs = 1, .outputs = 1, .latency = 1, .input_queue = 2});
  EXPECT_TRUE(xbar.can_push(0));
  xbar.push(0, 0, 8, request(1), 0);
  xbar.push(0, 0, 8, request(2), 0);
  EXPECT_FALSE(xbar.can_push(0));
  EXPECT_THROW(xbar.push(0, 0, 8, request(3), 0), std::logic_error);
  EXPECT_TRUE(xbar.tick(0));
  EXPECT_TRUE(xbar.can_push(0));
}

// A little LCG drives pushes and pops; one crossbar ticks every cycle, the other only at the
// cycles next_event names (or when something was pushed or popped). Deliveries must be
// identical, cycle by cycle, and so must the statistics: next_event never skips work.
struct Delivery {
  uint64_t cycle, token;
  uint32_t output;
  bool operator==(const Delivery&) const = default;
};

std::vector<Delivery> run_traffic(bool skip_idle, CrossbarStats& stats, uint64_t& ticks) {
  Crossbar xbar({.inputs = 4, .outputs = 3, .latency = 7, .input_queue = 3, .output_queue = 2, .flit_bytes = 32});
  uint64_t seed = 12345, token = 0, wake = 0;
  ticks = 0;
  std::vector<Delivery> deliveries;
  for (uint64_t now = 0; now < 400; ++now) {
    bool touched = false;
    for (uint32_t input = 0; input < 4 && now < 300; ++input) {
      seed = seed * 6364136223846793005u + 1442695040888963407u;
      if ((seed >> 60) < 5 && xbar.can_push(input)) {
        xbar.push(input, static_cast<uint32_t>((seed >> 40) % 3), (seed >> 50) % 2 ? 128 : 8, request(token++), now);
        touched = true;
      }
    }
    for (uint32_t output = 0; output < 3; ++output) {
      seed = seed * 6364136223846793005u + 1442695040888963407u;
      if ((seed >> 61) < 5 && xbar.can_pop(output, now)) {  // the consumer is sometimes busy
        deliveries.push_back({now, xbar.front(output).token, output});
        xbar.pop(output);
        touched = true;
      }
    }
    if (!skip_idle || touched || now >= wake) {
      xbar.tick(now);
      ++ticks;
      wake = xbar.next_event(now);
    }
  }
  stats = xbar.stats();
  return deliveries;
}

TEST(Crossbar, SkippingToNextEventChangesNothing) {
  CrossbarStats every_cycle, skipping;
  uint64_t all_ticks = 0, few_ticks = 0;
  const std::vector<Delivery> reference = run_traffic(false, every_cycle, all_ticks);
  EXPECT_GT(reference.size(), 150u);
  EXPECT_GT(every_cycle.wait_cycles, 100u);  // the traffic does contend
  EXPECT_EQ(run_traffic(true, skipping, few_ticks), reference);
  EXPECT_LT(few_ticks, all_ticks) << "skipping ticked " << few_ticks << " of " << all_ticks;
  EXPECT_EQ(skipping.packets, every_cycle.packets);
  EXPECT_EQ(skipping.wait_cycles, every_cycle.wait_cycles);
  EXPECT_EQ(skipping.traversal_cycles, every_cycle.traversal_cycles);
  CrossbarStats again;
  EXPECT_EQ(run_traffic(false, again, all_ticks), reference);  // and the arbitration is deterministic
}

TEST(Crossbar, RejectsZeroOptionsByNameAndBadPorts) {
  for (auto [options, field] : {std::pair{CrossbarOptions{.inputs = 0}, "inputs"},
                                std::pair{CrossbarOptions{.outputs = 0}, "outputs"},
                                std::pair{CrossbarOptions{.latency = 0}, "latency"},
                                std::pair{CrossbarOptions{.input_queue = 0}, "input_queue"},
                                std::pair{CrossbarOptions{.output_queue = 0}, "output_queue"},
                                std::pair{CrossbarOptions{.flit_bytes = 0}, "flit_bytes"}}) {
    try {
      Crossbar xbar(options);
      ADD_FAILURE() << "accepted zero " << field;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  }
  Crossbar xbar({.inputs = 2, .outputs = 2});
  EXPECT_THROW(xbar.push(2, 0, 8, request(1), 0), std::logic_error);
  EXPECT_THROW(xbar.push(0, 2, 8, request(1), 0), std::logic_error);
}

}  // namespace
}  // namespace lockstep::mem
