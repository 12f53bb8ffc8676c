// Child-graph nodes changed through the generic API: cudaGraphNodeSetParams gives the node a
// copy of another graph, cudaGraphExecNodeSetParams (through
// cudaGraphExecChildGraphNodeSetParams) gives an executable graph's copy another graph's
// parameters when its topology matches, and refuses one that does not.
#include <gtest/gtest.h>

#include "cudart/graph_memset_util.h"

namespace lockstep::test {
namespace {

cudaGraphNodeParams child_params(cudaGraph_t child) {
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeGraph;
  p.graph.graph = child;
  return p;
}

struct ParentGraph {
  ParentGraph() {
    EXPECT_EQ(cudaMalloc(&dst, kMemsetBytes), cudaSuccess);
    first = memset_graph(dst, 0x11);
    EXPECT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaGraphNodeParams p = child_params(first);
    EXPECT_EQ(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p), cudaSuccess);
  }
  ~ParentGraph() {
    cudaGraphDestroy(graph);
    cudaGraphDestroy(first);
    cudaFree(dst);
  }
  void* dst = nullptr;
  cudaGraph_t first = nullptr, graph = nullptr;
  cudaGraphNode_t node = nullptr;
};

TEST(GraphChildParams, SetGivesTheNodeACopyOfTheNewChild) {
  ParentGraph g;
  cudaGraph_t second = memset_graph(g.dst, 0x22);
  cudaGraphNodeParams p = child_params(second);
  ASSERT_EQ(cudaGraphNodeSetParams(g.node, &p), cudaSuccess);
  ASSERT_EQ(cudaGraphDestroy(second), cudaSuccess);  // the node holds its own copy
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g.graph, 0), cudaSuccess);
  expect_filled(exec, g.dst, 0x22);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

TEST(GraphChildParams, ExecSetTakesTheParametersOfAChildOfTheSameTopology) {
  ParentGraph g;
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g.graph, 0), cudaSuccess);
  expect_filled(exec, g.dst, 0x11);
  cudaGraph_t second = memset_graph(g.dst, 0x33);
  cudaGraphNodeParams p = child_params(second);
  ASSERT_EQ(cudaGraphExecNodeSetParams(exec, g.node, &p), cudaSuccess);
  expect_filled(exec, g.dst, 0x33);
  // The graph's node keeps its child: a new instantiation runs the first one.
  cudaGraphExec_t fresh = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&fresh, g.graph, 0), cudaSuccess);
  expect_filled(fresh, g.dst, 0x11);
  EXPECT_EQ(cudaGraphExecDestroy(fresh), cudaSuccess);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(second), cudaSuccess);
}

TEST(GraphChildParams, AnotherTopologyOrTheParentItselfIsInvalidValue) {
  ParentGraph g;
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g.graph, 0), cudaSuccess);
  cudaGraph_t longer = memset_graph(g.dst, 0x44, 2);
  cudaGraphNodeParams p = child_params(longer);
  EXPECT_EQ(cudaGraphExecNodeSetParams(exec, g.node, &p), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphExecChildGraphNodeSetParams(exec, g.node, longer), cudaErrorInvalidValue);
  cudaGraphNodeParams self = child_params(g.graph);
  EXPECT_EQ(cudaGraphNodeSetParams(g.node, &self), cudaErrorInvalidValue);
  cudaGraphNodeParams none = child_params(nullptr);
  EXPECT_EQ(cudaGraphNodeSetParams(g.node, &none), cudaErrorInvalidValue);
  expect_filled(exec, g.dst, 0x11);  // nothing changed
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(longer), cudaSuccess);
}

}  // namespace
}  // namespace lockstep::test
