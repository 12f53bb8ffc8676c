#include "runtime/graph.h"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <queue>

namespace lockstep::runtime {

const cudaLaunchAttributeValue* KernelNodeOp::attribute(cudaLaunchAttributeID id) const {
  for (const cudaLaunchAttribute& a : attributes)
    if (a.id == id) return &a.val;
  return nullptr;
}

void KernelNodeOp::set_attribute(cudaLaunchAttributeID id, const cudaLaunchAttributeValue& value) {
  for (cudaLaunchAttribute& a : attributes) {
    if (a.id == id) {
      a.val = value;
      return;
    }
  }
  cudaLaunchAttribute a{};
  a.id = id;
  a.val = value;
  attributes.push_back(a);
}

void** KernelNodeOp::argument_pointers() {
  // Rebuilt at each call: a copied node must point into its own buffers.
  pointers_.clear();
  for (std::vector<uint8_t>& a : args) pointers_.push_back(a.data());
  return pointers_.data();
}

NestedGraph::NestedGraph() : graph_(std::make_unique<Graph>()) {}
NestedGraph::NestedGraph(std::unique_ptr<Graph> graph) : graph_(std::move(graph)) {}
NestedGraph::NestedGraph(const NestedGraph& other)
    : graph_(other.graph_ ? std::make_unique<Graph>(*other.graph_) : nullptr) {}
NestedGraph& NestedGraph::operator=(const NestedGraph& other) {
  if (this != &other) graph_ = other.graph_ ? std::make_unique<Graph>(*other.graph_) : nullptr;
  return *this;
}
NestedGraph::NestedGraph(NestedGraph&& other) noexcept = default;
NestedGraph& NestedGraph::operator=(NestedGraph&& other) noexcept = default;
NestedGraph::~NestedGraph() = default;

ConditionalNodeOp::ConditionalNodeOp(cudaGraphConditionalHandle h, cudaGraphConditionalNodeType t, unsigned size)
    : handle(h), type(t), bodies(size) {
  point_handles_at_bodies();
}

ConditionalNodeOp::ConditionalNodeOp(const ConditionalNodeOp& other)
    : handle(other.handle), type(other.type), bodies(other.bodies) {
  point_handles_at_bodies();
}

ConditionalNodeOp& ConditionalNodeOp::operator=(const ConditionalNodeOp& other) {
  if (this != &other) {
    handle = other.handle;
    type = other.type;
    bodies = other.bodies;
    point_handles_at_bodies();
  }
  return *this;
}

void ConditionalNodeOp::point_handles_at_bodies() {
  body_handles.clear();
  for (const NestedGraph& body : bodies) body_handles.push_back(reinterpret_cast<cudaGraph_t>(body.get()));
}

std::vector<Graph*> nested_graphs(const NodeOp& op) {
  if (const auto* c = std::get_if<ChildGraphNodeOp>(&op)) return {c->graph.get()};
  std::vector<Graph*> out;
  if (const auto* c = std::get_if<ConditionalNodeOp>(&op))
    for (const NestedGraph& body : c->bodies) out.push_back(body.get());
  return out;
}

namespace {

bool is_memory_node(const NodeOp& op) {
  return std::holds_alternative<MemAllocNodeOp>(op) || std::holds_alternative<MemFreeNodeOp>(op);
}

bool is_conditional_node(const NodeOp& op) { return std::holds_alternative<ConditionalNodeOp>(op); }

template <class Match>
bool any_node(const Graph& graph, Match match);

// Whether `op`, or a node of a graph it holds, satisfies `match`.
template <class Match>
bool any_op(const NodeOp& op, Match match) {
  if (match(op)) return true;
  for (const Graph* nested : nested_graphs(op))
    if (any_node(*nested, match)) return true;
  return false;
}

template <class Match>
bool any_node(const Graph& graph, Match match) {
  for (size_t i = 0; i < graph.size(); ++i)
    if (any_op(graph.node(i).op, match)) return true;
  return false;
}

}  // namespace

bool has_memory_nodes(const Graph& graph) { return any_node(graph, is_memory_node); }
bool has_memory_nodes(const NodeOp& op) { return any_op(op, is_memory_node); }
bool has_conditional_nodes(const Graph& graph) { return any_node(graph, is_conditional_node); }
bool has_conditional_nodes(const NodeOp& op) { return any_op(op, is_conditional_node); }

void collect_graphs(const Graph& graph, std::vector<const Graph*>& out) {
  out.push_back(&graph);
  for (size_t i = 0; i < graph.size(); ++i)
    for (const Graph* nested : nested_graphs(graph.node(i).op)) collect_graphs(*nested, out);
}

MemcpyNodeOp memcpy_1d_op(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  MemcpyNodeOp op;
  op.params.srcPtr = cudaPitchedPtr{const_cast<void*>(src), bytes, bytes, 1};
  op.params.dstPtr = cudaPitchedPtr{dst, bytes, bytes, 1};
  op.params.extent = cudaExtent{bytes, 1, 1};
  op.params.kind = kind;
  return op;
}

Graph::Graph(const Graph& other) : edges_(other.edges_), next_id_(other.next_id_), user_objects_(other.user_objects_) {
  nodes_.reserve(other.nodes_.size());
  for (const auto& n : other.nodes_) nodes_.push_back(std::make_unique<GraphNode>(*n));
}

GraphNode& Graph::add(NodeOp op) {
  nodes_.push_back(std::make_unique<GraphNode>(GraphNode{nodes_.size(), next_id_++, std::move(op)}));
  return *nodes_.back();
}

bool Graph::add_edge(size_t from, size_t to) {
  if (from >= nodes_.size() || to >= nodes_.size() || from == to) return false;
  const std::pair<size_t, size_t> edge{from, to};
  if (std::find(edges_.begin(), edges_.end(), edge) != edges_.end()) return false;
  edges_.push_back(edge);
  return true;
}

bool Graph::remove_edge(size_t from, size_t to) {
  auto it = std::find(edges_.begin(), edges_.end(), std::pair<size_t, size_t>{from, to});
  if (it == edges_.end()) return false;
  edges_.erase(it);
  return true;
}

void Graph::remove(size_t index) {
  nodes_.erase(nodes_.begin() + static_cast<std::ptrdiff_t>(index));
  for (size_t i = index; i < nodes_.size(); ++i) nodes_[i]->index = i;
  std::erase_if(edges_, [&](const auto& e) { return e.first == index || e.second == index; });
  for (auto& [from, to] : edges_) {
    if (from > index) --from;
    if (to > index) --to;
  }
}

std::optional<size_t> Graph::find(size_t id) const {
  auto it = std::lower_bound(nodes_.begin(), nodes_.end(), id,
                             [](const std::unique_ptr<GraphNode>& n, size_t wanted) { return n->id < wanted; });
  if (it == nodes_.end() || (*it)->id != id) return std::nullopt;
  return static_cast<size_t>(it - nodes_.begin());
}

std::vector<size_t> Graph::dependencies(size_t index) const {
  std::vector<size_t> out;
  for (const auto& [from, to] : edges_)
    if (to == index) out.push_back(from);
  return out;
}

std::vector<size_t> Graph::dependents(size_t index) const {
  std::vector<size_t> out;
  for (const auto& [from, to] : edges_)
    if (from == index) out.push_back(to);
  return out;
}

std::vector<size_t> Graph::roots() const {
  std::vector<bool> has_dependency(nodes_.size(), false);
  for (const auto& edge : edges_) has_dependency[edge.second] = true;
  std::vector<size_t> out;
  for (size_t i = 0; i < nodes_.size(); ++i)
    if (!has_dependency[i]) out.push_back(i);
  return out;
}

std::optional<std::vector<size_t>> Graph::topological_order() const {
  std::vector<size_t> pending(nodes_.size(), 0);  // unfinished dependencies per node
  std::vector<std::vector<size_t>> successors(nodes_.size());
  for (const auto& [from, to] : edges_) {
    ++pending[to];
    successors[from].push_back(to);
  }
  // The ready node created first runs next.
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < nodes_.size(); ++i)
    if (pending[i] == 0) ready.push(i);
  std::vector<size_t> order;
  order.reserve(nodes_.size());
  while (!ready.empty()) {
    const size_t next = ready.top();
    ready.pop();
    order.push_back(next);
    for (size_t s : successors[next])
      if (--pending[s] == 0) ready.push(s);
  }
  if (order.size() != nodes_.size()) return std::nullopt;  // the rest lie on a cycle
  return order;
}

bool Graph::reaches(size_t from, size_t to) const {
  std::vector<bool> seen(nodes_.size(), false);
  std::vector<size_t> todo{from};
  while (!todo.empty()) {
    const size_t n = todo.back();
    todo.pop_back();
    if (n == to) return true;
    if (n >= nodes_.size() || seen[n]) continue;
    seen[n] = true;
    for (const auto& [a, b] : edges_)
      if (a == n) todo.push_back(b);
  }
  return false;
}

}  // namespace lockstep::runtime
