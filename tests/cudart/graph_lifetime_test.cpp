// Graphs destroyed while their executable graphs live, and captures ended without asking for
// the graph, as NVIDIA's samples do: a graph made later at the freed graph's address is a new
// graph (graphMemoryNodes destroys each graph after instantiating it, then instantiates the next
// one with memory nodes), and a capture into the program's own graph may end with a null pGraph.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

namespace lockstep::test {
namespace {

cudaMemAllocNodeParams alloc_params(size_t bytes) {
  cudaMemAllocNodeParams p{};
  p.bytesize = bytes;
  p.poolProps.allocType = cudaMemAllocationTypePinned;
  p.poolProps.location.type = cudaMemLocationTypeDevice;
  p.poolProps.location.id = 0;
  return p;
}

TEST(GraphLifetime, GraphsWithMemoryNodesInstantiateAfterTheirPredecessorsAreDestroyed) {
  std::vector<cudaGraphExec_t> execs;
  for (int i = 0; i < 4; ++i) {
    cudaGraph_t g;
    ASSERT_EQ(cudaGraphCreate(&g, 0), cudaSuccess);
    cudaMemAllocNodeParams a = alloc_params(1 << 20);
    cudaGraphNode_t alloc, free_node;
    ASSERT_EQ(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &a), cudaSuccess);
    ASSERT_EQ(cudaGraphAddMemFreeNode(&free_node, g, &alloc, 1, a.dptr), cudaSuccess);
    cudaGraphExec_t exec;
    EXPECT_EQ(cudaGraphInstantiate(&exec, g, 0), cudaSuccess) << "graph " << i;
    execs.push_back(exec);
    ASSERT_EQ(cudaGraphDestroy(g), cudaSuccess);
  }
  for (cudaGraphExec_t e : execs) {
    EXPECT_EQ(cudaGraphLaunch(e, nullptr), cudaSuccess);
    EXPECT_EQ(cudaGraphExecDestroy(e), cudaSuccess);
  }
  EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
}

TEST(GraphLifetime, ACaptureIntoTheProgramsGraphEndsWithoutAskingForIt) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  cudaGraph_t g;
  ASSERT_EQ(cudaGraphCreate(&g, 0), cudaSuccess);
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 256), cudaSuccess);
  ASSERT_EQ(cudaStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(p, 1, 256, s), cudaSuccess);
  EXPECT_EQ(cudaStreamEndCapture(s, nullptr), cudaSuccess);
  cudaStreamCaptureStatus status;
  EXPECT_EQ(cudaStreamIsCapturing(s, &status), cudaSuccess);
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  size_t count = 0;
  EXPECT_EQ(cudaGraphGetNodes(g, nullptr, &count), cudaSuccess);
  EXPECT_EQ(count, 1u);
  cudaGraphDestroy(g);
  cudaFree(p);
  cudaStreamDestroy(s);
}

}  // namespace
}  // namespace lockstep::test
