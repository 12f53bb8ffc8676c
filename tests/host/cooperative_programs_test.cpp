// Cooperative launches through an unmodified program (tests/host/programs/grid_sync.cu), built
// for sm_75, sm_80 and sm_90 and run through `lockstep run`: an iterated smoothing filter and a
// two-phase reduction separated by cooperative_groups::this_grid().sync(), launched with
// cudaLaunchCooperativeKernel and with cudaLaunchKernelEx's cooperative attribute on a grid
// sized by the occupancy calculator, and a grid one block too large, which CUDA refuses with
// cudaErrorCooperativeLaunchTooLarge. stdout and the exit code are exact; stderr carries only
// the per-kernel summary.
#include "host/run_lockstep.h"

#ifdef LOCKSTEP_HOST_PROGRAMS

namespace lockstep::test {
namespace {

class CooperativeProgram : public ::testing::TestWithParam<const char*> {};

TEST_P(CooperativeProgram, GridSyncSmoothingAndReductionMatchTheCpu) {
  const ProgramOutcome r = run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/grid_sync_" + GetParam());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "cooperative launch attribute: 1, resident blocks > 0: yes\n"
            "cudaLaunchCooperativeKernel: cudaSuccess, sync cudaSuccess, mismatches 0, total 276084902 "
            "(expected 276084902)\n"
            "cudaLaunchKernelEx (cooperative): cudaSuccess, total 276086922 (expected 276086922)\n"
            "oversized grid: cudaErrorCooperativeLaunchTooLarge, last error cudaErrorCooperativeLaunchTooLarge, "
            "then cudaSuccess\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

INSTANTIATE_TEST_SUITE_P(Arches, CooperativeProgram, ::testing::Values("sm75", "sm80", "sm90"));

}  // namespace
}  // namespace lockstep::test

#endif  // LOCKSTEP_HOST_PROGRAMS
