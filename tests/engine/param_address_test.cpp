// Taking the address of a kernel parameter, in both modes: nvcc 13's PTX for a struct parameter
// indexed at run time (mov of the parameter's symbol, ld.param [reg]), a __grid_constant__
// parameter of 32000 bytes read through cvta.param and generic loads in a called function
// (data/param_address.cu -> data/param_address.ptx), and the faults of reads past the buffer
// and of stores through a generic parameter address.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"

namespace lockstep {
namespace {

constexpr uint32_t kTableInts = 1024;
constexpr uint32_t kBigInts = 8000;

KernelArg ints_arg(const std::vector<int32_t>& values) {
  KernelArg a;
  a.bytes.resize(values.size() * sizeof(int32_t));
  std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
  return a;
}

std::vector<int32_t> table() {
  std::vector<int32_t> t(kTableInts);
  for (uint32_t i = 0; i < kTableInts; ++i) t[i] = static_cast<int32_t>(i * 7 + 3);
  return t;
}

EngineOptions options_for(bool timing) {
  EngineOptions options;
  if (timing) options.timing = std::make_shared<const config::GpuConfig>(config::load_gpu_config("h100"));
  return options;
}

class ParamAddress : public ::testing::TestWithParam<bool> {  // true: timing mode
 protected:
  ParamAddress() : engine_(options_for(GetParam())) {
    module_ = engine_.load_ptx_file(test::data_path("engine/data/param_address.ptx"));
  }
  Engine engine_;
  ModuleId module_;
};

TEST_P(ParamAddress, StructParameterIndexedAtRunTime) {
  std::vector<int32_t> idx(64);
  for (uint32_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int32_t>(i * 37 + 5000);  // & 1023 in the kernel
  test::DeviceBuffer<int32_t> index(engine_, idx);
  test::DeviceBuffer<int32_t> out(engine_, idx.size());
  test::launch_ok(engine_, module_, "_Z4pick5TablePKiPi", {1, 1, 1}, {64, 1, 1},
                  {ints_arg(table()), index.arg(), out.arg()});
  std::vector<int32_t> expected;
  for (int32_t i : idx) expected.push_back(table()[static_cast<uint32_t>(i) & 1023]);
  EXPECT_EQ(out.download(), expected);
}

TEST_P(ParamAddress, LargeGridConstantParameterThroughGenericAddresses) {
  std::vector<int32_t> big(kBigInts);
  for (uint32_t i = 0; i < kBigInts; ++i) big[i] = static_cast<int32_t>(i * i % 1009);
  test::DeviceBuffer<int32_t> out(engine_, 32);
  test::launch_ok(engine_, module_, "_Z7sum_big3BigPi", {1, 1, 1}, {32, 1, 1}, {ints_arg(big), out.arg()});
  std::vector<int32_t> expected;
  for (uint32_t t = 0; t < 32; ++t) {
    int32_t s = 0;
    for (uint32_t k = 0; k < 8; ++k) s += big[(t + k * 97) % kBigInts];
    expected.push_back(s);
  }
  EXPECT_EQ(out.download(), expected);
}

// The buffer holds 4096 + 4 + 8 bytes (Table, int, pointer): element 1100 is at offset 4400.
TEST_P(ParamAddress, ReadPastTheParameterBufferIsReportedWithItsAddress) {
  test::DeviceBuffer<int32_t> out(engine_, 1);
  const LaunchResult r = engine_.launch(module_, "_Z7overrun5TableiPi", {1, 1, 1}, {1, 1, 1}, 0,
                                        {ints_arg(table()), KernelArg::of(int32_t{1100}), out.arg()});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "out-of-bounds access");
  EXPECT_EQ(r.fault->space, "param");
  EXPECT_EQ(r.fault->address, 4400u);
  EXPECT_EQ(r.fault->size, 4u);
  EXPECT_EQ(r.fault->kernel, "_Z7overrun5TableiPi");
  EXPECT_EQ(r.fault->ptx_location, test::data_path("engine/data/param_address.ptx") + ":197");
  EXPECT_EQ(r.fault->message,
            "out-of-bounds access of 4 bytes at param address 0x1130 in kernel '_Z7overrun5TableiPi', block (0,0,0), "
            "thread (0,0,0), pc 6 (" + test::data_path("engine/data/param_address.ptx") + ":197)");
}

// Hand-written: cvta.to.param back from a generic address, isspacep.param, a vector ld.param
// through a register with an offset, and a store through the generic address, which faults as
// an out-of-bounds access of the param space (kernel parameters are read only).
constexpr const char* kForms = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry forms(.param .align 16 .b8 vals[16], .param .u64 out, .param .u32 store)
{
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r9, [store];
  mov.b64 %rd2, vals;
  cvta.param.u64 %rd3, %rd2;
  isspacep.param %p1, %rd3;
  isspacep.global %p2, %rd3;
  cvta.to.param.u64 %rd4, %rd3;
  ld.param.v2.u32 {%r1, %r2}, [%rd4+8];
  ld.u32 %r3, [%rd3+4];
  selp.u32 %r4, 1, 0, %p1;
  selp.u32 %r5, 1, 0, %p2;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.u32 [%rd1+16], %r5;
  setp.ne.u32 %p1, %r9, 0;
  @%p1 st.u32 [%rd3], %r9;
  ret;
}
)";

TEST_P(ParamAddress, ConvertedAddressesRoundTripAndAreParamSpace) {
  const ModuleId m = engine_.load_ptx(kForms, "forms.ptx");
  test::DeviceBuffer<uint32_t> out(engine_, 5);
  test::launch_ok(engine_, m, "forms", {1, 1, 1}, {32, 1, 1},
                  {ints_arg({10, 11, 12, 13}), out.arg(), KernelArg::of(uint32_t{0})});
  EXPECT_EQ(out.download(), (std::vector<uint32_t>{12, 13, 11, 1, 0}));
}

TEST_P(ParamAddress, StoreThroughAGenericParameterAddressFaults) {
  const ModuleId m = engine_.load_ptx(kForms, "forms.ptx");
  test::DeviceBuffer<uint32_t> out(engine_, 5);
  const LaunchResult r = engine_.launch(m, "forms", {1, 1, 1}, {32, 1, 1}, 0,
                                        {ints_arg({10, 11, 12, 13}), out.arg(), KernelArg::of(uint32_t{9})});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->message,
            "out-of-bounds access of 4 bytes at param address 0x0 in kernel 'forms', block (0,0,0), thread (0,0,0), "
            "pc 14 (forms.ptx:23)");
}

INSTANTIATE_TEST_SUITE_P(Modes, ParamAddress, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& mode) { return mode.param ? "Timing" : "Functional"; });

}  // namespace
}  // namespace lockstep
