// The operand collector unit in isolation: exact dispatch cycles for bank conflicts under both
// bank mappings, one and two reads per bank per cycle, the collectors' hold until dispatch + 1,
// and the co-issued path's reads behind the primary's.
#include <gtest/gtest.h>

#include <cstdint>

#include "sim/operand_collector.h"

namespace lockstep::sim {
namespace {

OperandCollectorOptions four_banks(uint32_t reads_per_cycle = 1, bool bank_by_warp = false, uint32_t collectors = 2) {
  return {.banks = 4, .reads_per_cycle = reads_per_cycle, .bank_by_warp = bank_by_warp, .collectors = collectors,
          .register_slots = 16};
}

TEST(OperandCollector, TwoReadsOfOneBankSerialiseByOneCycle) {
  OperandCollector oc(four_banks());
  const InstOperands ops = InstOperands{}.write(1).read(0).read(4);  // r0, r4: both bank 0
  EXPECT_EQ(oc.accept(10, {.warp = 0, .operands = &ops}), 11u);
  EXPECT_EQ(oc.stats().bank_conflicts, 1u);
  EXPECT_EQ(oc.stats().bank_conflict_cycles, 1u);
}

TEST(OperandCollector, ReadsOfDifferentBanksGoInTheIssueCycle) {
  OperandCollector oc(four_banks());
  const InstOperands ops = InstOperands{}.read(0, 4);  // r0..r3: banks 0..3
  EXPECT_EQ(oc.accept(10, {.warp = 0, .operands = &ops}), 10u);
  EXPECT_EQ(oc.stats().bank_conflicts, 0u);
  EXPECT_EQ(oc.stats().bank_conflict_cycles, 0u);
}

TEST(OperandCollector, ATwoReadBankServesBothInOneCycleAndTheThirdNext) {
  OperandCollector oc(four_banks(2));
  const InstOperands two = InstOperands{}.read(0).read(4);
  EXPECT_EQ(oc.accept(3, {.warp = 0, .operands = &two}), 3u);
  const InstOperands third = InstOperands{}.read(8);  // bank 0 again, in the same cycle
  EXPECT_EQ(oc.accept(3, {.warp = 0, .operands = &third}), 4u);
  EXPECT_EQ(oc.stats().bank_conflicts, 1u);
}

TEST(OperandCollector, ReadsOfAnEarlierCycleDoNotDelayALaterIssue) {
  OperandCollector oc(four_banks());
  const InstOperands ops = InstOperands{}.read(0).read(4).read(8);  // bank 0 three times: 0, 1, 2
  EXPECT_EQ(oc.accept(0, {.warp = 0, .operands = &ops}), 2u);
  const InstOperands later = InstOperands{}.read(0);
  EXPECT_EQ(oc.accept(5, {.warp = 0, .operands = &later}), 5u);
  EXPECT_EQ(oc.stats().bank_conflict_cycles, 2u);
}

TEST(OperandCollector, WarpOffsetMappingMovesAWarpsRegistersToOtherBanks) {
  const InstOperands r0 = InstOperands{}.read(0);
  const InstOperands r1 = InstOperands{}.read(1);
  OperandCollector by_warp(four_banks(1, true));
  EXPECT_EQ(by_warp.accept(0, {.warp = 0, .operands = &r0}), 0u);  // bank 0
  EXPECT_EQ(by_warp.accept(0, {.warp = 3, .operands = &r1}), 1u);  // (1 + 3) % 4: bank 0 again
  OperandCollector by_register(four_banks(1, false));
  EXPECT_EQ(by_register.accept(0, {.warp = 0, .operands = &r0}), 0u);
  EXPECT_EQ(by_register.accept(0, {.warp = 3, .operands = &r1}), 0u);  // bank 1
}

TEST(OperandCollector, PredicatesTakeNoBankRead) {
  OperandCollector oc(four_banks());
  const InstOperands ops = InstOperands{}.read(0).read(16).read(20);  // r0, then predicates p0, p4
  EXPECT_EQ(oc.accept(7, {.warp = 0, .operands = &ops}), 7u);
  EXPECT_EQ(oc.stats().bank_conflicts, 0u);
}

TEST(OperandCollector, ACollectorIsHeldUntilDispatchPlusOne) {
  OperandCollector oc(four_banks(1, false, 1));
  EXPECT_TRUE(oc.can_accept(0));
  EXPECT_EQ(oc.next_event(0), UINT64_MAX);
  const InstOperands ops = InstOperands{}.read(0).read(4);  // a conflict: dispatch 1
  EXPECT_EQ(oc.accept(0, {.warp = 0, .operands = &ops}), 1u);
  EXPECT_FALSE(oc.can_accept(0));
  EXPECT_FALSE(oc.can_accept(1));
  EXPECT_TRUE(oc.can_accept(2));
  EXPECT_EQ(oc.next_event(0), 2u);
  EXPECT_EQ(oc.next_event(2), UINT64_MAX);
  EXPECT_FALSE(oc.tick(1));  // nothing advances by itself
}

TEST(OperandCollector, TwoCollectorsTakeTwoInstructionsInOneCycle) {
  OperandCollector oc(four_banks(1, false, 2));
  const InstOperands a = InstOperands{}.read(0);
  const InstOperands b = InstOperands{}.read(1);
  EXPECT_EQ(oc.accept(4, {.warp = 0, .operands = &a}), 4u);
  EXPECT_TRUE(oc.can_accept(4));
  EXPECT_EQ(oc.accept(4, {.warp = 0, .operands = &b}), 4u);
  EXPECT_FALSE(oc.can_accept(4));
  EXPECT_EQ(oc.next_event(4), 5u);
}

TEST(OperandCollector, ACoIssuedPathReadsBehindThePrimaryAndSkipsWhatItRead) {
  const InstOperands primary = InstOperands{}.read(0);
  const InstOperands secondary = InstOperands{}.read(0).read(4);
  OperandCollector sibling(four_banks());
  const uint64_t dispatch = sibling.accept(0, {.warp = 0, .operands = &primary});
  EXPECT_EQ(dispatch, 0u);
  // An sbi pair reads r0 once: only r4 is read, a cycle later on bank 0.
  EXPECT_EQ(sibling.accept_beside(0, {.warp = 0, .operands = &secondary, .already_read = &primary}, dispatch), 1u);
  EXPECT_EQ(sibling.stats().bank_conflict_cycles, 1u);
  OperandCollector other_warp(four_banks());
  other_warp.accept(0, {.warp = 0, .operands = &primary});
  // Another warp's path (swi) reads both: bank 0 in cycles 1 and 2.
  EXPECT_EQ(other_warp.accept_beside(0, {.warp = 0, .operands = &secondary}, 0), 2u);
  EXPECT_EQ(other_warp.stats().bank_conflicts, 2u);
  EXPECT_EQ(other_warp.stats().bank_conflict_cycles, 2u);
  // The secondary takes no collector of its own.
  EXPECT_TRUE(other_warp.can_accept(1));
}

TEST(OperandCollector, ABesideReadThatIsReadyFirstWaitsForThePrimarysDispatch) {
  OperandCollector oc(four_banks());
  const InstOperands primary = InstOperands{}.read(0).read(4);
  const InstOperands secondary = InstOperands{}.read(1);
  const uint64_t dispatch = oc.accept(0, {.warp = 0, .operands = &primary});
  EXPECT_EQ(dispatch, 1u);
  EXPECT_EQ(oc.accept_beside(0, {.warp = 0, .operands = &secondary}, dispatch), 1u);
  EXPECT_EQ(oc.stats().bank_conflict_cycles, 1u);  // the primary's cycle only
}

}  // namespace
}  // namespace lockstep::sim
