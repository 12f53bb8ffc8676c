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

// Graph memory nodes: allocation and free nodes built explicitly and captured from
// cudaMallocAsync / cudaFreeAsync; an allocation that outlives its launch blocks a relaunch
// until cudaFree, unless the graph frees it itself on relaunch (AutoFreeOnLaunch).
TEST_P(GraphProgram, MemoryNodesAllocateAndFreeAtLaunch) {
  const ProgramOutcome r =
      run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/graph_memory_nodes_" + GetParam());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "explicit: address given: yes, types 10 11, params 4000 bytes at the same address: yes, free node: yes\n"
            "explicit run 1: 0 mismatches, graph memory in use 0\n"
            "explicit run 2: 0 mismatches, graph memory in use 0\n"
            "explicit: clone cudaErrorInvalidValue, second instantiation cudaErrorInvalidValue, child graph "
            "cudaErrorInvalidValue\n"
            "captured: address at once: yes, 4 nodes, first type 10, last type 11\n"
            "captured run 1: 0 mismatches\n"
            "captured run 2: 0 mismatches\n"
            "captured run 3: 0 mismatches\n"
            "unfreed: after launch 0 mismatches, in use 4000\n"
            "unfreed: relaunch before cudaFree cudaErrorInvalidValue (last error cudaErrorInvalidValue)\n"
            "unfreed: after cudaFree in use 0\n"
            "unfreed: relaunch after cudaFree 0 mismatches, same address\n"
            "auto-free: 3 launches, 0 mismatches, in use 4000, high 4000\n"
            "auto-free: after cudaFree and trim, reserved 0\n"
            "generic nodes: 0 mismatches; from a pool: 0 mismatches\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

// Editing a graph: nodes captured into a graph built explicitly, after one of its nodes
// (cudaStreamBeginCaptureToGraph), then that node destroyed (cudaGraphDestroyNode) and its
// neighbours linked again; the executable made before the edit is unaffected. The same output
// as CUDA 13.0 on an H200.
TEST_P(GraphProgram, CaptureIntoAGraphThenDestroyANode) {
  const ProgramOutcome r =
      run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/graph_edit_capture_" + GetParam());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "capture: begin cudaSuccess, end cudaSuccess, same graph: yes; 4 nodes, 3 edges, 1 root\n"
            "with scale: 0 mismatches\n"
            "destroy: cudaSuccess; 3 nodes, 1 edges, 2 roots\n"
            "without scale: 0 mismatches; the earlier executable still scales: 0 mismatches\n"
            "legacy stream: cudaErrorStreamCaptureUnsupported\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

// A kernel node made cooperative by its attribute (its grid.sync() holds; without the attribute
// the kernel traps), memcpy nodes from a __device__ symbol (in the graph and in the executable
// graph), a node disabled and enabled again, cudaGraphNodeFindInClone, a captured cooperative
// launch keeping its attribute, and a user object destroyed when the program's reference (moved
// to the graph), the graph, its clone and the executable graph are all gone. Both modes.
class GraphNodeState : public ::testing::TestWithParam<const char*> {};

TEST_P(GraphNodeState, AttributesEnabledClonesSymbolsAndUserObjects) {
  const ProgramOutcome r =
      run_lockstep(std::string(LOCKSTEP_HOST_PROGRAMS) + "/graph_node_state", {"--mode", GetParam()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "cooperative before: cudaSuccess 0\n"
            "set: cudaSuccess, cooperative now 1, cluster 1x1x1, stream-only attribute: cudaErrorInvalidValue\n"
            "from symbol: cudaSuccess, past its end: cudaErrorInvalidValue\n"
            "cooperative node: 0 mismatches; symbol copy: 0 mismatches; cudaSuccess\n"
            "enabled 1, disable cudaSuccess, then 0: 0 mismatches; enabled again: 0 mismatches\n"
            "exec node from the symbol's second half: cudaSuccess, 0 mismatches\n"
            "find in clone: cudaSuccess, kernel node yes, a new handle yes, cooperative 1; another graph's node: "
            "cudaErrorInvalidValue\n"
            "captured cooperative launch: 1 node, cooperative 1, 0 mismatches\n"
            "user object destroyed: 0 after the graph, 0 after its clone, 1 after the executable graph\n"
            "program references: 0 with one left, 1 with none; bad flags: cudaErrorInvalidValue\n"
            "PASSED\n");
  expect_only_kernel_summaries(r.err);
}

INSTANTIATE_TEST_SUITE_P(Modes, GraphNodeState, ::testing::Values("functional", "timing"));

INSTANTIATE_TEST_SUITE_P(Arches, GraphProgram, ::testing::Values("sm75", "sm80", "sm90"));

}  // namespace
}  // namespace lockstep::test

#endif
