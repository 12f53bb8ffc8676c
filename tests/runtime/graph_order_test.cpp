// The graph data structure: edges, roots, reachability, deep copies, and the deterministic
// topological order graph launches run in (Kahn's algorithm, ties by creation order).
#include <gtest/gtest.h>

#include <vector>

#include "runtime/graph.h"

namespace lockstep::runtime {
namespace {

Graph graph_of(size_t nodes, const std::vector<std::pair<size_t, size_t>>& edges) {
  Graph g;
  for (size_t i = 0; i < nodes; ++i) g.add(EmptyNodeOp{});
  for (const auto& [from, to] : edges) EXPECT_TRUE(g.add_edge(from, to));
  return g;
}

TEST(GraphOrder, ReadyNodesRunInCreationOrder) {
  // 3 -> 0 -> 2 and 4 -> 1 -> 2: node 3 is the first ready node, then 0 (created before 4).
  const Graph g = graph_of(5, {{3, 0}, {4, 1}, {0, 2}, {1, 2}});
  EXPECT_EQ(g.topological_order(), (std::vector<size_t>{3, 0, 4, 1, 2}));
}

TEST(GraphOrder, ForkJoinRunsBothBranchesBeforeTheJoin) {
  // memset(0) -> kernels 1 and 2 -> kernel 3 -> host 4; node 5 unconnected.
  const Graph g = graph_of(6, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}});
  EXPECT_EQ(g.topological_order(), (std::vector<size_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(g.roots(), (std::vector<size_t>{0, 5}));
  EXPECT_EQ(g.dependencies(3), (std::vector<size_t>{1, 2}));
  EXPECT_EQ(g.dependents(0), (std::vector<size_t>{1, 2}));
}

TEST(GraphOrder, LaterNodesMayRunFirst) {
  const Graph g = graph_of(3, {{2, 0}, {1, 0}});
  EXPECT_EQ(g.topological_order(), (std::vector<size_t>{1, 2, 0}));
}

TEST(GraphOrder, ACycleHasNoOrder) {
  const Graph g = graph_of(4, {{0, 1}, {1, 2}, {2, 1}, {0, 3}});
  EXPECT_EQ(g.topological_order(), std::nullopt);
}

TEST(GraphOrder, EdgesAreUniqueAndInsideTheGraph) {
  Graph g = graph_of(2, {{0, 1}});
  EXPECT_FALSE(g.add_edge(0, 1));
  EXPECT_FALSE(g.add_edge(1, 1));
  EXPECT_FALSE(g.add_edge(0, 2));
  EXPECT_TRUE(g.add_edge(1, 0));
  EXPECT_EQ(g.edges(), (std::vector<std::pair<size_t, size_t>>{{0, 1}, {1, 0}}));
  EXPECT_TRUE(g.remove_edge(0, 1));
  EXPECT_FALSE(g.remove_edge(0, 1));
  EXPECT_EQ(g.edges(), (std::vector<std::pair<size_t, size_t>>{{1, 0}}));
}

TEST(GraphOrder, ReachabilityFollowsEdges) {
  const Graph g = graph_of(4, {{0, 1}, {1, 2}});
  EXPECT_TRUE(g.reaches(0, 2));
  EXPECT_TRUE(g.reaches(3, 3));
  EXPECT_FALSE(g.reaches(2, 0));
  EXPECT_FALSE(g.reaches(0, 3));
}

TEST(GraphOrder, CopiesKeepIndicesAndEdgesAtNewAddresses) {
  Graph g;
  g.add(HostNodeOp{nullptr, nullptr});
  g.add(MemsetNodeOp{});
  g.add_edge(0, 1);
  const Graph copy(g);
  ASSERT_EQ(copy.size(), 2u);
  EXPECT_EQ(copy.edges(), g.edges());
  EXPECT_NE(&copy.node(1), &g.node(1));
  EXPECT_EQ(copy.node(1).index, 1u);
  EXPECT_EQ(node_type(copy.node(0).op), cudaGraphNodeTypeHost);
  EXPECT_EQ(node_type(copy.node(1).op), cudaGraphNodeTypeMemset);
  EXPECT_TRUE(copy.owns(&copy.node(1)));
  EXPECT_FALSE(copy.owns(&g.node(1)));
}

TEST(GraphOrder, RemovingANodeDropsItsEdgesAndShiftsTheLaterNodes) {
  // 0 -> 1 -> 3, 0 -> 2 -> 3, 2 -> 4: removing 2 leaves 0 -> 1 -> 2 (was 3) and 3 (was 4) alone.
  Graph g = graph_of(5, {{0, 1}, {1, 3}, {0, 2}, {2, 3}, {2, 4}});
  GraphNode* was3 = &g.node(3);
  GraphNode* was4 = &g.node(4);
  g.remove(2);
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(&g.node(2), was3);  // the same node (handle), one position down
  EXPECT_EQ(&g.node(3), was4);
  EXPECT_EQ(g.node(2).index, 2u);
  EXPECT_EQ(g.node(3).index, 3u);
  EXPECT_EQ(g.edges(), (std::vector<std::pair<size_t, size_t>>{{0, 1}, {1, 2}}));
  EXPECT_EQ(g.roots(), (std::vector<size_t>{0, 3}));
  EXPECT_EQ(g.topological_order(), (std::vector<size_t>{0, 1, 2, 3}));
}

TEST(GraphOrder, IdsOutliveRemovalsAndCopies) {
  Graph g = graph_of(4, {});
  const Graph before(g);  // as an instantiation keeps it
  g.remove(1);
  EXPECT_EQ(g.node(1).id, 2u);
  EXPECT_EQ(g.find(2), 1u);
  EXPECT_EQ(g.find(1), std::nullopt);  // removed
  EXPECT_EQ(before.find(2), 2u);       // the copy still has it where it was
  EXPECT_EQ(before.find(1), 1u);
  EXPECT_EQ(g.add(EmptyNodeOp{}).id, 4u);  // ids are never reused
  EXPECT_EQ(g.find(4), 3u);
  EXPECT_EQ(before.find(4), std::nullopt);  // made after the copy
  EXPECT_EQ(Graph(g).find(4), 3u);
}

TEST(GraphOrder, NodeTypesFollowCudaNumbering) {
  EXPECT_EQ(node_type(KernelNodeOp{}), cudaGraphNodeTypeKernel);
  EXPECT_EQ(node_type(MemcpyNodeOp{}), cudaGraphNodeTypeMemcpy);
  EXPECT_EQ(node_type(ChildGraphNodeOp{}), cudaGraphNodeTypeGraph);
  EXPECT_EQ(node_type(EmptyNodeOp{}), cudaGraphNodeTypeEmpty);
  EXPECT_EQ(node_type(EventWaitNodeOp{}), cudaGraphNodeTypeWaitEvent);
  EXPECT_EQ(node_type(EventRecordNodeOp{}), cudaGraphNodeTypeEventRecord);
  EXPECT_EQ(node_type(ConditionalNodeOp{}), cudaGraphNodeTypeConditional);
  EXPECT_EQ(node_type(MemAllocNodeOp{}), cudaGraphNodeTypeMemAlloc);
  EXPECT_EQ(node_type(MemFreeNodeOp{}), cudaGraphNodeTypeMemFree);
}

TEST(GraphOrder, OneDimensionalCopyIsOneRowOfBytes) {
  char src[8] = {}, dst[8] = {};
  const MemcpyNodeOp op = memcpy_1d_op(dst, src, 8, cudaMemcpyHostToHost);
  EXPECT_EQ(op.params.extent.width, 8u);
  EXPECT_EQ(op.params.extent.height, 1u);
  EXPECT_EQ(op.params.extent.depth, 1u);
  EXPECT_EQ(op.params.srcPtr.ptr, src);
  EXPECT_EQ(op.params.dstPtr.ptr, dst);
  EXPECT_EQ(op.params.kind, cudaMemcpyHostToHost);
}

}  // namespace
}  // namespace lockstep::runtime
