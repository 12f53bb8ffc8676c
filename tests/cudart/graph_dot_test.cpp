// cudaGraphDebugDotPrint through the stand-in libcudart's C entry points: the file holds the
// graph as DOT text, each node labelled with what it does, edges in order, a child graph as a
// cluster inside its node; bad arguments give CUDA's error codes.
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "cudart/scale_kernel.h"

namespace lockstep::test {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(GraphDot, PrintsNodesEdgesAndChildGraphs) {
  register_scale();
  float* x = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&x), 256 * sizeof(float)), cudaSuccess);
  cudaGraph_t graph, child;
  ASSERT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphCreate(&child, 0), cudaSuccess);
  cudaGraphNode_t memset, kernel, empty, nested, inner;
  cudaMemsetParams m{x, 0, std::bit_cast<unsigned>(1.5f), 4, 256, 1};
  ASSERT_EQ(cudaGraphAddMemsetNode(&memset, graph, nullptr, 0, &m), cudaSuccess);
  float a = 2.0f;
  int n = 256;
  void* args[] = {&x, &a, &n};
  cudaKernelNodeParams k{};
  k.func = const_cast<char*>(&kScaleStub);
  k.gridDim = dim3(2);
  k.blockDim = dim3(128);
  k.kernelParams = args;
  ASSERT_EQ(cudaGraphAddKernelNode(&kernel, graph, &memset, 1, &k), cudaSuccess);
  ASSERT_EQ(cudaGraphAddEmptyNode(&inner, child, nullptr, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphAddChildGraphNode(&nested, graph, &kernel, 1, child), cudaSuccess);
  ASSERT_EQ(cudaGraphAddEmptyNode(&empty, graph, &memset, 1), cudaSuccess);

  const std::string path = ::testing::TempDir() + "lockstep_graph_dot_test.dot";
  ASSERT_EQ(cudaGraphDebugDotPrint(graph, path.c_str(), cudaGraphDebugDotFlagsVerbose), cudaSuccess);
  EXPECT_EQ(read_file(path),
            "digraph cuda_graph {\n"
            "  n0 [shape=box, label=\"0: memset 256 x 1 of 4 bytes, value 0x3fc00000\"];\n"
            "  n1 [shape=box, label=\"1: kernel _Z5scalePffi grid (2,1,1) block (128,1,1) shared 0\"];\n"
            "  n2 [shape=box, label=\"2: child graph\"];\n"
            "  subgraph cluster_n2_0 {\n"
            "    label=\"child graph of 2\";\n"
            "    n2_0_0 [shape=box, label=\"0: empty\"];\n"
            "  }\n"
            "  n3 [shape=box, label=\"3: empty\"];\n"
            "  n0 -> n1;\n"
            "  n1 -> n2;\n"
            "  n0 -> n3;\n"
            "}\n");
  std::remove(path.c_str());

  EXPECT_EQ(cudaGraphDebugDotPrint(graph, nullptr, 0), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphDebugDotPrint(nullptr, path.c_str(), 0), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphDebugDotPrint(graph, "/nonexistent-directory/graph.dot", 0), cudaErrorOperatingSystem);
  cudaGetLastError();
  cudaGraphDestroy(child);
  cudaGraphDestroy(graph);
  cudaFree(x);
}

}  // namespace
}  // namespace lockstep::test
