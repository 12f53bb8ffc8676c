// Child graphs and the nodes CUDA keeps out of them. A graph with memory-allocation or
// memory-free nodes cannot be copied into a child-graph node, only moved in
// (cudaGraphChildGraphOwnershipMove), after which its handle is the parent's: the program can
// no longer destroy, instantiate, move, copy or update from it, and it goes with the parent. A
// graph with conditional nodes is no child graph either way, and a graph a node holds takes no
// memory nodes (nor, for a child graph, conditional nodes) afterwards.
#include <gtest/gtest.h>

#include "cudart/graph_memset_util.h"

namespace lockstep::test {
namespace {

cudaGraphNodeParams alloc_params(size_t bytes) {
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeMemAlloc;
  p.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  p.alloc.poolProps.location = cudaMemLocation{cudaMemLocationTypeDevice, 0};
  p.alloc.bytesize = bytes;
  return p;
}

cudaGraphNodeParams child_params(cudaGraph_t child, cudaGraphChildGraphNodeOwnership ownership) {
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeGraph;
  p.graph.graph = child;
  p.graph.ownership = ownership;
  return p;
}

// A graph that allocates kMemsetBytes, fills them with 0x5a, copies them to `out` and frees
// them: alloc -> memset -> memcpy -> free.
cudaGraph_t allocating_graph(void* out) {
  cudaGraph_t graph = nullptr;
  EXPECT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
  cudaGraphNodeParams a = alloc_params(kMemsetBytes);
  cudaGraphNode_t alloc = nullptr, fill = nullptr, copy = nullptr, release = nullptr;
  EXPECT_EQ(cudaGraphAddNode(&alloc, graph, nullptr, nullptr, 0, &a), cudaSuccess);
  cudaGraphNodeParams m = memset_node_params(a.alloc.dptr, 0x5a);
  EXPECT_EQ(cudaGraphAddNode(&fill, graph, &alloc, nullptr, 1, &m), cudaSuccess);
  EXPECT_EQ(cudaGraphAddMemcpyNode1D(&copy, graph, &fill, 1, out, a.alloc.dptr, kMemsetBytes, cudaMemcpyDeviceToDevice),
            cudaSuccess);
  EXPECT_EQ(cudaGraphAddMemFreeNode(&release, graph, &copy, 1, a.alloc.dptr), cudaSuccess);
  return graph;
}

struct Buffers {
  Buffers() { EXPECT_EQ(cudaMalloc(&out, kMemsetBytes), cudaSuccess); }
  ~Buffers() {
    cudaFree(out);
    cudaGetLastError();
  }
  void* out = nullptr;
};

TEST(GraphChildMemory, AGraphWithMemoryNodesCannotBeCopiedIn) {
  Buffers b;
  cudaGraph_t child = allocating_graph(b.out);
  cudaGraph_t parent = nullptr;
  ASSERT_EQ(cudaGraphCreate(&parent, 0), cudaSuccess);
  cudaGraphNode_t node = nullptr;
  EXPECT_EQ(cudaGraphAddChildGraphNode(&node, parent, nullptr, 0, child), cudaErrorInvalidValue);
  cudaGraphNodeParams clone = child_params(child, cudaGraphChildGraphOwnershipClone);
  EXPECT_EQ(cudaGraphAddNode(&node, parent, nullptr, nullptr, 0, &clone), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(node_count(parent), 0);
  EXPECT_EQ(cudaGraphDestroy(parent), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(child), cudaSuccess);
}

TEST(GraphChildMemory, MovedInTheGraphRunsAndBelongsToTheParent) {
  Buffers b;
  cudaGraph_t child = allocating_graph(b.out);
  cudaGraph_t parent = nullptr;
  ASSERT_EQ(cudaGraphCreate(&parent, 0), cudaSuccess);
  cudaGraphNode_t node = nullptr;
  cudaGraphNodeParams move = child_params(child, cudaGraphChildGraphOwnershipMove);
  ASSERT_EQ(cudaGraphAddNode(&node, parent, nullptr, nullptr, 0, &move), cudaSuccess);
  // The node holds the very graph moved in, under the same handle.
  cudaGraph_t held = nullptr;
  ASSERT_EQ(cudaGraphChildGraphNodeGetGraph(node, &held), cudaSuccess);
  EXPECT_EQ(held, child);
  cudaGraphNodeParams got{};
  ASSERT_EQ(cudaGraphNodeGetParams(node, &got), cudaSuccess);
  EXPECT_EQ(got.graph.graph, child);
  EXPECT_EQ(got.graph.ownership, cudaGraphChildGraphOwnershipMove);
  EXPECT_EQ(node_count(child), 4);

  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, parent, 0), cudaSuccess);
  expect_filled(exec, b.out, 0x5a);
  expect_filled(exec, b.out, 0x5a);  // allocated and freed again at each launch

  // The parent now has memory nodes: CUDA's rules for such graphs hold for it.
  cudaGraph_t copy = nullptr;
  cudaGraphExec_t second = nullptr;
  EXPECT_EQ(cudaGraphClone(&copy, parent), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphInstantiate(&second, parent, 0), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(parent), cudaSuccess);
  EXPECT_EQ(node_count(child), -1);  // gone with its parent
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

TEST(GraphChildMemory, AMovedGraphIsTheParentsToUse) {
  Buffers b;
  cudaGraph_t child = allocating_graph(b.out);
  cudaGraph_t parent = nullptr, other = nullptr;
  ASSERT_EQ(cudaGraphCreate(&parent, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphCreate(&other, 0), cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, other, 0), cudaSuccess);
  cudaGraphNode_t node = nullptr;
  cudaGraphNodeParams move = child_params(child, cudaGraphChildGraphOwnershipMove);
  ASSERT_EQ(cudaGraphAddNode(&node, parent, nullptr, nullptr, 0, &move), cudaSuccess);

  EXPECT_EQ(cudaGraphDestroy(child), cudaErrorInvalidValue);
  cudaGraphExec_t own = nullptr;
  EXPECT_EQ(cudaGraphInstantiate(&own, child, 0), cudaErrorInvalidValue);
  cudaGraphNode_t again = nullptr;
  EXPECT_EQ(cudaGraphAddNode(&again, other, nullptr, nullptr, 0, &move), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphAddChildGraphNode(&again, other, nullptr, 0, child), cudaErrorInvalidValue);
  cudaGraphExecUpdateResultInfo info{};
  EXPECT_EQ(cudaGraphExecUpdate(exec, child, &info), cudaErrorInvalidValue);
  // Nor may it take more memory nodes.
  cudaGraphNodeParams a = alloc_params(64);
  EXPECT_EQ(cudaGraphAddNode(&again, child, nullptr, nullptr, 0, &a), cudaErrorInvalidValue);
  EXPECT_EQ(node_count(child), 4);
  EXPECT_EQ(node_count(other), 0);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(other), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(parent), cudaSuccess);
}

TEST(GraphChildMemory, AGraphCannotBeMovedIntoItself) {
  Buffers b;
  cudaGraph_t outer = memset_graph(b.out, 0x01);
  cudaGraph_t inner = nullptr;
  ASSERT_EQ(cudaGraphCreate(&inner, 0), cudaSuccess);
  cudaGraphNode_t node = nullptr;
  cudaGraphNodeParams self = child_params(outer, cudaGraphChildGraphOwnershipMove);
  EXPECT_EQ(cudaGraphAddNode(&node, outer, nullptr, nullptr, 0, &self), cudaErrorInvalidValue);
  // inner moved into outer; then outer into inner would make outer hold itself.
  cudaGraphNodeParams move_inner = child_params(inner, cudaGraphChildGraphOwnershipMove);
  ASSERT_EQ(cudaGraphAddNode(&node, outer, nullptr, nullptr, 0, &move_inner), cudaSuccess);
  EXPECT_EQ(cudaGraphAddNode(&node, inner, nullptr, nullptr, 0, &self), cudaErrorInvalidValue);
  EXPECT_EQ(node_count(outer), 2);
  EXPECT_EQ(node_count(inner), 0);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphDestroy(outer), cudaSuccess);
  EXPECT_EQ(node_count(inner), -1);
  cudaGetLastError();
}

TEST(GraphChildMemory, ACopiedChildGraphTakesNoMemoryNodes) {
  Buffers b;
  cudaGraph_t child = memset_graph(b.out, 0x01);
  cudaGraph_t parent = nullptr;
  ASSERT_EQ(cudaGraphCreate(&parent, 0), cudaSuccess);
  cudaGraphNode_t node = nullptr;
  ASSERT_EQ(cudaGraphAddChildGraphNode(&node, parent, nullptr, 0, child), cudaSuccess);
  cudaGraph_t held = nullptr;
  ASSERT_EQ(cudaGraphChildGraphNodeGetGraph(node, &held), cudaSuccess);
  cudaGraphNodeParams a = alloc_params(64);
  cudaGraphNode_t added = nullptr;
  EXPECT_EQ(cudaGraphAddNode(&added, held, nullptr, nullptr, 0, &a), cudaErrorInvalidValue);
  // A free node of an allocation of another graph is refused alike.
  cudaGraph_t allocating = nullptr;
  ASSERT_EQ(cudaGraphCreate(&allocating, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphAddNode(&added, allocating, nullptr, nullptr, 0, &a), cudaSuccess);
  EXPECT_EQ(cudaGraphAddMemFreeNode(&added, held, nullptr, 0, a.alloc.dptr), cudaErrorInvalidValue);
  // So is a moved graph with memory nodes, into a graph a node holds.
  cudaGraphNodeParams move = child_params(allocating, cudaGraphChildGraphOwnershipMove);
  EXPECT_EQ(cudaGraphAddNode(&added, held, nullptr, nullptr, 0, &move), cudaErrorInvalidValue);
  EXPECT_EQ(node_count(held), 1);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphDestroy(allocating), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(parent), cudaSuccess);
  EXPECT_EQ(cudaGraphDestroy(child), cudaSuccess);
}

}  // namespace
}  // namespace lockstep::test
