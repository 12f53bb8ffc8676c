// timing.kernel_overlap: consecutive launches either follow one another (serial, the presets'
// default) or overlap at the tail: the next launch's blocks start on an SM as soon as that SM
// has finished its blocks of the launch before. Results are the same either way.
#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

// Two blocks on the teaching GPU's two SMs (round robin: block 0 on SM 0, block 1 on SM 1);
// block `long_block` loops 100 times, the other once, so one SM frees long before the other.
std::string unbalanced(int long_block) {
  const std::string body = "  mov.u32 %r1, %ctaid.x;\n"
                           "  setp.eq.u32 %p1, %r1, " + std::to_string(long_block) + ";\n" +
                           R"(  selp.u32 %r3, 100, 1, %p1;
  mov.f32 %f1, 0f00000000;
  mov.f32 %f2, 0f3F800000;
LOOP:
  add.f32 %f1, %f1, %f2;
  sub.u32 %r3, %r3, 1;
  setp.ne.u32 %p2, %r3, 0;
  @%p2 bra LOOP;
)";
  return micro_kernel(body);
}

struct TwoLaunches {
  sim::KernelTiming first, second;
  std::vector<float> out;
};

TwoLaunches run_twice(const std::string& overlap) {
  auto engine = timing_engine(timing_gpu("teaching", {"icache.miss_latency=1", "timing.kernel_overlap=" + overlap}));
  // The first launch's long block runs on SM 0, the second's on SM 1.
  const ModuleId first = engine->load_ptx(unbalanced(0), "long_first.ptx");
  const ModuleId second = engine->load_ptx(unbalanced(1), "long_second.ptx");
  const uint64_t buffer = engine->malloc(16 * sizeof(float));
  TwoLaunches r;
  for (auto [m, t] : {std::pair{first, &r.first}, std::pair{second, &r.second}}) {
    const LaunchResult launch = engine->launch(m, "k", {2, 1, 1}, {8, 1, 1}, 0, {KernelArg::of(buffer)});
    EXPECT_FALSE(launch.fault.has_value());
    *t = launch.timing.value_or(sim::KernelTiming{});
  }
  r.out.resize(16);
  engine->copy_to_host(r.out.data(), buffer, 16 * sizeof(float));
  return r;
}

TEST(KernelOverlap, SerialLaunchesFollowOneAnother) {
  const TwoLaunches r = run_twice("serial");
  EXPECT_EQ(r.first.start_cycle, 0u);
  EXPECT_EQ(r.first.end_cycle, r.first.cycles);
  EXPECT_EQ(r.second.start_cycle, r.first.end_cycle);
  EXPECT_EQ(r.second.cycles, r.first.cycles);  // the same work, mirrored, on an empty GPU
  EXPECT_EQ(r.second.end_cycle, r.second.start_cycle + r.second.cycles);
}

TEST(KernelOverlap, TailOverlapStartsOnTheSmThatFreedFirst) {
  const TwoLaunches serial = run_twice("serial");
  const TwoLaunches tail = run_twice("tail");
  EXPECT_EQ(tail.out, serial.out);
  EXPECT_EQ(tail.first, serial.first);  // nothing ran before it
  EXPECT_EQ(tail.second.warp_instructions, serial.second.warp_instructions);
  // SM 1 finished the first launch's short block at 445: the second launch starts there, its
  // long block on SM 1 at once, its short block on SM 0 when the first launch ends (1435).
  EXPECT_EQ(serial.first.end_cycle, 1435u);
  EXPECT_EQ(tail.second.start_cycle, 445u);
  EXPECT_EQ(serial.second.start_cycle, 1435u);
  // The long block takes as long either way: it ends at 445 + 1435 = 1880 instead of
  // 1435 + 1435 = 2870.
  EXPECT_EQ(serial.second.end_cycle, 2870u);
  EXPECT_EQ(tail.second.end_cycle, 1880u);
}

}  // namespace
}  // namespace lockstep::test
