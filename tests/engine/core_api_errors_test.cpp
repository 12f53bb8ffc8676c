// Errors of the Engine API: bad launches and bad frees throw std::invalid_argument with exact
// text, and leave the engine usable.
#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/harness.h"

namespace lockstep {
namespace {

constexpr const char* kKernel = R"(.version 9.0
.target sm_80
.address_size 64

.visible .entry store(.param .u64 out, .param .u32 value)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [value];
  st.global.u32 [%rd1], %r1;
  ret;
}
)";

// The message of the std::invalid_argument that `f` throws, or "" when it throws nothing.
template <class F>
std::string invalid_argument_text(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

class CoreApiErrors : public ::testing::Test {
 protected:
  Engine engine_;
  ModuleId m_ = engine_.load_ptx(kKernel, "store.ptx");
};

TEST_F(CoreApiErrors, WrongArgumentCount) {
  test::DeviceBuffer<uint32_t> out(engine_, 1);
  EXPECT_EQ(invalid_argument_text([&] { engine_.launch(m_, "store", {1, 1, 1}, {1, 1, 1}, 0, {out.arg()}); }),
            "kernel 'store' takes 2 arguments, got 1");
  EXPECT_EQ(invalid_argument_text([&] {
              engine_.launch(m_, "store", {1, 1, 1}, {1, 1, 1}, 0,
                             {out.arg(), test::arg<uint32_t>(1), test::arg<uint32_t>(2)});
            }),
            "kernel 'store' takes 2 arguments, got 3");
}

TEST_F(CoreApiErrors, WrongArgumentSize) {
  test::DeviceBuffer<uint32_t> out(engine_, 1);
  EXPECT_EQ(invalid_argument_text([&] {
              engine_.launch(m_, "store", {1, 1, 1}, {1, 1, 1}, 0, {out.arg(), test::arg<uint64_t>(1)});
            }),
            "argument 1 of kernel 'store' has 8 bytes; the parameter has 4");
  EXPECT_EQ(invalid_argument_text([&] {
              engine_.launch(m_, "store", {1, 1, 1}, {1, 1, 1}, 0,
                             {test::arg<uint32_t>(0), test::arg<uint32_t>(1)});
            }),
            "argument 0 of kernel 'store' has 4 bytes; the parameter has 8");
}

TEST_F(CoreApiErrors, FreeOfAnUnknownAddress) {
  EXPECT_EQ(invalid_argument_text([&] { engine_.free(0x1234); }),
            "free of 0x1234, which is not an allocation");
  const uint64_t a = engine_.malloc(64);
  EXPECT_EQ(invalid_argument_text([&] { engine_.free(a + 4); }),
            "free of 0x" + [&] {
              char buf[32];
              std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(a + 4));
              return std::string(buf);
            }() + ", which is not an allocation");
  engine_.free(a);
  EXPECT_THROW(engine_.free(a), std::invalid_argument);  // a second free
}

TEST_F(CoreApiErrors, BlockLargerThan1024Threads) {
  test::DeviceBuffer<uint32_t> out(engine_, 1);
  const std::vector<KernelArg> args{out.arg(), test::arg<uint32_t>(5)};
  EXPECT_EQ(invalid_argument_text([&] { engine_.launch(m_, "store", {1, 1, 1}, {1025, 1, 1}, 0, args); }),
            "block of 1025 threads exceeds 1024");
  EXPECT_EQ(invalid_argument_text([&] { engine_.launch(m_, "store", {1, 1, 1}, {32, 16, 4}, 0, args); }),
            "block of 2048 threads exceeds 1024");
  EXPECT_EQ(invalid_argument_text([&] { engine_.launch(m_, "store", {1, 0, 1}, {1, 1, 1}, 0, args); }),
            "grid and block dimensions must be at least 1");
  // 1024 is allowed, and the engine still works after the rejected launches.
  test::launch_ok(engine_, m_, "store", {1, 1, 1}, {32, 32, 1}, args);
  EXPECT_EQ(out.download(), std::vector<uint32_t>{5});
}

TEST_F(CoreApiErrors, UnknownKernelName) {
  EXPECT_EQ(invalid_argument_text([&] { engine_.launch(m_, "stor", {1, 1, 1}, {1, 1, 1}, 0, {}); }),
            "no kernel named 'stor' in store.ptx");
  EXPECT_EQ(invalid_argument_text([&] { engine_.kernel_info(m_, "nope"); }),
            "no kernel named 'nope' in store.ptx");
  EXPECT_EQ(invalid_argument_text([&] { engine_.launch(ModuleId{7}, "store", {1, 1, 1}, {1, 1, 1}, 0, {}); }),
            "unknown module");
}

TEST(CoreApiErrorsOptions, WarpSizeMustBeAPowerOfTwoUpTo64) {
  EngineOptions options;
  options.warp_size = 24;
  EXPECT_EQ(invalid_argument_text([&] { Engine e(options); }),
            "warp_size must be 1, 2, 4, 8, 16, 32 or 64, got 24");
  options.warp_size = 128;
  EXPECT_THROW(Engine e(options), std::invalid_argument);
}

}  // namespace
}  // namespace lockstep
