// Conditional nodes through the generic parameter API, and their bodies as graphs the node
// owns. A conditional node keeps the handle, type and size it was made with: naming them again
// succeeds, changing them is cudaErrorNotSupported (CUDA: changing a conditional node's
// parameters is not supported), in a graph, in an executable graph and through
// cudaGraphExecUpdate. The bodies are handles the program fills; an executable graph runs them
// as they were at instantiation; they go with their node, and no graph with a conditional node
// can be cloned or become a child graph.
#include <gtest/gtest.h>

#include "cudart/graph_memset_util.h"

namespace lockstep::test {
namespace {

// A graph with one if-node whose handle is 1 at each launch, its body one memset of 0x11.
struct IfGraph {
  IfGraph() {
    EXPECT_EQ(cudaMalloc(&dst, kMemsetBytes), cudaSuccess);
    EXPECT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
    EXPECT_EQ(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault), cudaSuccess);
    cudaGraphNodeParams p = params(handle, cudaGraphCondTypeIf, 1);
    EXPECT_EQ(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &p), cudaSuccess);
    body = p.conditional.phGraph_out[0];
    body_node = add_memsets(body, dst, 0x11);
  }
  ~IfGraph() {
    cudaGraphDestroy(graph);
    cudaFree(dst);
    cudaGetLastError();
  }
  static cudaGraphNodeParams params(cudaGraphConditionalHandle h, cudaGraphConditionalNodeType type, unsigned size) {
    cudaGraphNodeParams p{};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = size;
    return p;
  }
  void* dst = nullptr;
  cudaGraph_t graph = nullptr, body = nullptr;
  cudaGraphConditionalHandle handle = 0;
  cudaGraphNode_t node = nullptr, body_node = nullptr;
};

TEST(GraphConditionalParams, TheParametersItHasCanBeSetAgain) {
  IfGraph g;
  cudaGraphNodeParams same = IfGraph::params(g.handle, cudaGraphCondTypeIf, 1);
  EXPECT_EQ(cudaGraphNodeSetParams(g.node, &same), cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g.graph, 0), cudaSuccess);
  EXPECT_EQ(cudaGraphExecNodeSetParams(exec, g.node, &same), cudaSuccess);
  expect_filled(exec, g.dst, 0x11);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

TEST(GraphConditionalParams, ChangingThemIsNotSupported) {
  IfGraph g;
  cudaGraphConditionalHandle other = 0;
  ASSERT_EQ(cudaGraphConditionalHandleCreate(&other, g.graph, 0, 0), cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g.graph, 0), cudaSuccess);
  const cudaGraphNodeParams changes[] = {
      IfGraph::params(other, cudaGraphCondTypeIf, 1),
      IfGraph::params(g.handle, cudaGraphCondTypeWhile, 1),
      IfGraph::params(g.handle, cudaGraphCondTypeIf, 2),
  };
  for (cudaGraphNodeParams change : changes) {
    EXPECT_EQ(cudaGraphNodeSetParams(g.node, &change), cudaErrorNotSupported);
    EXPECT_EQ(cudaGraphExecNodeSetParams(exec, g.node, &change), cudaErrorNotSupported);
    EXPECT_EQ(cudaGetLastError(), cudaErrorNotSupported);
  }
  cudaGraphNodeParams got{};
  ASSERT_EQ(cudaGraphNodeGetParams(g.node, &got), cudaSuccess);
  EXPECT_EQ(got.conditional.handle, g.handle);
  EXPECT_EQ(got.conditional.type, cudaGraphCondTypeIf);
  ASSERT_EQ(got.conditional.size, 1u);
  EXPECT_EQ(got.conditional.phGraph_out[0], g.body);
  expect_filled(exec, g.dst, 0x11);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

TEST(GraphConditionalParams, AnExecutableGraphRunsTheBodyAsItWasAtInstantiation) {
  IfGraph g;
  cudaGraphExec_t before = nullptr, after = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&before, g.graph, 0), cudaSuccess);
  cudaGraphNodeParams set = memset_node_params(g.dst, 0x22);
  ASSERT_EQ(cudaGraphNodeSetParams(g.body_node, &set), cudaSuccess);
  ASSERT_EQ(cudaGraphInstantiate(&after, g.graph, 0), cudaSuccess);
  expect_filled(before, g.dst, 0x11);
  expect_filled(after, g.dst, 0x22);
  // cudaGraphExecUpdate brings the body's change to the older one.
  cudaGraphExecUpdateResultInfo info{};
  ASSERT_EQ(cudaGraphExecUpdate(before, g.graph, &info), cudaSuccess);
  EXPECT_EQ(info.result, cudaGraphExecUpdateSuccess);
  expect_filled(before, g.dst, 0x22);
  EXPECT_EQ(cudaGraphExecDestroy(before), cudaSuccess);
  EXPECT_EQ(cudaGraphExecDestroy(after), cudaSuccess);
}

TEST(GraphConditionalParams, AnUpdateCannotChangeTheConditionalOrItsBodysTopology) {
  IfGraph g;
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g.graph, 0), cudaSuccess);
  // The same shape with a handle of its own: the node's parameters differ.
  IfGraph other;
  cudaGraphExecUpdateResultInfo info{};
  EXPECT_EQ(cudaGraphExecUpdate(exec, other.graph, &info), cudaErrorGraphExecUpdateFailure);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorParametersChanged);
  // The same node with one more node in its body: the body's topology differs.
  add_memsets(g.body, g.dst, 0x33);
  EXPECT_EQ(cudaGraphExecUpdate(exec, g.graph, &info), cudaErrorGraphExecUpdateFailure);
  EXPECT_EQ(info.result, cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(cudaGetLastError(), cudaErrorGraphExecUpdateFailure);
  expect_filled(exec, g.dst, 0x11);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
}

TEST(GraphConditionalParams, BodiesGoWithTheirNode) {
  IfGraph g;
  EXPECT_EQ(cudaGraphDestroy(g.body), cudaErrorInvalidValue);  // the node owns it
  EXPECT_EQ(node_count(g.body), 1);
  ASSERT_EQ(cudaGraphDestroy(g.graph), cudaSuccess);
  g.graph = nullptr;
  EXPECT_EQ(node_count(g.body), -1);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

TEST(GraphConditionalParams, AGraphWithAConditionalIsNoChildAndNoClone) {
  IfGraph g;
  cudaGraph_t parent = nullptr, clone = nullptr;
  ASSERT_EQ(cudaGraphCreate(&parent, 0), cudaSuccess);
  cudaGraphNode_t node = nullptr;
  EXPECT_EQ(cudaGraphAddChildGraphNode(&node, parent, nullptr, 0, g.graph), cudaErrorInvalidValue);
  cudaGraphNodeParams move{};
  move.type = cudaGraphNodeTypeGraph;
  move.graph.graph = g.graph;
  move.graph.ownership = cudaGraphChildGraphOwnershipMove;
  EXPECT_EQ(cudaGraphAddNode(&node, parent, nullptr, nullptr, 0, &move), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphClone(&clone, g.graph), cudaErrorInvalidValue);
  EXPECT_EQ(node_count(g.graph), 1);  // still the program's
  // Nor can a child graph take a conditional node later.
  cudaGraph_t child = memset_graph(g.dst, 0x01);
  ASSERT_EQ(cudaGraphAddChildGraphNode(&node, parent, nullptr, 0, child), cudaSuccess);
  cudaGraph_t held = nullptr;
  ASSERT_EQ(cudaGraphChildGraphNodeGetGraph(node, &held), cudaSuccess);
  cudaGraphNodeParams conditional = IfGraph::params(g.handle, cudaGraphCondTypeIf, 1);
  cudaGraphNode_t added = nullptr;
  EXPECT_EQ(cudaGraphAddNode(&added, held, nullptr, nullptr, 0, &conditional), cudaErrorInvalidValue);
  EXPECT_EQ(node_count(held), 1);
  // A body may hold one: conditionals nest.
  cudaGraphNodeParams nested = IfGraph::params(g.handle, cudaGraphCondTypeIf, 1);
  EXPECT_EQ(cudaGraphAddNode(&added, g.body, nullptr, nullptr, 0, &nested), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphDestroy(child), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(parent), cudaSuccess);
}

}  // namespace
}  // namespace lockstep::test
