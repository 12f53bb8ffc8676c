// 34_fault_oob: the memory checker. One thread writes 400 KB past the end of the only buffer,
// or reads a 4-byte word at an address 2 bytes off alignment; the launch ends with a
// FaultReport naming the kind, kernel, block, thread, address, size and space exactly, at
// every warp size. The Engine keeps working afterwards.
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class FaultOob : public KernelProgramTest {};

constexpr int kN = 300;
constexpr uint32_t kBlock = 128;
constexpr int kBadThread = 137;   // block 1, thread 9

TEST_P(FaultOob, OutOfBoundsWrite) {
  ModuleId m = load("34_fault_oob");
  DeviceBuffer<int> buf(engine_, kN);
  const int bad_index = kN + 100000;
  LaunchResult r = engine_.launch(m, "oob_write", {blocks_for(kN, kBlock)}, {kBlock}, 0,
                                  {buf.arg(), arg(kN), arg(kBadThread), arg(bad_index)});
  ASSERT_TRUE(r.fault.has_value());
  const FaultReport& f = *r.fault;
  EXPECT_EQ(f.kind, "out-of-bounds access");
  EXPECT_EQ(f.kernel, "oob_write");
  EXPECT_EQ(f.block.x, 1u);
  EXPECT_EQ(f.block.y, 0u);
  EXPECT_EQ(f.block.z, 0u);
  EXPECT_EQ(f.thread.x, 9u);
  EXPECT_EQ(f.thread.y, 0u);
  EXPECT_EQ(f.thread.z, 0u);
  EXPECT_EQ(f.address, buf.address() + 4ull * bad_index);
  EXPECT_EQ(f.size, 4u);
  EXPECT_EQ(f.space, "global");
  EXPECT_NE(f.message.find("oob_write"), std::string::npos) << f.message;

  // Nothing else is broken: a clean run of the same kernel fills the buffer.
  launch_ok(engine_, m, "oob_write", {blocks_for(kN, kBlock)}, {kBlock}, {buf.arg(), arg(kN), arg(-1), arg(0)});
  std::vector<int> expected(kN);
  for (int i = 0; i < kN; ++i) expected[i] = i;
  EXPECT_TRUE(same_bits(buf.download(), expected));
}

TEST_P(FaultOob, MisalignedRead) {
  ModuleId m = load("34_fault_oob");
  constexpr int kBad = 200;   // block 1, thread 72
  std::vector<uint8_t> bytes(4 * kN + 8);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7);
  DeviceBuffer<uint8_t> dbytes(engine_, bytes);
  DeviceBuffer<int> out(engine_, kN);
  LaunchResult r = engine_.launch(m, "misaligned_read", {blocks_for(kN, kBlock)}, {kBlock}, 0,
                                  {dbytes.arg(), out.arg(), arg(kN), arg(kBad)});
  ASSERT_TRUE(r.fault.has_value());
  const FaultReport& f = *r.fault;
  EXPECT_EQ(f.kind, "misaligned access");
  EXPECT_EQ(f.kernel, "misaligned_read");
  EXPECT_EQ(f.block.x, 1u);
  EXPECT_EQ(f.block.y, 0u);
  EXPECT_EQ(f.block.z, 0u);
  EXPECT_EQ(f.thread.x, 72u);
  EXPECT_EQ(f.thread.y, 0u);
  EXPECT_EQ(f.thread.z, 0u);
  EXPECT_EQ(f.address, dbytes.address() + 4ull * kBad + 2);
  EXPECT_EQ(f.size, 4u);
  EXPECT_EQ(f.space, "global");
  EXPECT_NE(f.message.find("misaligned_read"), std::string::npos) << f.message;

  launch_ok(engine_, m, "misaligned_read", {blocks_for(kN, kBlock)}, {kBlock},
            {dbytes.arg(), out.arg(), arg(kN), arg(-1)});
  std::vector<int> expected(kN);
  std::memcpy(expected.data(), bytes.data(), 4 * kN);
  EXPECT_TRUE(same_bits(out.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, FaultOob, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
