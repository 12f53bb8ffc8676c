// cudaGraphDestroyNode: the node leaves its graph with every edge into and out of it, and the
// graphs it holds (child graph, conditional bodies) go with it; executable graphs made before
// keep running it, and their other nodes are still reached through the graph's handles. A node
// of a graph with memory nodes cannot be destroyed (cudaErrorInvalidValue), nor one holding a
// graph a stream captures into (cudaErrorIllegalState, graph_capture_to_graph_test.cpp). A
// destroyed handle is refused here; on CUDA using it is undefined (CUDA 13 crashes).
#include <gtest/gtest.h>

#include "cudart/graph_stream_fixture.h"

namespace lockstep::test {
namespace {

// A chain of memsets of 0x11, 0x22 and 0x33 over the same bytes: the last one run shows.
struct Chain : GraphAndStream {
  Chain() {
    for (int i = 0; i < 3; ++i) nodes[i] = add_memsets(graph, dst, 0x11u * (i + 1));
    // add_memsets chains within one call only: link the three.
    EXPECT_EQ(cudaGraphAddDependencies(graph, nodes, nodes + 1, nullptr, 2), cudaSuccess);
  }
  cudaGraphNode_t nodes[3] = {};
};

size_t dependency_count(cudaGraphNode_t node) {
  size_t count = 0;
  EXPECT_EQ(cudaGraphNodeGetDependencies(node, nullptr, nullptr, &count), cudaSuccess);
  return count;
}

size_t dependent_count(cudaGraphNode_t node) {
  size_t count = 0;
  EXPECT_EQ(cudaGraphNodeGetDependentNodes(node, nullptr, nullptr, &count), cudaSuccess);
  return count;
}

TEST(GraphDestroyNode, TheNodeAndItsEdgesLeaveTheGraph) {
  Chain c;
  ASSERT_EQ(c.edges(), 2u);
  ASSERT_EQ(cudaGraphDestroyNode(c.nodes[1]), cudaSuccess);
  EXPECT_EQ(node_count(c.graph), 2);
  EXPECT_EQ(c.edges(), 0u);
  EXPECT_EQ(dependent_count(c.nodes[0]), 0u);
  EXPECT_EQ(dependency_count(c.nodes[2]), 0u);
  cudaGraphNode_t left[3] = {};
  size_t count = 3;
  ASSERT_EQ(cudaGraphGetNodes(c.graph, left, &count), cudaSuccess);
  ASSERT_EQ(count, 2u);
  EXPECT_EQ(left[0], c.nodes[0]);
  EXPECT_EQ(left[1], c.nodes[2]);
  size_t roots = 0;
  ASSERT_EQ(cudaGraphGetRootNodes(c.graph, nullptr, &roots), cudaSuccess);
  EXPECT_EQ(roots, 2u);
  // The handle is gone: every use of it is refused.
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  EXPECT_EQ(cudaGraphNodeGetType(c.nodes[1], &type), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphDestroyNode(c.nodes[1]), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphAddDependencies(c.graph, c.nodes, c.nodes + 1, nullptr, 1), cudaErrorInvalidValue);
  // The rest can be linked again and launched; the last memset still wins.
  ASSERT_EQ(cudaGraphAddDependencies(c.graph, c.nodes, c.nodes + 2, nullptr, 1), cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, c.graph, 0), cudaSuccess);
  expect_filled(exec, c.dst, 0x33);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

TEST(GraphDestroyNode, AnUnknownNodeIsInvalid) {
  EXPECT_EQ(cudaGraphDestroyNode(nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  int not_a_node = 0;
  EXPECT_EQ(cudaGraphDestroyNode(reinterpret_cast<cudaGraphNode_t>(&not_a_node)), cudaErrorInvalidValue);
  Chain c;
  ASSERT_EQ(cudaGraphDestroy(c.graph), cudaSuccess);  // its nodes go with it
  const cudaGraphNode_t first = c.nodes[0];
  c.graph = nullptr;
  EXPECT_EQ(cudaGraphDestroyNode(first), cudaErrorInvalidValue);
  cudaGetLastError();
}

TEST(GraphDestroyNode, ExecutableGraphsMadeBeforeAreUnaffected) {
  Chain c;
  cudaGraphExec_t before = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&before, c.graph, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphDestroyNode(c.nodes[2]), cudaSuccess);
  cudaGraphExec_t after = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&after, c.graph, 0), cudaSuccess);
  expect_filled(before, c.dst, 0x33);
  expect_filled(after, c.dst, 0x22);
  // cudaGraphExecUpdate sees another topology: fewer nodes, so no node to name.
  cudaGraphExecUpdateResultInfo info{};
  EXPECT_EQ(cudaGraphExecUpdate(before, c.graph, &info), cudaErrorGraphExecUpdateFailure);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(info.errorNode, nullptr);
  EXPECT_EQ(info.errorFromNode, nullptr);
  cudaGetLastError();
  EXPECT_EQ(cudaGraphExecDestroy(before), cudaSuccess);
  EXPECT_EQ(cudaGraphExecDestroy(after), cudaSuccess);
}

TEST(GraphDestroyNode, AnEarlierExecutableStillFindsTheNodesAfterTheDestroyedOne) {
  Chain c;
  cudaGraphExec_t before = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&before, c.graph, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphDestroyNode(c.nodes[0]), cudaSuccess);
  // nodes[2] is now the graph's second node; in `before` it is still the third.
  cudaMemsetParams m{c.dst, 0, 0x44, 1, kMemsetBytes, 1};
  ASSERT_EQ(cudaGraphExecMemsetNodeSetParams(before, c.nodes[2], &m), cudaSuccess);
  expect_filled(before, c.dst, 0x44);
  EXPECT_EQ(cudaGraphExecMemsetNodeSetParams(before, c.nodes[0], &m), cudaErrorInvalidValue);
  cudaGetLastError();
  EXPECT_EQ(cudaGraphExecDestroy(before), cudaSuccess);
}

TEST(GraphDestroyNode, AChildGraphNodeTakesItsGraphAlong) {
  void* dst = nullptr;
  ASSERT_EQ(cudaMalloc(&dst, kMemsetBytes), cudaSuccess);
  const cudaGraph_t child = memset_graph(dst, 0x11, 2);
  cudaGraph_t parent = nullptr;
  ASSERT_EQ(cudaGraphCreate(&parent, 0), cudaSuccess);
  cudaGraphNode_t node = nullptr;
  ASSERT_EQ(cudaGraphAddChildGraphNode(&node, parent, nullptr, 0, child), cudaSuccess);
  cudaGraph_t embedded = nullptr;
  ASSERT_EQ(cudaGraphChildGraphNodeGetGraph(node, &embedded), cudaSuccess);
  // A node of the embedded graph can be destroyed through its handle.
  cudaGraphNode_t inner[2] = {};
  size_t count = 2;
  ASSERT_EQ(cudaGraphGetNodes(embedded, inner, &count), cudaSuccess);
  ASSERT_EQ(cudaGraphDestroyNode(inner[0]), cudaSuccess);
  EXPECT_EQ(node_count(embedded), 1);
  EXPECT_EQ(node_count(child), 2);  // the program's graph was copied, not touched
  // Destroying the child-graph node destroys the embedded graph and its nodes.
  ASSERT_EQ(cudaGraphDestroyNode(node), cudaSuccess);
  EXPECT_EQ(node_count(parent), 0);
  EXPECT_EQ(node_count(embedded), -1);
  EXPECT_EQ(cudaGraphDestroyNode(inner[1]), cudaErrorInvalidValue);
  EXPECT_EQ(node_count(child), 2);
  EXPECT_EQ(cudaGraphDestroy(parent), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(child), cudaSuccess);
  EXPECT_EQ(cudaFree(dst), cudaSuccess);
  cudaGetLastError();
}

TEST(GraphDestroyNode, AConditionalNodeTakesItsBodiesAlong) {
  void* dst = nullptr;
  ASSERT_EQ(cudaMalloc(&dst, kMemsetBytes), cudaSuccess);
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
  cudaGraphConditionalHandle handle = 0;
  ASSERT_EQ(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault), cudaSuccess);
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = handle;
  p.conditional.type = cudaGraphCondTypeIf;
  p.conditional.size = 1;
  const cudaGraphNode_t first = add_memsets(graph, dst, 0x11);
  cudaGraphNode_t node = nullptr;
  ASSERT_EQ(cudaGraphAddNode(&node, graph, &first, nullptr, 1, &p), cudaSuccess);
  const cudaGraph_t body = p.conditional.phGraph_out[0];
  const cudaGraphNode_t body_node = add_memsets(body, dst, 0x22);
  cudaGraphExec_t before = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&before, graph, 0), cudaSuccess);
  // A body's node first, then the conditional node with its body.
  ASSERT_EQ(cudaGraphDestroyNode(body_node), cudaSuccess);
  EXPECT_EQ(node_count(body), 0);
  ASSERT_EQ(cudaGraphDestroyNode(node), cudaSuccess);
  EXPECT_EQ(node_count(body), -1);
  EXPECT_EQ(node_count(graph), 1);
  EXPECT_EQ(dependent_count(first), 0u);
  expect_filled(before, dst, 0x22);  // the executable runs its own copies
  EXPECT_EQ(cudaGraphExecDestroy(before), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(graph), cudaSuccess);
  EXPECT_EQ(cudaFree(dst), cudaSuccess);
}

TEST(GraphDestroyNode, NodesOfAGraphWithMemoryNodesStay) {
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeMemAlloc;
  p.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  p.alloc.poolProps.location = cudaMemLocation{cudaMemLocationTypeDevice, 0};
  p.alloc.bytesize = kMemsetBytes;
  cudaGraphNode_t alloc = nullptr;
  ASSERT_EQ(cudaGraphAddNode(&alloc, graph, nullptr, nullptr, 0, &p), cudaSuccess);
  cudaGraphNode_t empty = nullptr;
  ASSERT_EQ(cudaGraphAddEmptyNode(&empty, graph, &alloc, 1), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroyNode(empty), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphDestroyNode(alloc), cudaErrorInvalidValue);
  EXPECT_EQ(node_count(graph), 2);
  cudaGetLastError();
  EXPECT_EQ(cudaGraphDestroy(graph), cudaSuccess);
}

}  // namespace
}  // namespace lockstep::test
