// Census of PTX ISA 9.0's special registers (chapter "Special Registers", in its order): each
// lowers, binds and reads the value a real H100 gives, or, where the GPU's value is the
// driver's or the clock's, the value lockstep documents. One kernel per register stores the
// value of every thread of a (2,1,1) x (4,1,1) launch with 100 bytes of dynamic shared memory
// and 20 bytes of static shared memory. Also: the reserved shared-memory region those
// registers point at is memory of its own, after the kernel's, in both modes.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"

namespace lockstep {
namespace {

enum class Kind { U32, U64, Pred };

struct Census {
  std::string name;
  Kind kind;
  std::function<uint64_t(uint32_t block, uint32_t thread)> expected;
};

uint64_t constant(uint64_t v, uint32_t, uint32_t) { return v; }
auto is(uint64_t v) { return [v](uint32_t b, uint32_t t) { return constant(v, b, t); }; }

// Shared memory of the census kernel: 20 static bytes, the dynamic part from offset 32 (its
// 16-byte alignment), 132 bytes in all: %total_smem_size is that in 128-byte units, and the
// 1 KiB reserved region starts there.
constexpr uint64_t kTotal = 256, kReserved = 1024;

std::vector<Census> census() {
  std::vector<Census> c = {
      {"%tid.x", Kind::U32, [](uint32_t, uint32_t t) { return uint64_t{t}; }},
      {"%tid.y", Kind::U32, is(0)},
      {"%tid.z", Kind::U32, is(0)},
      {"%ntid.x", Kind::U32, is(4)},
      {"%ntid.y", Kind::U32, is(1)},
      {"%ntid.z", Kind::U32, is(1)},
      {"%laneid", Kind::U32, [](uint32_t, uint32_t t) { return uint64_t{t}; }},
      {"%warpid", Kind::U32, is(0)},
      {"%nwarpid", Kind::U32, is(64)},  // warp slots per SM on sm_80/sm_90
      {"%ctaid.x", Kind::U32, [](uint32_t b, uint32_t) { return uint64_t{b}; }},
      {"%ctaid.y", Kind::U32, is(0)},
      {"%ctaid.z", Kind::U32, is(0)},
      {"%nctaid.x", Kind::U32, is(2)},
      {"%nctaid.y", Kind::U32, is(1)},
      {"%nctaid.z", Kind::U32, is(1)},
      {"%smid", Kind::U32, is(0)},    // functional mode runs every block on SM 0
      {"%nsmid", Kind::U32, is(1)},   // ... of one
      {"%gridid", Kind::U64, is(1)},  // the engine's first launch
      {"%is_explicit_cluster", Kind::Pred, is(0)},  // no .explicitcluster / .reqnctapercluster
      // A launch without clusters: each block is a cluster of one.
      {"%clusterid.x", Kind::U32, [](uint32_t b, uint32_t) { return uint64_t{b}; }},
      {"%clusterid.y", Kind::U32, is(0)},
      {"%clusterid.z", Kind::U32, is(0)},
      {"%nclusterid.x", Kind::U32, is(2)},
      {"%nclusterid.y", Kind::U32, is(1)},
      {"%nclusterid.z", Kind::U32, is(1)},
      {"%cluster_ctaid.x", Kind::U32, is(0)},
      {"%cluster_ctaid.y", Kind::U32, is(0)},
      {"%cluster_ctaid.z", Kind::U32, is(0)},
      {"%cluster_nctaid.x", Kind::U32, is(1)},
      {"%cluster_nctaid.y", Kind::U32, is(1)},
      {"%cluster_nctaid.z", Kind::U32, is(1)},
      {"%cluster_ctarank", Kind::U32, is(0)},
      {"%cluster_nctarank", Kind::U32, is(1)},
      {"%lanemask_eq", Kind::U32, [](uint32_t, uint32_t t) { return uint64_t{1} << t; }},
      {"%lanemask_le", Kind::U32, [](uint32_t, uint32_t t) { return (uint64_t{2} << t) - 1; }},
      {"%lanemask_lt", Kind::U32, [](uint32_t, uint32_t t) { return (uint64_t{1} << t) - 1; }},
      {"%lanemask_ge", Kind::U32, [](uint32_t, uint32_t t) { return 0xffffffffull & ~((uint64_t{1} << t) - 1); }},
      {"%lanemask_gt", Kind::U32, [](uint32_t, uint32_t t) { return 0xffffffffull & ~((uint64_t{2} << t) - 1); }},
      // Functional time is the warp's instruction count: the read is its second instruction.
      {"%clock", Kind::U32, is(1)},
      {"%clock_hi", Kind::U32, is(0)},
      {"%clock64", Kind::U64, is(1)},
  };
  for (int n = 0; n < 8; ++n) c.push_back({"%pm" + std::to_string(n), Kind::U32, is(0)});  // no profiler
  for (int n = 0; n < 8; ++n) c.push_back({"%pm" + std::to_string(n) + "_64", Kind::U64, is(0)});
  for (int n = 0; n < 32; ++n) c.push_back({"%envreg" + std::to_string(n), Kind::U32, is(0)});  // ordinary launch
  const std::vector<Census> rest = {
      {"%globaltimer", Kind::U64, is(1)},  // ns at a nominal 1 GHz: one per instruction
      {"%globaltimer_lo", Kind::U32, is(1)},
      {"%globaltimer_hi", Kind::U32, is(0)},
      {"%reserved_smem_offset_begin", Kind::U32, is(kTotal)},
      {"%reserved_smem_offset_end", Kind::U32, is(kTotal + kReserved)},
      {"%reserved_smem_offset_cap", Kind::U32, is(kReserved)},
      {"%reserved_smem_offset_0", Kind::U32, is(kTotal)},
      {"%reserved_smem_offset_1", Kind::U32, is(kTotal + kReserved / 2)},
      {"%total_smem_size", Kind::U32, is(kTotal)},
      {"%aggr_smem_size", Kind::U32, is(kTotal + kReserved)},
      {"%dynamic_smem_size", Kind::U32, is(100)},
      {"%current_graph_exec", Kind::U64, is(0)},  // not launched from a graph
  };
  c.insert(c.end(), rest.begin(), rest.end());
  return c;
}

// out[ctaid * 4 + tid] = the register, widened to 64 bits.
std::string kernel_for(const Census& c) {
  std::string read;
  switch (c.kind) {
    case Kind::U32: read = "  mov.u32 %r1, " + c.name + ";\n  cvt.u64.u32 %rd2, %r1;\n"; break;
    case Kind::U64: read = "  mov.u64 %rd2, " + c.name + ";\n"; break;
    case Kind::Pred: read = "  mov.pred %p1, " + c.name + ";\n  selp.u64 %rd2, 1, 0, %p1;\n"; break;
  }
  return ".version 9.0\n.target sm_90\n.address_size 64\n"
         ".visible .entry census(.param .u64 out)\n{\n"
         "  .shared .align 4 .b8 pad[20];\n"
         "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<6>;\n"
         "  ld.param.u64 %rd1, [out];\n" +
         read +
         "  mov.u32 %r2, pad;\n  st.shared.u32 [%r2], 1;\n"
         "  mov.u32 %r3, %tid.x;\n  mov.u32 %r4, %ctaid.x;\n  mad.lo.u32 %r5, %r4, 4, %r3;\n"
         "  mul.wide.u32 %rd3, %r5, 8;\n  add.s64 %rd4, %rd1, %rd3;\n  st.global.u64 [%rd4], %rd2;\n"
         "  ret;\n}\n";
}

TEST(SpecialRegisterCensus, EveryRegisterOfPtxIsa90LowersAndReadsItsValue) {
  const std::vector<Census> all = census();
  EXPECT_EQ(all.size(), 101u);  // the chapter's registers, vector components and numbered families spelled out
  for (const Census& c : all) {
    SCOPED_TRACE(c.name);
    Engine engine;
    const ModuleId m = engine.load_ptx(kernel_for(c), "census.ptx");
    test::DeviceBuffer<uint64_t> out(engine, 8);
    test::launch_ok(engine, m, "census", {2, 1, 1}, {4, 1, 1}, {out.arg()}, 100);
    std::vector<uint64_t> expected;
    for (uint32_t b = 0; b < 2; ++b)
      for (uint32_t t = 0; t < 4; ++t) expected.push_back(c.expected(b, t));
    EXPECT_EQ(out.download(), expected);
  }
}

// The reserved region is usable shared memory of its own: thread t writes t+1 to word t of the
// dynamic shared memory (25 words) and t+100 to word t of the region at %reserved_smem_offset_1
// and at %reserved_smem_offset_end - 100, then reads both back after the barrier.
constexpr const char* kReservedRegion = R"(.version 9.0
.target sm_90
.address_size 64
.extern .shared .align 16 .b8 dyn[];
.visible .entry reserved(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, dyn;
  add.u32 %r4, %r3, %r2;
  add.u32 %r5, %r1, 1;
  st.shared.u32 [%r4], %r5;
  mov.u32 %r6, %reserved_smem_offset_1;
  add.u32 %r7, %r6, %r2;
  add.u32 %r8, %r1, 100;
  st.shared.u32 [%r7], %r8;
  mov.u32 %r9, %reserved_smem_offset_end;
  add.u32 %r10, %r9, %r2;
  st.shared.u32 [%r10+-100], %r8;
  bar.sync 0;
  ld.shared.u32 %r11, [%r4];
  ld.shared.u32 %r12, [%r7];
  ld.shared.u32 %r13, [%r10+-100];
  mul.wide.u32 %rd2, %r1, 12;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r11;
  st.global.u32 [%rd3+4], %r12;
  st.global.u32 [%rd3+8], %r13;
  ret;
}
)";

void check_reserved_region(Engine& engine) {
  const ModuleId m = engine.load_ptx(kReservedRegion, "reserved.ptx");
  test::DeviceBuffer<uint32_t> out(engine, 3 * 25);
  test::launch_ok(engine, m, "reserved", {2, 1, 1}, {25, 1, 1}, {out.arg()}, 100);
  std::vector<uint32_t> expected;
  for (uint32_t t = 0; t < 25; ++t) expected.insert(expected.end(), {t + 1, t + 100, t + 100});
  EXPECT_EQ(out.download(), expected);
}

TEST(ReservedSharedMemory, IsARegionOfItsOwnAfterTheKernelsSharedMemory) {
  Engine engine;
  check_reserved_region(engine);
}

TEST(ReservedSharedMemory, IsARegionOfItsOwnInTimingMode) {
  EngineOptions options;
  options.timing = std::make_shared<const config::GpuConfig>(config::load_gpu_config("h100"));
  Engine engine(options);
  check_reserved_region(engine);
}

// In timing mode %globaltimer counts nanoseconds of the preset's core clock: read right after
// %clock64, it is that cycle (or one a few cycles later) converted at h100's 1980 MHz.
constexpr const char* kTimer = R"(
.version 9.0
.target sm_90
.address_size 64
.visible .entry timer(.param .u64 out) {
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, %clock64;
  mov.u64 %rd3, %globaltimer;
  st.global.u64 [%rd1], %rd2;
  st.global.u64 [%rd1+8], %rd3;
  ret;
}
)";

TEST(GlobalTimer, CountsNanosecondsOfThePresetsClockInTimingMode) {
  EngineOptions options;
  options.timing = std::make_shared<const config::GpuConfig>(config::load_gpu_config("h100"));
  ASSERT_EQ(options.timing->gpu.core_clock_mhz, 1980u);
  Engine engine(options);
  const ModuleId m = engine.load_ptx(kTimer, "timer.ptx");
  test::DeviceBuffer<uint64_t> out(engine, 2);
  test::launch_ok(engine, m, "timer", {1, 1, 1}, {1, 1, 1}, {out.arg()});
  const std::vector<uint64_t> v = out.download();
  ASSERT_GT(v[0], 0u);
  EXPECT_GE(v[1], v[0] * 1000 / 1980);
  EXPECT_LE(v[1], (v[0] + 64) * 1000 / 1980);
}

}  // namespace
}  // namespace lockstep
