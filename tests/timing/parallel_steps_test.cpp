// SMs stepped on several threads: SMs share nothing while they step, and what changes
// launch-wide state (global stores and atomics, printf) lands at the end of the cycle in SM
// order, so any number of threads gives bit-identical results, statistics, printf text and
// traces. The kernels here make that order visible: every thread of 264 blocks adds to one
// float with atomicAdd and keeps the old value it saw, which pins the global order of all
// 33792 atomics, and printf text comes out in commit order.
#include <algorithm>

#include "common/harness.h"
#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

// out[i] = atomicAdd(sum, i * 0.1f): the old value, as raw bits.
const char* const kAtomicOrder = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 sum) {
  .reg .f32 %f<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  cvt.rn.f32.u32 %f1, %r4;
  mul.f32 %f1, %f1, 0f3DCCCCCD;
  ld.param.u64 %rd1, [sum];
  atom.global.add.f32 %f2, [%rd1], %f1;
  ld.param.u64 %rd2, [out];
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.f32 [%rd2], %f2;
  ret;
}
)";

struct Outcome {
  sim::KernelTiming timing;
  std::vector<uint32_t> old_values;  // bits
  uint32_t sum = 0;                  // bits
  uint64_t trace_hash = 0;
  uint64_t trace_events = 0;
  std::string printf_output;
};

uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull; }

Outcome run_atomics(uint32_t threads) {
  auto owned = timing_engine(timing_gpu("h100"), threads);
  Engine& engine = *owned;
  Outcome o;
  engine.set_trace([&](const TraceEvent& e) {
    o.trace_hash = mix(mix(mix(mix(o.trace_hash, e.cycle), e.block), uint64_t{e.warp} << 32 | e.pc), e.active_mask);
    ++o.trace_events;
  });
  const ModuleId m = engine.load_ptx(kAtomicOrder, "atomic_order.ptx");
  const uint32_t blocks = 264, block = 128, n = blocks * block;
  const uint64_t out = engine.malloc(n * 4), sum = engine.malloc(4);
  const LaunchResult r = engine.launch(m, "k", {blocks, 1, 1}, {block, 1, 1}, 0,
                                       {KernelArg::of(out), KernelArg::of(sum)});
  EXPECT_FALSE(r.fault.has_value()) << (r.fault ? r.fault->message : "");
  if (r.timing) o.timing = *r.timing;
  o.old_values.resize(n);
  engine.copy_to_host(o.old_values.data(), out, n * 4);
  engine.copy_to_host(&o.sum, sum, 4);
  return o;
}

Outcome run_printf(uint32_t threads) {
  auto owned = timing_engine(timing_gpu("h100"), threads);
  Engine& engine = *owned;
  const ModuleId m = engine.load_ptx_file(kernel_ptx_path("16_printf", 90));
  const uint32_t blocks = 300, block = 64, n = blocks * block;
  std::vector<int32_t> values(n);
  for (uint32_t i = 0; i < n; ++i) values[i] = static_cast<int32_t>(i * 7919 % 2001) - 1000;
  DeviceBuffer<int32_t> dvalues(engine, values);
  const LaunchResult r = launch_ok(engine, m, "printf_guarded", {blocks, 1, 1}, {block, 1, 1},
                                   {dvalues.arg(), arg(5)});
  Outcome o;
  if (r.timing) o.timing = *r.timing;
  o.printf_output = r.printf_output;
  return o;
}

TEST(ParallelSteps, AnyNumberOfThreadsGivesTheSameAtomicOrderFiguresAndTrace) {
  const Outcome one = run_atomics(1);
  ASSERT_GT(one.timing.cycles, 0u);
  EXPECT_EQ(one.trace_events, one.timing.warp_instructions);
  // The order is a real one: every old value is the sum of the values added before it, so
  // exactly one thread saw 0 (the first; thread 0 adds 0 too, so it may be one of two).
  uint32_t zeros = 0;
  for (uint32_t bits : one.old_values) zeros += bits == 0;
  EXPECT_GE(zeros, 1u);
  EXPECT_LE(zeros, 2u);
  for (uint32_t threads : {2u, 3u, 8u}) {
    SCOPED_TRACE(threads);
    const Outcome many = run_atomics(threads);
    EXPECT_EQ(many.timing, one.timing);
    EXPECT_EQ(many.old_values, one.old_values);
    EXPECT_EQ(many.sum, one.sum);
    EXPECT_EQ(many.trace_hash, one.trace_hash);
    EXPECT_EQ(many.trace_events, one.trace_events);
  }
}

TEST(ParallelSteps, PrintfTextComesOutInTheSameOrder) {
  const Outcome one = run_printf(1);
  ASSERT_FALSE(one.printf_output.empty());
  EXPECT_NE(one.printf_output.find("thread 0 block 0 value -1000\n"), std::string::npos);
  EXPECT_EQ(std::count(one.printf_output.begin(), one.printf_output.end(), '\n'), 300 * 64 / 5);
  for (uint32_t threads : {2u, 5u}) {
    SCOPED_TRACE(threads);
    const Outcome many = run_printf(threads);
    EXPECT_EQ(many.printf_output, one.printf_output);
    EXPECT_EQ(many.timing, one.timing);
  }
}

}  // namespace
}  // namespace lockstep::test
