// cudaStreamUpdateCaptureDependencies, as NVIDIA's graphConditionalNodes uses it: the next node a
// stream captures depends on the nodes the program names instead of (set) or besides (add) the
// stream's last one. Nodes outside the capture's graph are refused, and a stream that does not
// capture is in the wrong state.
#include <gtest/gtest.h>

#include <vector>

#include <cuda_runtime_api.h>

namespace lockstep::test {
namespace {

std::vector<cudaGraphNode_t> dependencies_of(cudaGraphNode_t node) {
  size_t count = 0;
  EXPECT_EQ(cudaGraphNodeGetDependencies(node, nullptr, nullptr, &count), cudaSuccess);
  std::vector<cudaGraphNode_t> out(count);
  if (count != 0) {
    EXPECT_EQ(cudaGraphNodeGetDependencies(node, out.data(), nullptr, &count), cudaSuccess);
  }
  return out;
}

// The node the stream's last capture added.
cudaGraphNode_t last_node(cudaStream_t s) {
  cudaStreamCaptureStatus status;
  const cudaGraphNode_t* deps = nullptr;
  size_t count = 0;
  EXPECT_EQ(cudaStreamGetCaptureInfo(s, &status, nullptr, nullptr, &deps, nullptr, &count), cudaSuccess);
  EXPECT_EQ(count, 1u);
  return count == 1 ? deps[0] : nullptr;
}

TEST(CaptureDependencies, SetAndAddChangeWhatTheNextNodeDependsOn) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 64), cudaSuccess);
  EXPECT_EQ(cudaStreamUpdateCaptureDependencies(s, nullptr, nullptr, 0, cudaStreamSetCaptureDependencies),
            cudaErrorIllegalState);
  ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(p, 1, 64, s), cudaSuccess);
  cudaGraphNode_t a = last_node(s);
  ASSERT_EQ(cudaMemsetAsync(p, 2, 64, s), cudaSuccess);
  cudaGraphNode_t b = last_node(s);
  ASSERT_EQ(cudaStreamUpdateCaptureDependencies(s, &a, nullptr, 1, cudaStreamSetCaptureDependencies), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(p, 3, 64, s), cudaSuccess);
  cudaGraphNode_t c = last_node(s);
  ASSERT_EQ(cudaStreamUpdateCaptureDependencies(s, &b, nullptr, 1, cudaStreamAddCaptureDependencies), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(p, 4, 64, s), cudaSuccess);
  cudaGraphNode_t d = last_node(s);
  EXPECT_EQ(dependencies_of(c), std::vector<cudaGraphNode_t>{a});
  EXPECT_EQ(dependencies_of(d), (std::vector<cudaGraphNode_t>{c, b}));

  cudaGraph_t other;
  ASSERT_EQ(cudaGraphCreate(&other, 0), cudaSuccess);
  cudaGraphNode_t outside;
  ASSERT_EQ(cudaGraphAddEmptyNode(&outside, other, nullptr, 0), cudaSuccess);
  EXPECT_EQ(cudaStreamUpdateCaptureDependencies(s, &outside, nullptr, 1, cudaStreamSetCaptureDependencies),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaStreamUpdateCaptureDependencies(s, &a, nullptr, 1, 7), cudaErrorInvalidValue);
  cudaGraph_t g;
  ASSERT_EQ(cudaStreamEndCapture(s, &g), cudaSuccess);
  cudaGetLastError();
  cudaGraphDestroy(g);
  cudaGraphDestroy(other);
  cudaFree(p);
  cudaStreamDestroy(s);
}

}  // namespace
}  // namespace lockstep::test
