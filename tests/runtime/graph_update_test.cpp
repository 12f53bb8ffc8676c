// plan_graph_update: which node of an updated graph takes the place of which node of an
// executable graph's snapshot (CUDA's pairing: exits in creation order, then dependencies in
// edge order), and where a topology that does not pair fails.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "runtime/graph_update.h"

namespace lockstep::runtime {
namespace {

// `kinds[i]` true makes node i a host node, false an empty node.
Graph graph_of(const std::vector<bool>& kinds, const std::vector<std::pair<size_t, size_t>>& edges) {
  Graph g;
  for (bool host : kinds) {
    if (host)
      g.add(HostNodeOp{});
    else
      g.add(EmptyNodeOp{});
  }
  for (const auto& [from, to] : edges) EXPECT_TRUE(g.add_edge(from, to));
  return g;
}

Graph empties(size_t nodes, const std::vector<std::pair<size_t, size_t>>& edges) {
  return graph_of(std::vector<bool>(nodes, false), edges);
}

TEST(GraphUpdate, TheSameGraphPairsNodeForNode) {
  const Graph g = empties(4, {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
  const GraphUpdatePlan plan = plan_graph_update(g, Graph(g));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan.pairs, (std::vector<size_t>{0, 1, 2, 3}));
  EXPECT_FALSE(plan.error_node);
  EXPECT_FALSE(plan.error_from);
}

TEST(GraphUpdate, NodesMadeInAnotherOrderPairByTheirEdges) {
  // 0 -> 1 against 1 -> 0: updated node 1 stands for node 0.
  const GraphUpdatePlan plan = plan_graph_update(empties(2, {{0, 1}}), empties(2, {{1, 0}}));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan.pairs, (std::vector<size_t>{1, 0}));
}

TEST(GraphUpdate, DependenciesPairInEdgeOrder) {
  // 0, 1 -> 2 with the edge from 1 added first: 0 and 1 pair crosswise.
  const GraphUpdatePlan plan = plan_graph_update(empties(3, {{0, 2}, {1, 2}}), empties(3, {{1, 2}, {0, 2}}));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan.pairs, (std::vector<size_t>{1, 0, 2}));
  // With node types, the crossing shows: a host node in an empty node's place.
  const GraphUpdatePlan typed =
      plan_graph_update(graph_of({true, false, false}, {{0, 2}, {1, 2}}), graph_of({true, false, false}, {{1, 2}, {0, 2}}));
  EXPECT_EQ(typed.result, cudaGraphExecUpdateErrorNodeTypeChanged);
  EXPECT_EQ(typed.error_node, 0u);
}

TEST(GraphUpdate, ExitsPairInCreationOrder) {
  // Two unconnected nodes each: 0 with 0, 1 with 1, whatever their kinds.
  const GraphUpdatePlan plan = plan_graph_update(graph_of({true, false}, {}), graph_of({true, false}, {}));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan.pairs, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(plan_graph_update(graph_of({true, false}, {}), graph_of({false, true}, {})).result,
            cudaGraphExecUpdateErrorNodeTypeChanged);
}

TEST(GraphUpdate, TopologyFailures) {
  const Graph diamond = empties(4, {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
  // Node counts differ: no node named.
  GraphUpdatePlan plan = plan_graph_update(diamond, empties(3, {}));
  EXPECT_EQ(plan.result, cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_FALSE(plan.error_node);
  // More exits: the first exit beyond the executable's count.
  plan = plan_graph_update(diamond, empties(4, {{0, 1}, {0, 2}, {1, 3}}));
  EXPECT_EQ(plan.result, cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(plan.error_node, 3u);  // exits 2 and 3
  // A dependency count differs: the node.
  plan = plan_graph_update(diamond, empties(4, {{0, 1}, {1, 2}, {2, 3}}));
  EXPECT_EQ(plan.result, cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(plan.error_node, 3u);
  EXPECT_FALSE(plan.error_from);
  // A dependency already paired with another node: the node and the dependency.
  plan = plan_graph_update(diamond, empties(4, {{0, 1}, {1, 2}, {1, 3}, {2, 3}}));
  EXPECT_EQ(plan.result, cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(plan.error_node, 2u);
  EXPECT_EQ(plan.error_from, 1u);
  EXPECT_TRUE(plan.pairs.empty());
}

TEST(GraphUpdate, NestedGraphsPairAsWholeGraphsDo) {
  Graph child_was = empties(2, {{0, 1}});
  Graph child_now = empties(2, {{1, 0}});  // made in the other order, same shape
  Graph was, now;
  was.add(ChildGraphNodeOp{NestedGraph(std::make_unique<Graph>(child_was)), cudaGraphChildGraphOwnershipClone});
  now.add(ChildGraphNodeOp{NestedGraph(std::make_unique<Graph>(child_now)), cudaGraphChildGraphOwnershipClone});
  EXPECT_TRUE(plan_graph_update(was, now).ok());
  Graph other;
  other.add(ChildGraphNodeOp{NestedGraph(std::make_unique<Graph>(empties(2, {}))), cudaGraphChildGraphOwnershipClone});
  const GraphUpdatePlan plan = plan_graph_update(was, other);
  EXPECT_EQ(plan.result, cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(plan.error_node, 0u);  // the node holding the graph
}

}  // namespace
}  // namespace lockstep::runtime
