// Scoreboards (seed 001 §3.5): the registry, the contract every implementation keeps (range
// overlap, WAW, release in any order), and exact issue cycles from a tiny in-order driver where
// bitmap and rid-table must agree until the rid-table fills.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/instruction_buffer.h"
#include "sim/scoreboard/scoreboard.h"

namespace lockstep::sim {
namespace {

ScoreboardOptions options(uint32_t rid_entries = 6, uint32_t warps = 4) {
  ScoreboardOptions o;
  o.warps = warps, o.registers_per_warp = 64, o.rid_entries = rid_entries, o.decoded_per_warp = 2;
  return o;
}

InstOperands ops() { return InstOperands{}; }

// Issues an instruction at once (decode, check ready, reserve) and returns its handles.
Reservation issue(Scoreboard& sb, uint32_t warp, const InstOperands& o) {
  const ScoreboardToken t = sb.on_decode(warp, o);
  EXPECT_EQ(sb.can_issue(warp, o, t), IssueCheck::kReady);
  return sb.reserve(warp, o, t);
}

// The check an instruction decoded now would get; its token is discarded again.
IssueCheck check(Scoreboard& sb, uint32_t warp, const InstOperands& o) {
  const ScoreboardToken t = sb.on_decode(warp, o);
  const IssueCheck c = sb.can_issue(warp, o, t);
  sb.discard(warp, t);
  return c;
}

TEST(ScoreboardRegistry, NamesAndExactUnknownNameError) {
  std::vector<std::string> names;
  for (const ScoreboardKind& k : scoreboard_kinds()) names.emplace_back(k.name);
  EXPECT_EQ(names, (std::vector<std::string>{"bitmap", "rid-table"}));
  try {
    make_scoreboard("tomasulo", options());
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown scoreboard 'tomasulo' (accepted: bitmap, rid-table)");
  }
  ScoreboardOptions bad = options();
  bad.rid_entries = 0;
  EXPECT_THROW(make_scoreboard("rid-table", bad), std::invalid_argument);
  bad.rid_entries = 33;
  EXPECT_THROW(make_scoreboard("rid-table", bad), std::invalid_argument);
  EXPECT_EQ(issue_check_name(IssueCheck::kTableFull), "table full");
}

class ScoreboardContract : public testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<Scoreboard> sb = make_scoreboard(GetParam(), options());
};

// Seed 001 §3.5.3: a texture read writing r0..r3 is one pending (r0, size 4) write; a reader of r2
// must wait for it though r2 is not the first register.
TEST_P(ScoreboardContract, RangeOverlapBlocksReadersAndWritersInside) {
  const Reservation tex = issue(*sb, 0, ops().write(0, 4).read(20));
  ASSERT_EQ(tex.count, 1u);
  EXPECT_EQ(tex.handles[0].range, (RegRange{0, 4}));
  EXPECT_EQ(check(*sb, 0, ops().write(8).read(2)), IssueCheck::kRawHazard);
  EXPECT_EQ(check(*sb, 0, ops().write(8).read(3, 2)), IssueCheck::kRawHazard);  // r3..r4
  EXPECT_EQ(check(*sb, 0, ops().write(8).read(4)), IssueCheck::kReady);
  EXPECT_EQ(check(*sb, 0, ops().write(2)), IssueCheck::kWawHazard);
  EXPECT_EQ(check(*sb, 0, ops().write(4, 2).read(6)), IssueCheck::kReady);
  EXPECT_EQ(check(*sb, 1, ops().write(8).read(2)), IssueCheck::kReady);  // other warps: other registers
  sb->release(0, tex.handles[0]);
  EXPECT_EQ(check(*sb, 0, ops().write(8).read(2)), IssueCheck::kReady);
  EXPECT_EQ(sb->pending_writes(0), 0u);
}

TEST_P(ScoreboardContract, WriteAfterWriteWaitsForTheFirstWrite) {
  const Reservation first = issue(*sb, 2, ops().write(5).read(1));
  EXPECT_EQ(check(*sb, 2, ops().write(5).read(9)), IssueCheck::kWawHazard);
  // RAW is reported before WAW: the instruction waits on the same write either way.
  EXPECT_EQ(check(*sb, 2, ops().write(5).read(5)), IssueCheck::kRawHazard);
  sb->release(2, first.handles[0]);
  EXPECT_EQ(check(*sb, 2, ops().write(5).read(9)), IssueCheck::kReady);
}

TEST_P(ScoreboardContract, ReleasesInAnyOrder) {
  const Reservation a = issue(*sb, 0, ops().write(0));
  const Reservation b = issue(*sb, 0, ops().write(1, 2));
  const Reservation c = issue(*sb, 0, ops().write(4).write(6, 2));
  ASSERT_EQ(c.count, 2u);
  EXPECT_EQ(sb->pending_writes(0), 4u);
  const InstOperands reader_of_all = ops().write(30).read(0, 8);
  // Youngest first, splitting c's two writes around the others.
  sb->release(0, c.handles[1]);
  sb->release(0, b.handles[0]);
  EXPECT_EQ(check(*sb, 0, reader_of_all), IssueCheck::kRawHazard);
  EXPECT_EQ(check(*sb, 0, ops().write(30).read(1, 2).read(6, 2)), IssueCheck::kReady);
  sb->release(0, a.handles[0]);
  EXPECT_EQ(check(*sb, 0, reader_of_all), IssueCheck::kRawHazard);  // r4 still pending
  sb->release(0, c.handles[0]);
  EXPECT_EQ(check(*sb, 0, reader_of_all), IssueCheck::kReady);
  EXPECT_EQ(sb->pending_writes(0), 0u);
  EXPECT_THROW(sb->release(0, a.handles[0]), std::logic_error);  // not pending any more
}

TEST_P(ScoreboardContract, MisuseIsAnError) {
  EXPECT_THROW(sb->on_decode(0, ops().write(60, 8)), std::out_of_range);
  EXPECT_THROW(sb->on_decode(4, ops().write(1)), std::out_of_range);
  const Reservation w = issue(*sb, 0, ops().write(3));
  const InstOperands reader = ops().read(3);
  const ScoreboardToken t = sb->on_decode(0, reader);
  EXPECT_THROW(sb->reserve(0, reader, t), std::logic_error);
  sb->release(0, w.handles[0]);
  EXPECT_EQ(sb->reserve(0, reader, t).count, 0u);
}

// The SM's issue scans ask a head's scoreboard check once (Sm::WarpSlot::head_clear): a kReady
// answer must hold until that warp's own next reserve or discard, whatever else happens. Random
// rounds: warp 0 holds writes in flight and a ready head; releases of its writes, a second
// decode behind the head, and other warps' issues and releases come in random order.
TEST_P(ScoreboardContract, ReadyStaysReadyUntilTheWarpIssues) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    sb = make_scoreboard(GetParam(), options(4));
    std::vector<WriteHandle> mine;
    for (uint32_t i = 0; i < 1 + rng() % 3; ++i) {
      const Reservation r = issue(*sb, 0, ops().write(8 * i, 1 + rng() % 4));
      mine.insert(mine.end(), r.handles.begin(), r.handles.begin() + r.count);
    }
    const InstOperands head = ops().write(40 + rng() % 8).read(32 + rng() % 8, 1 + rng() % 2);
    const ScoreboardToken token = sb->on_decode(0, head);
    ASSERT_EQ(sb->can_issue(0, head, token), IssueCheck::kReady);
    std::vector<std::pair<uint32_t, WriteHandle>> others;
    bool second_decoded = false;
    for (int step = 0; step < 12; ++step) {
      switch (rng() % 4) {
        case 0:
          if (!mine.empty()) {
            const size_t k = rng() % mine.size();
            sb->release(0, mine[k]);
            mine.erase(mine.begin() + static_cast<std::ptrdiff_t>(k));
          }
          break;
        case 1:
          if (!second_decoded) {
            sb->on_decode(0, ops().write(40).read(0, 8));  // behind the head, waiting on everything
            second_decoded = true;
          }
          break;
        case 2: {
          const uint32_t warp = 1 + rng() % 3;
          const InstOperands o = ops().write(rng() % 16).read(32 + rng() % 8);
          const ScoreboardToken t = sb->on_decode(warp, o);
          if (sb->can_issue(warp, o, t) == IssueCheck::kReady) {
            const Reservation r = sb->reserve(warp, o, t);
            for (uint32_t i = 0; i < r.count; ++i) others.emplace_back(warp, r.handles[i]);
          } else {
            sb->discard(warp, t);
          }
          break;
        }
        default:
          if (!others.empty()) {
            const size_t k = rng() % others.size();
            sb->release(others[k].first, others[k].second);
            others.erase(others.begin() + static_cast<std::ptrdiff_t>(k));
          }
      }
      ASSERT_EQ(sb->can_issue(0, head, token), IssueCheck::kReady) << "round " << round << " step " << step;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllScoreboards, ScoreboardContract, testing::Values("bitmap", "rid-table"),
                         [](const testing::TestParamInfo<std::string>& param) {
                           return param.param == "bitmap" ? std::string("bitmap") : std::string("rid_table");
                         });

TEST(RidTableScoreboard, EntriesAreReusedLowestFirstAndTokensAreBounded) {
  auto sb = make_scoreboard("rid-table", options(3));
  const Reservation a = issue(*sb, 0, ops().write(0));
  const Reservation b = issue(*sb, 0, ops().write(1));
  EXPECT_EQ(a.handles[0].entry, 0u);
  EXPECT_EQ(b.handles[0].entry, 1u);
  sb->release(0, a.handles[0]);
  EXPECT_EQ(issue(*sb, 0, ops().write(2).write(3)).handles[1].entry, 2u);  // entries 0 and 2
  EXPECT_EQ(check(*sb, 0, ops().write(9)), IssueCheck::kTableFull);
  EXPECT_EQ(check(*sb, 0, ops().read(9)), IssueCheck::kReady);  // no destination: no entry needed
  EXPECT_THROW(sb->on_decode(0, ops().write(9).write(10).write(11).write(12)), std::invalid_argument);
  sb->on_decode(1, ops().read(1));
  sb->on_decode(1, ops().read(1));
  EXPECT_THROW(sb->on_decode(1, ops().read(1)), std::logic_error);  // decoded_per_warp = 2
}

// --- A tiny in-order driver: one warp, a 2-entry I-buffer, one issue per cycle. Each cycle:
// writebacks due now release, then the head issues if the scoreboard allows, then decode fills one
// entry. So a result written in cycle t frees a dependant to issue in cycle t.
struct Inst {
  InstOperands ops;
  uint32_t latency;
};

struct DriverRun {
  std::vector<uint64_t> issue_cycles;
  std::vector<std::string> head_checks;  // "cycle:check" for every cycle the head could not issue
};

DriverRun drive(Scoreboard& sb, const std::vector<Inst>& program) {
  InstructionBuffer ibuffer({.warps = 1, .entries_per_warp = 2});
  struct InFlight { WriteHandle handle; uint64_t due; };
  std::vector<InFlight> in_flight;
  DriverRun run;
  size_t next_decode = 0;
  for (uint64_t cycle = 0; run.issue_cycles.size() < program.size(); ++cycle) {
    if (cycle > 1000) throw std::runtime_error("driver: no progress");
    for (size_t i = 0; i < in_flight.size();) {
      if (in_flight[i].due == cycle) {
        sb.release(0, in_flight[i].handle);
        in_flight.erase(in_flight.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
    if (!ibuffer.empty(0)) {
      const IBufferEntry& head = ibuffer.head(0);
      const Inst& inst = program[head.pc];
      const IssueCheck c = sb.can_issue(0, inst.ops, head.token);
      ibuffer.set_ready(0, 0, c == IssueCheck::kReady);
      if (c == IssueCheck::kReady) {
        const Reservation r = sb.reserve(0, inst.ops, ibuffer.pop(0).token);
        for (uint32_t h = 0; h < r.count; ++h) in_flight.push_back({r.handles[h], cycle + inst.latency});
        run.issue_cycles.push_back(cycle);
      } else {
        run.head_checks.push_back(std::to_string(cycle) + ":" + std::string(issue_check_name(c)));
      }
    }
    if (next_decode < program.size() && !ibuffer.full(0)) {
      ibuffer.push(0, static_cast<uint32_t>(next_decode), sb.on_decode(0, program[next_decode].ops));
      ++next_decode;
    }
  }
  return run;
}

// i2 enters the I-buffer (cycle 2) while i1, whose result it reads, still waits: the rid-table
// must add i1's entry to i2's mask when i1 issues, or i2 would issue early.
const std::vector<Inst> kChain = {
    {ops().write(1).read(0), 4},  // i0: issues 1, r1 due 5
    {ops().write(2).read(1), 4},  // i1: RAW on r1 in 2..4, issues 5, r2 due 9
    {ops().write(3).read(2), 2},  // i2: RAW on r2 in 6..8, issues 9, r3 due 11
    {ops().write(3).read(0), 1},  // i3: WAW on r3 in 10, issues 11
};

TEST(ScoreboardDriver, DependentChainHasExactIssueCyclesOnBothScoreboards) {
  for (const char* name : {"bitmap", "rid-table"}) {
    SCOPED_TRACE(name);
    auto sb = make_scoreboard(name, options());
    const DriverRun run = drive(*sb, kChain);
    EXPECT_EQ(run.issue_cycles, (std::vector<uint64_t>{1, 5, 9, 11}));
    EXPECT_EQ(run.head_checks, (std::vector<std::string>{"2:raw hazard", "3:raw hazard", "4:raw hazard",
                                                         "6:raw hazard", "7:raw hazard", "8:raw hazard",
                                                         "10:waw hazard"}));
  }
}

// Independent writes: the bitmap never stalls, a 1-entry rid-table waits for each write to
// complete (a structural stall, seed 001 §3.5.3: too few entries cause needless issue stalls).
TEST(ScoreboardDriver, OneEntryRidTableStallsWhereBitmapDoesNot) {
  const std::vector<Inst> independent = {{ops().write(0), 4}, {ops().write(1), 1}, {ops().write(2), 1}};
  auto bitmap = make_scoreboard("bitmap", options());
  const DriverRun b = drive(*bitmap, independent);
  EXPECT_EQ(b.issue_cycles, (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_TRUE(b.head_checks.empty());
  auto rid = make_scoreboard("rid-table", options(1));
  const DriverRun r = drive(*rid, independent);
  EXPECT_EQ(r.issue_cycles, (std::vector<uint64_t>{1, 5, 6}));
  EXPECT_EQ(r.head_checks, (std::vector<std::string>{"2:table full", "3:table full", "4:table full"}));
}

// A deterministic pseudo-random program (one destination, latency at most 6, so at most 6 writes
// are ever pending and a 6-entry table never fills): every decision of the two must be equal.
TEST(ScoreboardDriver, BitmapAndRidTableAgreeWhileTheTableNeverFills) {
  std::vector<Inst> program;
  uint32_t x = 12345;
  auto next = [&x](uint32_t n) {
    x = x * 1103515245u + 12345u;
    return (x >> 16) % n;
  };
  for (int i = 0; i < 300; ++i) {
    InstOperands o = ops().write(next(12), 1 + next(4));
    for (uint32_t s = 0, n = next(4); s < n; ++s) o.read(next(14), 1 + next(3));
    program.push_back({o, 1 + next(6)});
  }
  auto bitmap = make_scoreboard("bitmap", options());
  auto rid = make_scoreboard("rid-table", options(6));
  const DriverRun b = drive(*bitmap, program);
  const DriverRun r = drive(*rid, program);
  EXPECT_EQ(b.issue_cycles, r.issue_cycles);
  EXPECT_EQ(b.head_checks, r.head_checks);
  // The program does have hazards to agree on; every cycle from 1 on either issues or stalls.
  EXPECT_EQ(b.head_checks.size(), 469u);
  EXPECT_EQ(b.issue_cycles.back(), 1u + 299u + 469u);
}

}  // namespace
}  // namespace lockstep::sim
