// The child graph of a child-graph node as a handle: cudaGraphChildGraphNodeGetGraph and
// cudaGraphNodeGetParams hand out the node's own graph, which the program inspects and changes
// in place (later instantiations run the change, earlier ones keep their copy), may not destroy,
// and which goes with the node.
#include <gtest/gtest.h>

#include "cudart/graph_memset_util.h"

namespace lockstep::test {
namespace {

// A parent graph whose one node runs a copy of a graph of `memsets` memset nodes of 0x11.
struct Parent {
  explicit Parent(int memsets = 2) {
    EXPECT_EQ(cudaMalloc(&dst, kMemsetBytes), cudaSuccess);
    child = memset_graph(dst, 0x11, memsets);
    EXPECT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    EXPECT_EQ(cudaGraphAddChildGraphNode(&node, graph, nullptr, 0, child), cudaSuccess);
  }
  ~Parent() {
    cudaGraphDestroy(graph);
    cudaGraphDestroy(child);
    cudaFree(dst);
    cudaGetLastError();
  }
  cudaGraph_t embedded() const {
    cudaGraph_t g = nullptr;
    EXPECT_EQ(cudaGraphChildGraphNodeGetGraph(node, &g), cudaSuccess);
    return g;
  }
  void* dst = nullptr;
  cudaGraph_t child = nullptr, graph = nullptr;
  cudaGraphNode_t node = nullptr;
};

TEST(GraphChildHandle, GetGraphHandsOutTheNodesOwnCopy) {
  Parent p;
  const cudaGraph_t embedded = p.embedded();
  EXPECT_NE(embedded, p.child);  // a copy, taken when the node was added
  EXPECT_EQ(embedded, p.embedded());  // and the same one each time
  ASSERT_EQ(node_count(embedded), 2);
  cudaGraphNode_t nodes[2] = {};
  size_t count = 2;
  ASSERT_EQ(cudaGraphGetNodes(embedded, nodes, &count), cudaSuccess);
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  ASSERT_EQ(cudaGraphNodeGetType(nodes[1], &type), cudaSuccess);
  EXPECT_EQ(type, cudaGraphNodeTypeMemset);
  cudaMemsetParams m{};
  ASSERT_EQ(cudaGraphMemsetNodeGetParams(nodes[1], &m), cudaSuccess);
  EXPECT_EQ(m.dst, p.dst);
  EXPECT_EQ(m.value, 0x11u);
  size_t edges = 0;
  ASSERT_EQ(cudaGraphGetEdges(embedded, nullptr, nullptr, nullptr, &edges), cudaSuccess);
  EXPECT_EQ(edges, 1u);
  // The graph the program named is its own: changing or destroying it leaves the node's alone.
  add_memsets(p.child, p.dst, 0x99);
  EXPECT_EQ(node_count(embedded), 2);
  ASSERT_EQ(cudaGraphDestroy(p.child), cudaSuccess);
  p.child = nullptr;
  EXPECT_EQ(node_count(embedded), 2);
}

TEST(GraphChildHandle, GetParamsNamesTheSameGraph) {
  Parent p;
  cudaGraphNodeParams params{};
  ASSERT_EQ(cudaGraphNodeGetParams(p.node, &params), cudaSuccess);
  EXPECT_EQ(params.type, cudaGraphNodeTypeGraph);
  EXPECT_EQ(params.graph.graph, p.embedded());
  EXPECT_EQ(params.graph.ownership, cudaGraphChildGraphOwnershipClone);
}

TEST(GraphChildHandle, ChangesThroughTheHandleReachLaterInstantiationsOnly) {
  Parent p(1);
  cudaGraphExec_t before = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&before, p.graph, 0), cudaSuccess);
  const cudaGraph_t embedded = p.embedded();
  cudaGraphNode_t node = nullptr;
  size_t count = 1;
  ASSERT_EQ(cudaGraphGetNodes(embedded, &node, &count), cudaSuccess);
  cudaGraphNodeParams set = memset_node_params(p.dst, 0x22);
  ASSERT_EQ(cudaGraphNodeSetParams(node, &set), cudaSuccess);
  cudaGraphExec_t changed = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&changed, p.graph, 0), cudaSuccess);
  cudaGraphNodeParams last = memset_node_params(p.dst, 0x33);
  cudaGraphNode_t after = nullptr;
  ASSERT_EQ(cudaGraphAddNode(&after, embedded, &node, nullptr, 1, &last), cudaSuccess);
  cudaGraphExec_t added = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&added, p.graph, 0), cudaSuccess);
  expect_filled(before, p.dst, 0x11);
  expect_filled(changed, p.dst, 0x22);
  expect_filled(added, p.dst, 0x33);
  for (cudaGraphExec_t e : {before, changed, added}) EXPECT_EQ(cudaGraphExecDestroy(e), cudaSuccess);
}

TEST(GraphChildHandle, TheNodeOwnsTheGraphAndItGoesWithTheParent) {
  Parent p;
  const cudaGraph_t embedded = p.embedded();
  EXPECT_EQ(cudaGraphDestroy(embedded), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(node_count(embedded), 2);  // still there
  ASSERT_EQ(cudaGraphDestroy(p.graph), cudaSuccess);
  p.graph = nullptr;
  EXPECT_EQ(node_count(embedded), -1);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

TEST(GraphChildHandle, NestedChildGraphsAreHandlesToo) {
  Parent inner(1);
  cudaGraph_t outer = nullptr;
  ASSERT_EQ(cudaGraphCreate(&outer, 0), cudaSuccess);
  cudaGraphNode_t outer_node = nullptr;
  ASSERT_EQ(cudaGraphAddChildGraphNode(&outer_node, outer, nullptr, 0, inner.graph), cudaSuccess);
  cudaGraph_t level1 = nullptr, level2 = nullptr;
  ASSERT_EQ(cudaGraphChildGraphNodeGetGraph(outer_node, &level1), cudaSuccess);
  cudaGraphNode_t level1_node = nullptr;
  size_t count = 1;
  ASSERT_EQ(cudaGraphGetNodes(level1, &level1_node, &count), cudaSuccess);
  ASSERT_EQ(cudaGraphChildGraphNodeGetGraph(level1_node, &level2), cudaSuccess);
  EXPECT_NE(level2, inner.embedded());  // the outer node copied the inner graph, child included
  EXPECT_EQ(node_count(level2), 1);
  ASSERT_EQ(cudaGraphDestroy(outer), cudaSuccess);
  EXPECT_EQ(node_count(level1), -1);
  EXPECT_EQ(node_count(level2), -1);
  EXPECT_EQ(node_count(inner.embedded()), 1);
  cudaGetLastError();
}

TEST(GraphChildHandle, SettingAnotherChildRetiresTheOldHandle) {
  Parent p;
  const cudaGraph_t old = p.embedded();
  cudaGraph_t other = memset_graph(p.dst, 0x44, 3);
  cudaGraphNodeParams set{};
  set.type = cudaGraphNodeTypeGraph;
  set.graph.graph = other;
  ASSERT_EQ(cudaGraphNodeSetParams(p.node, &set), cudaSuccess);
  EXPECT_EQ(node_count(old), -1);
  EXPECT_EQ(node_count(p.embedded()), 3);
  EXPECT_NE(p.embedded(), other);
  EXPECT_EQ(cudaGraphDestroy(other), cudaSuccess);
  cudaGetLastError();
}

TEST(GraphChildHandle, GetGraphOfAnotherNodeOrWithoutAnOutputIsInvalidValue) {
  Parent p;
  cudaGraphNode_t memset_node = nullptr;
  size_t count = 1;
  ASSERT_EQ(cudaGraphGetNodes(p.child, &memset_node, &count), cudaSuccess);
  cudaGraph_t g = nullptr;
  EXPECT_EQ(cudaGraphChildGraphNodeGetGraph(memset_node, &g), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphChildGraphNodeGetGraph(p.node, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphChildGraphNodeGetGraph(nullptr, &g), cudaErrorInvalidValue);
  EXPECT_EQ(g, nullptr);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

}  // namespace
}  // namespace lockstep::test
