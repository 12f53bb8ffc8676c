// DRAM scheduler policies: the registry (names, unknown name lists the known ones), one contract
// test run over every registered policy, a behaviour test per policy on hand-made candidate lists,
// and the channel-level difference: FR-FCFS serves a younger row hit before an older row conflict,
// FCFS does not.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "dram_harness.h"
#include "mem/dram/dram_channel.h"
#include "mem/dram/scheduler/dram_scheduler.h"

namespace lockstep::mem {
namespace {

using dram_test::address_of;
using dram_test::Completion;
using dram_test::cycle_of;
using dram_test::read_of;
using dram_test::run_until_idle;
using dram_test::small_options;

constexpr std::size_t kNone = DramScheduler::kNone;

DramCandidate candidate(uint32_t bank, DramCommand command, bool ready, bool closes_wanted = false) {
  return {bank, command, ready, closes_wanted};
}

TEST(DramSchedulerRegistry, ListsFrFcfsAndFcfsAndRejectsUnknownNames) {
  std::vector<std::string> names;
  for (const DramSchedulerInfo& info : dram_schedulers()) {
    names.emplace_back(info.name);
    EXPECT_FALSE(info.description.empty());
    EXPECT_NE(make_dram_scheduler(info.name), nullptr);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"fr-fcfs", "fcfs"}));
  try {
    make_dram_scheduler("frfcfs");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "unknown dram scheduler 'frfcfs' (known: fr-fcfs, fcfs)");
  }
  DramOptions o = small_options("open-row");
  EXPECT_THROW(DramChannel{o}, std::invalid_argument);
}

// Every policy: nothing to pick from an empty list or one with nothing ready; a pick is always a
// ready candidate; the same list gives the same pick; when the oldest is ready and closes no
// wanted row, something is picked.
TEST(DramSchedulerContract, EveryPolicyPicksOnlyReadyCandidates) {
  const std::vector<std::vector<DramCandidate>> lists = {
      {},
      {candidate(0, DramCommand::kRead, false), candidate(1, DramCommand::kActivate, false)},
      {candidate(0, DramCommand::kRead, true)},
      {candidate(0, DramCommand::kPrecharge, true), candidate(1, DramCommand::kRead, true)},
      {candidate(2, DramCommand::kActivate, false), candidate(3, DramCommand::kWrite, true),
       candidate(0, DramCommand::kPrecharge, true, true)},
      {candidate(0, DramCommand::kActivate, true), candidate(0, DramCommand::kActivate, true)},
  };
  for (const DramSchedulerInfo& info : dram_schedulers()) {
    const auto policy = info.make();
    for (std::size_t l = 0; l < lists.size(); ++l) {
      const std::vector<DramCandidate>& list = lists[l];
      const std::size_t pick = policy->pick(list);
      EXPECT_EQ(pick, policy->pick(list)) << info.name << " list " << l;
      bool any_ready = false;
      for (const DramCandidate& c : list) any_ready |= c.ready;
      if (!any_ready) {
        EXPECT_EQ(pick, kNone) << info.name << " list " << l;
      }
      if (pick != kNone) {
        ASSERT_LT(pick, list.size()) << info.name;
        EXPECT_TRUE(list[pick].ready) << info.name << " list " << l;
      }
      if (!list.empty() && list[0].ready && !list[0].closes_wanted) {
        EXPECT_NE(pick, kNone) << info.name << " list " << l;
      }
    }
  }
}

TEST(DramSchedulerFrFcfs, OldestReadyHitFirstThenOldestReady) {
  const auto policy = make_dram_scheduler("fr-fcfs");
  // A younger ready hit beats an older ready activate.
  EXPECT_EQ(policy->pick(std::vector{candidate(0, DramCommand::kActivate, true), candidate(1, DramCommand::kRead, true),
                                     candidate(2, DramCommand::kRead, true)}),
            1u);
  // A hit that is not ready does not block: the oldest ready request goes.
  EXPECT_EQ(policy->pick(std::vector{candidate(0, DramCommand::kRead, false), candidate(1, DramCommand::kPrecharge, true),
                                     candidate(2, DramCommand::kActivate, true)}),
            1u);
  // A precharge that would close a row another request hits is held back.
  EXPECT_EQ(policy->pick(std::vector{candidate(0, DramCommand::kPrecharge, true, true),
                                     candidate(0, DramCommand::kRead, false), candidate(3, DramCommand::kActivate, true)}),
            2u);
  EXPECT_EQ(policy->pick(std::vector{candidate(0, DramCommand::kPrecharge, true, true),
                                     candidate(0, DramCommand::kRead, false)}),
            kNone);
}

TEST(DramSchedulerFcfs, OnlyTheOldest) {
  const auto policy = make_dram_scheduler("fcfs");
  EXPECT_EQ(policy->pick(std::vector{candidate(0, DramCommand::kPrecharge, true, true),
                                     candidate(0, DramCommand::kRead, true)}),
            0u);
  EXPECT_EQ(policy->pick(std::vector{candidate(0, DramCommand::kActivate, false), candidate(1, DramCommand::kRead, true)}),
            kNone);
}

// Bank 0 has row 0 open. An older request for row 1 (a conflict) and a younger one for row 0 (a
// hit) arrive together in cycle 100.
//   fr-fcfs: the hit's read at 100 (done 112); then the conflict: PRE 101, ACT 111, RD 121, 133.
//   fcfs:    the conflict first: PRE 100, ACT 110, RD 120 (done 132); the hit has become a
//            conflict: PRE at tRAS after 110 = 130, ACT 140, RD 150, done 162.
TEST(DramSchedulerBehaviour, FrFcfsServesAYoungerHitBeforeAnOlderConflictFcfsDoesNot) {
  for (const char* policy : {"fr-fcfs", "fcfs"}) {
    const DramOptions o = small_options(policy);
    DramChannel channel(o);
    std::vector<Completion> log;
    channel.push(read_of(address_of(o, 0, 0), 1), 0);
    run_until_idle(channel, 0, log);
    channel.push(read_of(address_of(o, 0, 1), 2), 100);      // older, conflict
    channel.push(read_of(address_of(o, 0, 0, 32), 3), 100);  // younger, hit
    run_until_idle(channel, 100, log);
    const DramStats& s = channel.stats();
    if (std::string(policy) == "fr-fcfs") {
      EXPECT_EQ(cycle_of(log, 3), 112u);
      EXPECT_EQ(cycle_of(log, 2), 133u);
      EXPECT_EQ(s.row_hits, 1u);
      EXPECT_EQ(s.row_conflicts, 1u);
    } else {
      EXPECT_EQ(cycle_of(log, 2), 132u);
      EXPECT_EQ(cycle_of(log, 3), 162u);
      EXPECT_EQ(s.row_hits, 0u);
      EXPECT_EQ(s.row_conflicts, 2u);
    }
  }
}

}  // namespace
}  // namespace lockstep::mem
