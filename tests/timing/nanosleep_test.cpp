// nanosleep in the timing model: the warp issues nothing for the time its lanes ask (the
// longest of them), in cycles of the preset's core clock rounded up, at most the 1 ms the PTX
// ISA allows; the cycles it sleeps are charged as `sleeping`.
#include <map>
#include <string>
#include <sstream>

#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

// Thread i asks for 10 * i ns when `duration` is %r2.
std::string sleeper(const std::string& duration) {
  return micro_kernel(fmt::format(R"(  mov.u32 %r1, %tid.x;
  mul.lo.u32 %r2, %r1, 10;
  nanosleep.u32 {};
  add.u32 %r3, %r2, 1;
  mov.f32 %f1, 0f3F800000;
)",
                                  duration));
}

// The cycle warp 0 issued the nanosleep in, and the cycle it issued the next instruction in.
std::pair<uint64_t, uint64_t> sleep_and_wake(const std::string& preset, const std::string& duration,
                                             uint32_t threads = 8, const std::string& divergence = "") {
  std::vector<std::string> overrides{"icache.miss_latency=1"};
  if (!divergence.empty()) overrides.push_back("sm.divergence=" + divergence);
  auto engine = timing_engine(timing_gpu(preset, overrides));
  std::istringstream trace(issue_trace(*engine, sleeper(duration), 1, threads));
  std::map<int, uint64_t> issued;  // PTX line -> cycle
  std::string entry;
  while (trace >> entry) {
    const size_t colon = entry.find(':');
    issued.emplace(std::stoi(entry.substr(colon + 1)), std::stoull(entry.substr(0, colon)));
  }
  return {issued.at(12), issued.at(13)};  // micro_kernel's body starts at line 10
}

TEST(Nanosleep, HoldsTheWarpForTheAskedNanosecondsOfTheCoreClock) {
  // teaching runs at 1000 MHz: a cycle per ns; the warp may issue again the cycle after.
  auto [slept, woke] = sleep_and_wake("teaching", "40");
  EXPECT_EQ(woke - slept, 41u);
  std::tie(slept, woke) = sleep_and_wake("teaching", "0");
  EXPECT_LT(woke - slept, 41u);
  // h100's 1980 MHz: 1000 ns are 1980 cycles; 3 ns are 5.94, rounded up to 6.
  std::tie(slept, woke) = sleep_and_wake("h100", "1000");
  EXPECT_EQ(woke - slept, 1981u);
  std::tie(slept, woke) = sleep_and_wake("h100", "3");
  EXPECT_EQ(woke - slept, 7u);
}

TEST(Nanosleep, TheWarpSleepsAsLongAsItsLongestLaneAsks) {
  // teaching's warps have 8 lanes; the 8th asks for 70 ns, and h100's 32nd for 310 (614 cycles).
  auto [slept, woke] = sleep_and_wake("teaching", "%r2");
  EXPECT_EQ(woke - slept, 71u);
  std::tie(slept, woke) = sleep_and_wake("teaching", "%r2", 5);
  EXPECT_EQ(woke - slept, 41u);
  std::tie(slept, woke) = sleep_and_wake("h100", "%r2", 32);
  EXPECT_EQ(woke - slept, 615u);
}

// Warps formed by a block-level unit sleep too: each member as long as its own lanes ask, and a
// warp asleep joins no formed warp until it wakes.
TEST(Nanosleep, WarpsFormedByABlockLevelUnitSleep) {
  for (const char* unit : {"dwf", "tbc", "large-warp", "sbi", "swi"}) {
    SCOPED_TRACE(unit);
    auto [slept, woke] = sleep_and_wake("teaching", "40", 8, unit);
    EXPECT_EQ(woke - slept, 41u);
    // Two warps, whose longest lanes ask 70 and 150 ns. tbc's and large-warp's block stack issues
    // its entry's warps together, so warp 0's next instruction waits for warp 1 to wake; dwf
    // forms its next warps from the warps awake, and sbi and swi keep each warp's own issue.
    std::tie(slept, woke) = sleep_and_wake("teaching", "%r2", 16, unit);
    const bool stacked = std::string(unit) == "tbc" || std::string(unit) == "large-warp";
    EXPECT_EQ(woke - slept, stacked ? 151u : 71u);
  }
}

TEST(Nanosleep, SleepsAtMostOneMillisecond) {
  auto [slept, woke] = sleep_and_wake("teaching", "5000000");
  EXPECT_EQ(woke - slept, 1'000'001u);
}

TEST(Nanosleep, ItsCyclesAreChargedAsSleeping) {
  auto engine = timing_engine(timing_gpu("teaching", {"icache.miss_latency=1"}));
  const sim::KernelTiming t = run_timed(*engine, sleeper("40"), 1, 8);
  EXPECT_EQ(t.warp_stalls[static_cast<size_t>(sim::StallReason::kSleeping)], 40u);
  const sim::KernelTiming none = run_timed(*engine, sleeper("0"), 1, 8);
  EXPECT_EQ(none.warp_stalls[static_cast<size_t>(sim::StallReason::kSleeping)], 0u);
}

}  // namespace
}  // namespace lockstep::test
