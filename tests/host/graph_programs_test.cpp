// CUDA graphs through an unmodified program (tests/host/programs/cuda_graphs.cu), built for
// sm_75, sm_80 and sm_90 and run through `lockstep run`: a solver step captured from two
// streams (fork and join through events, a host function) launched 30 times, and an explicitly
// built fork/join graph relaunched after cudaGraphExecKernelNodeSetParams. stdout and the exit
// code are exact; stderr carries only the per-kernel summary.
#include "host/run_lockstep.h"

#ifdef LOCKSTEP_HOST_PROGRAMS

namespace lockstep::test {
namespace {

class GraphProgram : public ::testing::TestWithParam<const char*> {};

TEST_P(GraphProgram, CapturedAndExplicitGraphsMatchTheCpu) {
  const ProgramOutcome r =
      run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/cuda_graphs_" + GetParam());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "captured: active during=yes, after=none; 7 nodes, 7 edges, 1 root; nothing ran: yes\n"
            "solver: 30 launches, residual 2.665422e+01 -> 2.656398e+01, last update 2.847770e-06, 0 mismatches\n"
            "explicit: 6 nodes, 6 edges, 1 root, combine is a kernel node: yes\n"
            "run 1 (k=1): sum -360640, weighted -17230500 (expected -360640, -17230500)\n"
            "run 2 (k=2): sum -340460, weighted -16256955 (expected -340460, -16256955)\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

// Conditional nodes: while (its condition reset at every launch), if/else and switch, set from
// device code by cudaGraphSetConditional.
TEST_P(GraphProgram, ConditionalNodesFollowTheDevicesChoice) {
  const ProgramOutcome r =
      run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/graph_conditionals_" + GetParam());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "launch 0: counter 5 total 5, if 10, switch 102\n"
            "launch 1: counter 5 total 10, if 20, switch 100\n"
            "launch 2: counter 5 total 15, if 20, switch -1\n"
            "handle cudaSuccess, type 13, instantiate cudaSuccess, bad flags cudaErrorInvalidValue\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

INSTANTIATE_TEST_SUITE_P(Arches, GraphProgram, ::testing::Values("sm75", "sm80", "sm90"));

}  // namespace
}  // namespace lockstep::test

#endif
