// The contract every registered policy of every kind keeps (issue 13): warp schedulers,
// scoreboards, CTA schedulers, divergence units and cache replacement. The tests walk the
// registries, so a policy that registers is tested here without a line of its own: its entry is
// complete (name, description, parameters whose defaults lie in their ranges and whose keys are
// the configuration's), it builds from its defaults, and it keeps its kind's minimal behavioural
// contract. Each kind's own tests pin the policies' exact behaviour.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "config/option.h"
#include "func/divergence/divergence_unit.h"
#include "func/warp.h"
#include "mem/replacement/replacement_policy.h"
#include "policy/policy_registry.h"
#include "sim/cta_scheduler/cta_scheduler.h"
#include "sim/scoreboard/scoreboard.h"
#include "sim/warp_scheduler/warp_scheduler.h"

namespace lockstep {
namespace {

// A small deterministic generator: the same sequence on every run and platform.
struct Lcg {
  uint64_t state;
  uint64_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  }
};

// The entry-level contract, the same for every kind: a name registered once, a description,
// parameters with defaults in range that the configuration declares exactly as the policy does,
// and the kind's configuration key accepting exactly the registered names.
template <class Factory, class Traits>
void check_entries(std::span<const policy::Entry<Factory, Traits>> table, std::string_view config_key) {
  ASSERT_FALSE(table.empty());
  std::set<std::string_view> names;
  for (const policy::Entry<Factory, Traits>& entry : table) {
    SCOPED_TRACE(std::string(entry.name));
    EXPECT_FALSE(entry.name.empty());
    EXPECT_TRUE(names.insert(entry.name).second) << "registered twice";
    EXPECT_FALSE(entry.description.empty());
    EXPECT_EQ(entry.description.find('\n'), std::string_view::npos) << "a description is one line";
    EXPECT_NE(entry.make, nullptr);
    for (const policy::Param& param : entry.params) {
      SCOPED_TRACE(std::string(param.key));
      EXPECT_FALSE(param.description.empty());
      EXPECT_LE(param.min, param.default_value);
      EXPECT_LE(param.default_value, param.max);
      const config::OptionSpec& spec = config::find_option(param.key);
      EXPECT_EQ(spec.type, config::OptionType::Int);
      EXPECT_EQ(spec.min, param.min);
      EXPECT_EQ(spec.max, param.max);
      EXPECT_EQ(spec.description, param.description);
    }
  }
  EXPECT_EQ(config::find_option(config_key).choices, policy::names(table));
}

// The options struct's default of a declared parameter must be the declaration's default, so that
// "built from its defaults" means the same in code and in the docs. A parameter this test does not
// know yet fails here: map it to its options field below.
void expect_default(const policy::Param& param, int64_t options_default) {
  EXPECT_EQ(options_default, param.default_value) << param.key << ": the options struct and the declaration disagree";
}

// ---- warp schedulers --------------------------------------------------------------------------

sim::WarpSchedulerOptions warp_scheduler_defaults(const sim::WarpSchedulerInfo& info, uint32_t slots) {
  sim::WarpSchedulerOptions options;
  options.warp_slots = slots;
  for (const policy::Param& param : info.params) {
    if (param.key == "timing.fetch_group_size") expect_default(param, options.fetch_group_size);
    else ADD_FAILURE() << "unknown parameter " << param.key;
  }
  return options;
}

TEST(PolicyContract, WarpSchedulersPickOnlyReadyWarpsAndAlwaysOneWhenAnyIsReady) {
  check_entries(sim::warp_schedulers(), "timing.warp_scheduler");
  constexpr uint32_t kSlots = 24;
  for (const sim::WarpSchedulerInfo& info : sim::warp_schedulers()) {
    SCOPED_TRACE(std::string(info.name));
    auto scheduler = sim::make_warp_scheduler(info.name, warp_scheduler_defaults(info, kSlots));
    ASSERT_NE(scheduler, nullptr);
    EXPECT_EQ(scheduler->warp_slots(), kSlots);
    for (uint32_t w = 0; w < kSlots; ++w) scheduler->on_warp_added(w, w / 4);
    sim::WarpSet ready(kSlots);
    EXPECT_EQ(scheduler->select(ready), sim::kNoWarp);
    Lcg rng{1};
    for (uint64_t cycle = 0; cycle < 2000; ++cycle) {
      ready.clear();
      for (uint32_t w = 0; w < kSlots; ++w)
        if (rng.next() % 3 == 0) ready.set(w);
      const uint32_t picked = scheduler->select(ready);
      if (ready.empty()) {
        EXPECT_EQ(picked, sim::kNoWarp);
        continue;
      }
      ASSERT_LT(picked, kSlots);
      ASSERT_TRUE(ready.test(picked)) << "cycle " << cycle << ": picked warp " << picked << " is not ready";
      EXPECT_EQ(scheduler->select(ready), picked) << "select changed the policy's state";
      scheduler->on_issue(picked, cycle);
      // Long-latency operations come and go as the SM reports them.
      if (rng.next() % 4 == 0) scheduler->on_long_latency(picked);
      if (rng.next() % 3 == 0) scheduler->on_long_latency_done(static_cast<uint32_t>(rng.next() % kSlots));
    }
  }
}

// ---- scoreboards ------------------------------------------------------------------------------

sim::ScoreboardOptions scoreboard_defaults(const sim::ScoreboardKind& kind) {
  sim::ScoreboardOptions options;
  for (const policy::Param& param : kind.params) {
    if (param.key == "timing.rid_entries") expect_default(param, options.rid_entries);
    else ADD_FAILURE() << "unknown parameter " << param.key;
  }
  return options;
}

TEST(PolicyContract, ScoreboardsBlockAReadOrWriteOfAPendingWriteUntilItIsReleased) {
  check_entries(sim::scoreboard_kinds(), "timing.scoreboard");
  for (const sim::ScoreboardKind& kind : sim::scoreboard_kinds()) {
    SCOPED_TRACE(std::string(kind.name));
    auto sb = sim::make_scoreboard(kind.name, scoreboard_defaults(kind));
    ASSERT_NE(sb, nullptr);
    const sim::InstOperands writer = sim::InstOperands{}.write(5, 2).read(1);
    const sim::ScoreboardToken t = sb->on_decode(0, writer);
    ASSERT_EQ(sb->can_issue(0, writer, t), sim::IssueCheck::kReady);
    const sim::Reservation r = sb->reserve(0, writer, t);
    ASSERT_EQ(r.count, 1u);
    EXPECT_EQ(sb->pending_writes(0), 1u);

    auto check = [&](uint32_t warp, const sim::InstOperands& ops) {
      const sim::ScoreboardToken token = sb->on_decode(warp, ops);
      const sim::IssueCheck c = sb->can_issue(warp, ops, token);
      sb->discard(warp, token);
      return c;
    };
    const sim::InstOperands reader = sim::InstOperands{}.write(9).read(6);
    const sim::InstOperands rewriter = sim::InstOperands{}.write(5);
    EXPECT_EQ(check(0, reader), sim::IssueCheck::kRawHazard);
    EXPECT_EQ(check(0, rewriter), sim::IssueCheck::kWawHazard);
    EXPECT_EQ(check(1, reader), sim::IssueCheck::kReady) << "another warp's registers are its own";
    EXPECT_EQ(check(0, sim::InstOperands{}.write(7).read(4)), sim::IssueCheck::kReady) << "no overlap";

    sb->release(0, r.handles[0]);
    EXPECT_EQ(sb->pending_writes(0), 0u);
    EXPECT_EQ(check(0, reader), sim::IssueCheck::kReady);
    EXPECT_EQ(check(0, rewriter), sim::IssueCheck::kReady);
  }
}

// ---- CTA schedulers ---------------------------------------------------------------------------

TEST(PolicyContract, CtaSchedulersPlaceEveryBlockOnceAndOnlyWhereItFits) {
  check_entries(sim::cta_schedulers(), "timing.cta_scheduler");
  constexpr uint32_t kSms = 3, kPerSm = 2;
  constexpr uint64_t kBlocks = 20;
  for (const sim::CtaSchedulerInfo& info : sim::cta_schedulers()) {
    SCOPED_TRACE(std::string(info.name));
    EXPECT_TRUE(info.params.empty()) << "map the parameter to CtaSchedulerOptions here";
    auto scheduler = sim::make_cta_scheduler(info.name, {.sm_count = kSms});
    ASSERT_NE(scheduler, nullptr);
    EXPECT_TRUE(scheduler->done());
    std::vector<uint32_t> resident(kSms, 0);
    std::vector<int> placed(kBlocks, 0);
    std::vector<std::vector<uint64_t>> running(kSms);
    auto place = [&](const sim::CtaPlacement& p) {
      ASSERT_LT(p.block, kBlocks);
      ASSERT_LT(p.sm, kSms);
      ++placed[p.block];
      ++resident[p.sm];
      running[p.sm].push_back(p.block);
      EXPECT_LE(resident[p.sm], kPerSm) << "block " << p.block << " placed on a full SM " << p.sm;
    };
    auto expect_resident_agrees = [&] {
      for (uint32_t sm = 0; sm < kSms; ++sm) EXPECT_EQ(scheduler->resident(sm), resident[sm]) << "SM " << sm;
    };
    for (const sim::CtaPlacement& p : scheduler->start_launch(kBlocks, kPerSm)) place(p);
    expect_resident_agrees();
    // Blocks complete one per cycle, on the SMs in turn (each report in (cycle, SM) order).
    uint64_t cycle = 0;
    for (uint32_t turn = 0; !scheduler->done(); ++turn) {
      const uint32_t sm = turn % kSms;
      if (running[sm].empty()) {
        ASSERT_LT(turn, 10 * kBlocks) << "blocks left unplaced with every SM idle";
        continue;
      }
      running[sm].erase(running[sm].begin());
      --resident[sm];
      if (const auto p = scheduler->on_block_done(sm, ++cycle)) place(*p);
      expect_resident_agrees();
    }
    EXPECT_TRUE(scheduler->all_placed());
    for (uint64_t b = 0; b < kBlocks; ++b) EXPECT_EQ(placed[b], 1) << "block " << b;
  }
}

// ---- divergence units -------------------------------------------------------------------------

func::DivergenceOptions divergence_defaults(const func::DivergenceUnitInfo& info) {
  func::DivergenceOptions options;
  options.name = std::string(info.name);
  for (const policy::Param& param : info.params) {
    if (param.key == "sm.yield_after") expect_default(param, options.yield_after);
    else if (param.key == "sm.large_warp_size") expect_default(param, options.large_warp_size);
    else ADD_FAILURE() << "unknown parameter " << param.key;
  }
  return options;
}

TEST(PolicyContract, DivergenceUnitsStartTheWarpAtItsEntryWithAllLanes) {
  check_entries(func::divergence_units(), "sm.divergence");
  EXPECT_EQ(func::divergence_unit_names().size(), func::divergence_units().size());
  for (const func::DivergenceUnitInfo& info : func::divergence_units()) {
    SCOPED_TRACE(std::string(info.name));
    auto unit = func::make_divergence_unit(divergence_defaults(info));
    ASSERT_NE(unit, nullptr);
    for (const uint32_t width : {32u, 4u}) {
      func::Warp warp;
      warp.width = width;
      warp.live = (func::LaneMask{1} << width) - 1;
      warp.divergence = unit.get();
      unit->reset(warp, warp.live, 7);
      EXPECT_EQ(warp.pc, 7u);
      EXPECT_EQ(warp.active, warp.live);
      EXPECT_FALSE(unit->describe().empty()) << "a running path is a pending path";
      // A divergent branch keeps a subset of the lanes on the current path; the others wait.
      unit->branch(warp, 0x1, 20, 8, 30);
      EXPECT_NE(warp.active, 0u);
      EXPECT_EQ(warp.active & ~warp.live, 0u);
      EXPECT_TRUE(warp.pc == 20 || warp.pc == 8) << warp.pc;
    }
  }
}

// ---- cache replacement ------------------------------------------------------------------------

TEST(PolicyContract, ReplacementPoliciesPickACandidateWayEmptyOnesFirst) {
  check_entries(mem::replacement_policies(), "l1.replacement");
  check_entries(mem::replacement_policies(), "l2.replacement");
  check_entries(mem::replacement_policies(), "icache.replacement");
  constexpr uint32_t kSets = 4, kWays = 8;
  for (const mem::ReplacementPolicyInfo& info : mem::replacement_policies()) {
    SCOPED_TRACE(std::string(info.name));
    EXPECT_TRUE(info.params.empty()) << "map the parameter to the factory's arguments here";
    auto policy = mem::make_replacement_policy(info.name, kSets, kWays);
    ASSERT_NE(policy, nullptr);
    EXPECT_EQ(policy->victim(1, 0b1010'0000), 5u) << "the lowest empty candidate";
    Lcg rng{7};
    std::vector<bool> filled(kSets * kWays, false);
    for (int step = 0; step < 3000; ++step) {
      const uint32_t set = static_cast<uint32_t>(rng.next() % kSets);
      uint64_t candidates = rng.next() & ((uint64_t{1} << kWays) - 1);
      if (candidates == 0) candidates = 1;
      const uint32_t way = policy->victim(set, candidates);
      ASSERT_LT(way, kWays);
      ASSERT_TRUE((candidates >> way) & 1u) << "way " << way << " is not a candidate";
      for (uint32_t w = 0; w < kWays; ++w)
        if (((candidates >> w) & 1u) && !filled[set * kWays + w]) {
          EXPECT_EQ(way, w) << "an empty candidate way comes first";
          break;
        }
      const uint32_t line = set * kWays + way;
      // Only a filled line may be hit or invalidated (the caller's side of the contract).
      const uint64_t action = rng.next() % 4;
      if (action == 0 && filled[line]) {
        policy->on_invalidate(line);
        filled[line] = false;
      } else if (action == 1 && filled[line]) {
        policy->on_hit(line);
      } else {
        policy->on_fill(line);
        filled[line] = true;
      }
    }
  }
}

// ---- docs -------------------------------------------------------------------------------------

// docs/timing-model.md's "Policies" section lists every registered name of every kind.
TEST(PolicyContract, EveryRegisteredPolicyIsInTheDocs) {
  std::ifstream in(std::string(LOCKSTEP_TEST_DATA) + "/../docs/timing-model.md");
  ASSERT_TRUE(in) << "docs/timing-model.md not found";
  std::stringstream text;
  text << in.rdbuf();
  const std::string docs = text.str();
  auto expect_listed = [&](std::string_view name) {
    EXPECT_NE(docs.find("`" + std::string(name) + "`"), std::string::npos) << "`" << name << "` is not documented";
  };
  for (const auto& e : sim::warp_schedulers()) expect_listed(e.name);
  for (const auto& e : sim::scoreboard_kinds()) expect_listed(e.name);
  for (const auto& e : sim::cta_schedulers()) expect_listed(e.name);
  for (const auto& e : func::divergence_units()) expect_listed(e.name);
  for (const auto& e : mem::replacement_policies()) expect_listed(e.name);
}

}  // namespace
}  // namespace lockstep
