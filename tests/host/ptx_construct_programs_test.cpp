// Issue 11's PTX constructs through unmodified programs (tests/host/programs): kernel-parameter
// addresses (param_address.cu), cooperative-groups tiles of 64 and 128 threads, which keep
// their state in the block's reserved shared memory (tiled_partition.cu), each for sm_75, sm_80
// and sm_90 in functional mode and for sm_90 in timing mode (a kernel lockstep cannot lower fails
// alone: run_reports_test). stdout and the exit code are exact.
#include "host/run_lockstep.h"

#ifdef LOCKSTEP_HOST_PROGRAMS

namespace lockstep::test {
namespace {

constexpr const char* kParamAddressOut =
    "pick: cudaSuccess, wrong 0\nsum_big (32000-byte parameter): cudaSuccess, wrong 0\nPASSED\n";
constexpr const char* kTiledPartitionOut = "tiled_partition<64>: wrong 0\ntiled_partition<128>: wrong 0\nPASSED\n";

class PtxConstructProgram : public ::testing::TestWithParam<const char*> {
 protected:
  std::string program(const std::string& name) const { return host_program(name + "_" + GetParam()); }
};

TEST_P(PtxConstructProgram, KernelParameterAddresses) {
  const ProgramOutcome r = run_lockstep(program("param_address"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kParamAddressOut);
  expect_only_kernel_summaries(r.err);
}

TEST_P(PtxConstructProgram, TilesWiderThanAWarp) {
  const ProgramOutcome r = run_lockstep(program("tiled_partition"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kTiledPartitionOut);
  expect_only_kernel_summaries(r.err);
}

INSTANTIATE_TEST_SUITE_P(Arches, PtxConstructProgram, ::testing::Values("sm75", "sm80", "sm90"));

TEST(PtxConstructTiming, KernelParameterAddresses) {
  const ProgramOutcome r = run_lockstep(host_program("param_address_sm90"), {"--mode", "timing"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kParamAddressOut);
  expect_only_kernel_summaries(r.err);
}

TEST(PtxConstructTiming, TilesWiderThanAWarp) {
  const ProgramOutcome r = run_lockstep(host_program("tiled_partition_sm90"), {"--mode", "timing"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kTiledPartitionOut);
  expect_only_kernel_summaries(r.err);
}

}  // namespace
}  // namespace lockstep::test

#endif
