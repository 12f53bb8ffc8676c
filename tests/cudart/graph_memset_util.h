#pragma once
// Graphs of memset nodes for the graph tests of the stand-in libcudart: what a graph ran shows
// in the bytes it filled, so the tests need no kernel.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

extern "C" cudaError_t cudaGraphNodeGetParams(cudaGraphNode_t node, cudaGraphNodeParams* nodeParams);

namespace lockstep::test {

constexpr size_t kMemsetBytes = 512;

inline cudaGraphNodeParams memset_node_params(void* dst, unsigned value) {
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeMemset;
  p.memset = cudaMemsetParamsV2{dst, 0, value, 1, kMemsetBytes, 1};
  return p;
}

// Adds to `graph` `memsets` memset nodes in a chain, each filling `dst` with `value`; returns the
// last.
inline cudaGraphNode_t add_memsets(cudaGraph_t graph, void* dst, unsigned value, int memsets = 1) {
  cudaGraphNode_t last = nullptr;
  for (int i = 0; i < memsets; ++i) {
    cudaGraphNodeParams p = memset_node_params(dst, value);
    cudaGraphNode_t node = nullptr;
    EXPECT_EQ(cudaGraphAddNode(&node, graph, last == nullptr ? nullptr : &last, nullptr, last == nullptr ? 0 : 1, &p),
              cudaSuccess);
    last = node;
  }
  return last;
}

// A new graph of `memsets` chained memset nodes filling `dst` with `value`.
inline cudaGraph_t memset_graph(void* dst, unsigned value, int memsets = 1) {
  cudaGraph_t graph = nullptr;
  EXPECT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
  add_memsets(graph, dst, value, memsets);
  return graph;
}

// Fills `dst` with `before`, launches `exec` and checks that every byte of `dst` is `value`.
inline void expect_filled(cudaGraphExec_t exec, void* dst, unsigned value, unsigned before = 0) {
  ASSERT_EQ(cudaMemset(dst, static_cast<int>(before), kMemsetBytes), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, nullptr), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  std::vector<uint8_t> out(kMemsetBytes);
  ASSERT_EQ(cudaMemcpy(out.data(), dst, kMemsetBytes, cudaMemcpyDeviceToHost), cudaSuccess);
  int wrong = 0;
  for (uint8_t b : out) wrong += b != value;
  EXPECT_EQ(wrong, 0) << "value " << value;
}

// The number of nodes of `graph`, or -1 when cudaGraphGetNodes refuses the handle.
inline int node_count(cudaGraph_t graph) {
  size_t count = 0;
  return cudaGraphGetNodes(graph, nullptr, &count) == cudaSuccess ? static_cast<int>(count) : -1;
}

}  // namespace lockstep::test
