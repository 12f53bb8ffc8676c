#pragma once
// A CUDA graph as plain data: nodes, each one recorded stream operation, and dependency edges
// between them. Streams run in order and every operation completes when issued, so launching a
// graph means running its nodes one after another in a topological order (Runtime::run_graph).
// The order is deterministic: Kahn's algorithm, ties broken by node creation order.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#include <driver_types.h>

#include "engine/engine.h"
#include "runtime/launch_attributes.h"
#include "runtime/user_objects.h"

namespace lockstep::runtime {

class Graph;

// A graph a node holds (a child graph, a conditional body). The node owns it, and copying the
// node copies it: an executable graph is a snapshot that later edits of the graph it came from
// (through cudaGraphChildGraphNodeGetGraph or a body handle) cannot reach.
class NestedGraph {
 public:
  NestedGraph();  // an empty graph
  explicit NestedGraph(std::unique_ptr<Graph> graph);
  NestedGraph(const NestedGraph& other);
  NestedGraph& operator=(const NestedGraph& other);
  NestedGraph(NestedGraph&& other) noexcept;
  NestedGraph& operator=(NestedGraph&& other) noexcept;
  ~NestedGraph();
  Graph& operator*() const { return *graph_; }
  Graph* operator->() const { return graph_.get(); }
  Graph* get() const { return graph_.get(); }

 private:
  std::unique_ptr<Graph> graph_;
};

// A kernel launch; the arguments were copied when the node was made (one buffer per parameter),
// so the program may reuse the storage its kernelParams pointed at.
struct KernelNodeOp {
  const void* host_fun = nullptr;
  Dim3 grid, block;
  size_t shared = 0;
  std::vector<std::vector<uint8_t>> args;
  // Launch attributes of the node (cudaGraphKernelNodeSetAttribute, or those of the captured
  // launch), one per id in the order first set. Cooperative makes the launch cooperative; the
  // others are scheduling hints, kept and reported back.
  std::vector<cudaLaunchAttribute> attributes;
  // One pointer per argument buffer, as cudaGraphKernelNodeGetParams hands out kernelParams.
  void** argument_pointers();
  // The value set for `id`, or nullptr.
  const cudaLaunchAttributeValue* attribute(cudaLaunchAttributeID id) const;
  void set_attribute(cudaLaunchAttributeID id, const cudaLaunchAttributeValue& value);
  bool cooperative() const {
    const cudaLaunchAttributeValue* v = attribute(cudaLaunchAttributeCooperative);
    return v != nullptr && v->cooperative != 0;
  }

 private:
  std::vector<void*> pointers_;
};

// cudaMemcpy3DParms limited to linear memory (no CUDA arrays); a 1D copy has extent {bytes,1,1}.
struct MemcpyNodeOp {
  cudaMemcpy3DParms params{};
};

struct MemsetNodeOp {
  cudaMemsetParams params{};
};

struct HostNodeOp {
  cudaHostFn_t fn = nullptr;
  void* user_data = nullptr;
};

// The node's own child graph: a copy of the graph the program named (cudaGraphAddChildGraphNode,
// cudaGraphChildGraphOwnershipClone) or that graph itself, moved into the node
// (cudaGraphChildGraphOwnershipMove). Either way the GraphTable knows it by handle, so
// cudaGraphChildGraphNodeGetGraph can hand it out, and it goes with its node.
struct ChildGraphNodeOp {
  NestedGraph graph;
  cudaGraphChildGraphNodeOwnership ownership = cudaGraphChildGraphOwnershipClone;
};

struct EmptyNodeOp {};

struct EventWaitNodeOp {
  void* event = nullptr;
};

struct EventRecordNodeOp {
  void* event = nullptr;
};

// A conditional node (if, while, switch): when it runs, the value of its handle chooses which
// body graph runs, and how often (cudaConditionalNodeParams). The bodies are the node's own
// graphs, known to the GraphTable by handle so the program can fill them; an executable graph
// runs its copies, as they were at instantiation. `body_handles` is the array CUDA hands the
// program (phGraph_out), owned by the node; a copy points at the copy's bodies.
struct ConditionalNodeOp {
  ConditionalNodeOp() = default;
  // `size` empty bodies.
  ConditionalNodeOp(cudaGraphConditionalHandle h, cudaGraphConditionalNodeType t, unsigned size);
  ConditionalNodeOp(const ConditionalNodeOp& other);
  ConditionalNodeOp& operator=(const ConditionalNodeOp& other);
  // Moving keeps both vectors' buffers, so the handles stay those of the moved bodies.
  ConditionalNodeOp(ConditionalNodeOp&&) noexcept = default;
  ConditionalNodeOp& operator=(ConditionalNodeOp&&) noexcept = default;
  ~ConditionalNodeOp() = default;

  cudaGraphConditionalHandle handle = 0;
  cudaGraphConditionalNodeType type = cudaGraphCondTypeIf;
  std::vector<NestedGraph> bodies;
  std::vector<cudaGraph_t> body_handles;

 private:
  void point_handles_at_bodies();
};

// A memory-allocation node (cudaGraphAddMemAllocNode, cudaMallocAsync in a capture). Its
// address was reserved when the node was made and stays the node's for good; running the node
// maps the memory there (runtime_graph_memory.cpp). `params.accessDescs` is left null: the
// descriptors are kept in `access`, which GetParams hands out.
struct MemAllocNodeOp {
  cudaMemAllocNodeParams params{};
  std::vector<cudaMemAccessDesc> access;
};

// A memory-free node: running it frees the graph allocation at `address`.
struct MemFreeNodeOp {
  void* address = nullptr;
};

using NodeOp = std::variant<KernelNodeOp, MemcpyNodeOp, MemsetNodeOp, HostNodeOp, ChildGraphNodeOp, EmptyNodeOp,
                            EventWaitNodeOp, EventRecordNodeOp, ConditionalNodeOp, MemAllocNodeOp, MemFreeNodeOp>;

inline cudaGraphNodeType node_type(const NodeOp& op) {
  // The alternatives before the conditional are in cudaGraphNodeType order.
  if (std::holds_alternative<ConditionalNodeOp>(op)) return cudaGraphNodeTypeConditional;
  if (std::holds_alternative<MemAllocNodeOp>(op)) return cudaGraphNodeTypeMemAlloc;
  if (std::holds_alternative<MemFreeNodeOp>(op)) return cudaGraphNodeTypeMemFree;
  return static_cast<cudaGraphNodeType>(op.index());
}

// The graphs a node holds: its child graph or its conditional bodies (none for other nodes).
std::vector<Graph*> nested_graphs(const NodeOp& op);

// Whether the graph, or a graph nested in it, has a memory-allocation or memory-free node, which
// CUDA forbids cloning, nesting as a copied child graph and instantiating twice at once.
bool has_memory_nodes(const Graph& graph);
// The same of one node: the node itself or a graph it holds.
bool has_memory_nodes(const NodeOp& op);
// Whether the graph, or a graph nested in it, has a conditional node, which CUDA forbids cloning
// and nesting as a child graph.
bool has_conditional_nodes(const Graph& graph);
bool has_conditional_nodes(const NodeOp& op);
// The graph and every graph nested in it, at any depth, the graph first.
void collect_graphs(const Graph& graph, std::vector<const Graph*>& out);

// A 1D copy of `bytes` bytes as memcpy-node parameters.
MemcpyNodeOp memcpy_1d_op(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);

// A node's handle (cudaGraphNode_t) is its address, stable until the node or its graph goes.
struct GraphNode {
  size_t index = 0;  // position within its graph: creation order among the nodes still there
  // Never reused within the graph and kept by copies, so a node of an executable graph is found
  // from the node it was made from even after nodes before it were destroyed (index shifts).
  size_t id = 0;
  NodeOp op;
  // An executable graph's node may be disabled (cudaGraphNodeSetEnabled): it then runs as an
  // empty node.
  bool enabled = true;
};

class Graph {
 public:
  Graph() = default;
  // A deep copy: the same nodes (same indices) and edges at new addresses.
  Graph(const Graph& other);
  Graph& operator=(const Graph&) = delete;

  GraphNode& add(NodeOp op);
  // False when the edge exists already or names a node outside the graph.
  bool add_edge(size_t from, size_t to);
  // False when there is no such edge.
  bool remove_edge(size_t from, size_t to);
  // Removes the node at `index` and every edge into or out of it; the nodes after it move one
  // position down (their addresses, so their handles, stay).
  void remove(size_t index);
  // The position of the node with `id`; nullopt when the graph has none (destroyed, or made
  // after this copy was taken).
  std::optional<size_t> find(size_t id) const;
  bool owns(const GraphNode* node) const {
    return node != nullptr && node->index < nodes_.size() && nodes_[node->index].get() == node;
  }
  size_t size() const { return nodes_.size(); }
  GraphNode& node(size_t index) { return *nodes_[index]; }
  const GraphNode& node(size_t index) const { return *nodes_[index]; }
  // Edges (from, to) in the order they were added.
  const std::vector<std::pair<size_t, size_t>>& edges() const { return edges_; }
  std::vector<size_t> dependencies(size_t index) const;
  std::vector<size_t> dependents(size_t index) const;
  std::vector<size_t> roots() const;
  // Every node before the nodes that depend on it, ties by creation order; nullopt with a cycle.
  std::optional<std::vector<size_t>> topological_order() const;
  // Whether a path of edges leads from `from` to `to` (a node reaches itself).
  bool reaches(size_t from, size_t to) const;
  // The graph this one was cloned from (cudaGraphClone; only compared, it may be gone), or null.
  const Graph* cloned_from() const { return cloned_from_; }
  void set_cloned_from(const Graph* original) { cloned_from_ = original; }
  // The user objects the graph holds references to (cudaGraphRetainUserObject); copies of the
  // graph (clones, executable graphs) hold them too.
  UserObjectRefs& user_objects() { return user_objects_; }

 private:
  std::vector<std::unique_ptr<GraphNode>> nodes_;  // ids ascending
  std::vector<std::pair<size_t, size_t>> edges_;
  size_t next_id_ = 0;
  const Graph* cloned_from_ = nullptr;
  UserObjectRefs user_objects_;
};

}  // namespace lockstep::runtime
