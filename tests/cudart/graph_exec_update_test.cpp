// cudaGraphExecUpdate pairs the graph's nodes with the executable graph's as CUDA documents
// (cuda_runtime_api.h; CUDA Programming Guide, "Whole Graph Update"): exit nodes in the order
// they were made, then each pair's dependencies in the order their edges were added; never by
// position. A topology that does not pair is cudaErrorGraphExecUpdateFailure with
// cudaGraphExecUpdateErrorTopologyChanged, and resultInfo names the graph's nodes where the
// pairing failed: none when the node counts differ, an extra exit node, the node whose
// dependency count differs, or the node and the dependency that did not match. A failed update
// leaves the executable graph as it was.
#include <gtest/gtest.h>

#include "cudart/graph_stream_fixture.h"

namespace lockstep::test {
namespace {

cudaGraphNode_t memset_node(cudaGraph_t graph, void* dst, unsigned value) { return add_memsets(graph, dst, value); }

cudaGraphNode_t empty_node(cudaGraph_t graph) {
  cudaGraphNode_t node = nullptr;
  EXPECT_EQ(cudaGraphAddEmptyNode(&node, graph, nullptr, 0), cudaSuccess);
  return node;
}

void link(cudaGraph_t graph, cudaGraphNode_t from, cudaGraphNode_t to) {
  EXPECT_EQ(cudaGraphAddDependencies(graph, &from, &to, nullptr, 1), cudaSuccess);
}

cudaGraphExec_t instantiate(cudaGraph_t graph) {
  cudaGraphExec_t exec = nullptr;
  EXPECT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  return exec;
}

// An update that must fail: returns its resultInfo, having checked the return code and the
// error it leaves.
cudaGraphExecUpdateResultInfo refused_update(cudaGraphExec_t exec, cudaGraph_t graph) {
  cudaGraphExecUpdateResultInfo info{cudaGraphExecUpdateSuccess, nullptr, nullptr};
  EXPECT_EQ(cudaGraphExecUpdate(exec, graph, &info), cudaErrorGraphExecUpdateFailure);
  EXPECT_EQ(cudaGetLastError(), cudaErrorGraphExecUpdateFailure);
  return info;
}

TEST(GraphExecUpdate, TheSameTopologyUpdatesEveryNode) {
  GraphAndStream was, now;
  link(was.graph, memset_node(was.graph, was.dst, 0x11), memset_node(was.graph, was.dst, 0x22));
  link(now.graph, memset_node(now.graph, now.dst, 0x33), memset_node(now.graph, now.dst, 0x44));
  const cudaGraphExec_t exec = instantiate(was.graph);
  int stale = 0;  // the info's nodes are overwritten
  cudaGraphExecUpdateResultInfo info{cudaGraphExecUpdateError, reinterpret_cast<cudaGraphNode_t>(&stale),
                                     reinterpret_cast<cudaGraphNode_t>(&stale)};
  ASSERT_EQ(cudaGraphExecUpdate(exec, now.graph, &info), cudaSuccess);
  EXPECT_EQ(info.result, cudaGraphExecUpdateSuccess);
  EXPECT_EQ(info.errorNode, nullptr);
  EXPECT_EQ(info.errorFromNode, nullptr);
  expect_filled(exec, now.dst, 0x44);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

// Made in the other order, memset -> empty pairs by its edge, where pairing by position would
// put the memset in the empty node's place.
TEST(GraphExecUpdate, NodesPairByTopologyNotByPosition) {
  GraphAndStream was, now;
  link(was.graph, memset_node(was.graph, was.dst, 0x11), empty_node(was.graph));
  const cudaGraphNode_t last = empty_node(now.graph);
  link(now.graph, memset_node(now.graph, now.dst, 0x22), last);
  const cudaGraphExec_t exec = instantiate(was.graph);
  cudaGraphExecUpdateResultInfo info{};
  ASSERT_EQ(cudaGraphExecUpdate(exec, now.graph, &info), cudaSuccess);
  EXPECT_EQ(info.result, cudaGraphExecUpdateSuccess);
  expect_filled(exec, now.dst, 0x22);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

// The same nodes and edges, but the edges into the join added in the other order: the
// dependencies pair crosswise, a memset with an empty node.
TEST(GraphExecUpdate, DependenciesPairInTheOrderTheirEdgesWereAdded) {
  GraphAndStream was, now, same;
  auto build = [](GraphAndStream& g, bool memset_edge_first) {
    const cudaGraphNode_t m = memset_node(g.graph, g.dst, 0x11);
    const cudaGraphNode_t e = empty_node(g.graph);
    const cudaGraphNode_t join = empty_node(g.graph);
    link(g.graph, memset_edge_first ? m : e, join);
    link(g.graph, memset_edge_first ? e : m, join);
    return m;
  };
  build(was, true);
  build(same, true);
  const cudaGraphNode_t crossed = build(now, false);
  const cudaGraphExec_t exec = instantiate(was.graph);
  const cudaGraphExecUpdateResultInfo info = refused_update(exec, now.graph);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorNodeTypeChanged);
  EXPECT_EQ(info.errorNode, crossed);
  EXPECT_EQ(info.errorFromNode, nullptr);
  cudaGraphExecUpdateResultInfo ok{};
  EXPECT_EQ(cudaGraphExecUpdate(exec, same.graph, &ok), cudaSuccess);
  EXPECT_EQ(ok.result, cudaGraphExecUpdateSuccess);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

TEST(GraphExecUpdate, ADifferentNodeCountNamesNoNode) {
  GraphAndStream was, now;
  memset_node(was.graph, was.dst, 0x11);
  memset_node(now.graph, now.dst, 0x22);
  memset_node(now.graph, now.dst, 0x33);
  const cudaGraphExec_t exec = instantiate(was.graph);
  const cudaGraphExecUpdateResultInfo info = refused_update(exec, now.graph);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(info.errorNode, nullptr);
  EXPECT_EQ(info.errorFromNode, nullptr);
  expect_filled(exec, was.dst, 0x11);  // unchanged
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

// A program destroys the middle of a chain and adds a node at its end: as many nodes, but two
// exits where the executable has one. CUDA names "one of the exit nodes"; here the first exit
// left without a partner, in creation order. Once the topology is a chain again it pairs.
TEST(GraphExecUpdate, ADestroyedAndReplacedNodeLeavesAnExtraExit) {
  GraphAndStream g;
  const cudaGraphNode_t a = memset_node(g.graph, g.dst, 0x11);
  const cudaGraphNode_t b = memset_node(g.graph, g.dst, 0x22);
  const cudaGraphNode_t c = memset_node(g.graph, g.dst, 0x33);
  link(g.graph, a, b);
  link(g.graph, b, c);
  const cudaGraphExec_t exec = instantiate(g.graph);
  ASSERT_EQ(cudaGraphDestroyNode(b), cudaSuccess);
  const cudaGraphNode_t d = memset_node(g.graph, g.dst, 0x44);
  link(g.graph, c, d);
  const cudaGraphExecUpdateResultInfo info = refused_update(exec, g.graph);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(info.errorNode, d);  // exits a and d; the executable's one exit pairs with a
  EXPECT_EQ(info.errorFromNode, nullptr);
  expect_filled(exec, g.dst, 0x33);
  // Linked a -> c -> d, the graph is a chain of three again: d, made last, takes the place of
  // the executable's exit c, c that of b.
  link(g.graph, a, c);
  cudaGraphExecUpdateResultInfo ok{};
  ASSERT_EQ(cudaGraphExecUpdate(exec, g.graph, &ok), cudaSuccess);
  EXPECT_EQ(ok.result, cudaGraphExecUpdateSuccess);
  expect_filled(exec, g.dst, 0x44);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

// a, b -> c against a -> b -> c: the exits pair, then c has one dependency, not two.
TEST(GraphExecUpdate, ADifferentDependencyCountNamesTheNode) {
  GraphAndStream was, now;
  const cudaGraphNode_t wa = memset_node(was.graph, was.dst, 0x11), wb = memset_node(was.graph, was.dst, 0x22);
  const cudaGraphNode_t wc = memset_node(was.graph, was.dst, 0x33);
  link(was.graph, wa, wc);
  link(was.graph, wb, wc);
  const cudaGraphNode_t na = memset_node(now.graph, now.dst, 0x11), nb = memset_node(now.graph, now.dst, 0x22);
  const cudaGraphNode_t nc = memset_node(now.graph, now.dst, 0x33);
  link(now.graph, na, nb);
  link(now.graph, nb, nc);
  const cudaGraphExec_t exec = instantiate(was.graph);
  const cudaGraphExecUpdateResultInfo info = refused_update(exec, now.graph);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(info.errorNode, nc);
  EXPECT_EQ(info.errorFromNode, nullptr);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

// The diamond a -> b, c -> d against a -> b -> c, b -> d, c -> d: as many nodes, edges and
// exits, and d's dependencies pair (b, c); then c's one dependency is b, which already stands
// for the executable's b, not a.
TEST(GraphExecUpdate, AMismatchedDependencyNamesTheEdge) {
  GraphAndStream was, now;
  cudaGraphNode_t w[4], n[4];
  for (int i = 0; i < 4; ++i) {
    w[i] = empty_node(was.graph);
    n[i] = empty_node(now.graph);
  }
  link(was.graph, w[0], w[1]);
  link(was.graph, w[0], w[2]);
  link(was.graph, w[1], w[3]);
  link(was.graph, w[2], w[3]);
  link(now.graph, n[0], n[1]);
  link(now.graph, n[1], n[2]);
  link(now.graph, n[1], n[3]);
  link(now.graph, n[2], n[3]);
  const cudaGraphExec_t exec = instantiate(was.graph);
  const cudaGraphExecUpdateResultInfo info = refused_update(exec, now.graph);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(info.errorNode, n[2]);
  EXPECT_EQ(info.errorFromNode, n[1]);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

// Fewer exits than the executable's: an exit pairs with a node that is no exit there, and the
// dependency counts differ.
TEST(GraphExecUpdate, FewerExitsFailAtADependency) {
  GraphAndStream was, now;
  memset_node(was.graph, was.dst, 0x11);
  memset_node(was.graph, was.dst, 0x22);
  const cudaGraphNode_t first = memset_node(now.graph, now.dst, 0x11);
  const cudaGraphNode_t second = memset_node(now.graph, now.dst, 0x22);
  link(now.graph, first, second);
  const cudaGraphExec_t exec = instantiate(was.graph);
  const cudaGraphExecUpdateResultInfo info = refused_update(exec, now.graph);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(info.errorNode, second);
  EXPECT_EQ(info.errorFromNode, nullptr);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

TEST(GraphExecUpdate, AnotherNodeTypeNamesTheNode) {
  GraphAndStream was, now;
  link(was.graph, memset_node(was.graph, was.dst, 0x11), memset_node(was.graph, was.dst, 0x22));
  const cudaGraphNode_t first = memset_node(now.graph, now.dst, 0x11);
  const cudaGraphNode_t other = empty_node(now.graph);
  link(now.graph, first, other);
  const cudaGraphExec_t exec = instantiate(was.graph);
  const cudaGraphExecUpdateResultInfo info = refused_update(exec, now.graph);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorNodeTypeChanged);
  EXPECT_EQ(info.errorNode, other);
  EXPECT_EQ(info.errorFromNode, nullptr);
  expect_filled(exec, was.dst, 0x22);  // unchanged
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

TEST(GraphExecUpdate, UnknownHandlesAreAnInvalidValue) {
  GraphAndStream g;
  memset_node(g.graph, g.dst, 0x11);
  const cudaGraphExec_t exec = instantiate(g.graph);
  cudaGraphExecUpdateResultInfo info{cudaGraphExecUpdateSuccess, nullptr, nullptr};
  EXPECT_EQ(cudaGraphExecUpdate(nullptr, g.graph, &info), cudaErrorInvalidValue);
  EXPECT_EQ(info.result, cudaGraphExecUpdateError);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  info.result = cudaGraphExecUpdateSuccess;
  EXPECT_EQ(cudaGraphExecUpdate(exec, nullptr, &info), cudaErrorInvalidValue);
  EXPECT_EQ(info.result, cudaGraphExecUpdateError);
  EXPECT_EQ(info.errorNode, nullptr);
  cudaGetLastError();
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

}  // namespace
}  // namespace lockstep::test
