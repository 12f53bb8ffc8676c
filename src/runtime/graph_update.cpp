// Pairing an updated graph with an executable graph's snapshot, as cudaGraphExecUpdate does.
#include "runtime/graph_update.h"

#include <deque>

namespace lockstep::runtime {
namespace {

GraphUpdatePlan refused(cudaGraphExecUpdateResult why, std::optional<size_t> node,
                        std::optional<size_t> from = std::nullopt) {
  GraphUpdatePlan plan;
  plan.result = why;
  plan.error_node = node;
  plan.error_from = from;
  return plan;
}

// The nodes nothing depends on, in creation order.
std::vector<size_t> exit_nodes(const Graph& g) {
  std::vector<bool> has_dependent(g.size(), false);
  for (const auto& edge : g.edges()) has_dependent[edge.first] = true;
  std::vector<size_t> out;
  for (size_t i = 0; i < g.size(); ++i)
    if (!has_dependent[i]) out.push_back(i);
  return out;
}

// CUDA's pairing: exit nodes in order, then each pair's dependencies in edge order. A
// dependency fails to match when either side is already paired with another node; the walk
// reports the first failure it meets, as CUDA reports one.
GraphUpdatePlan pair_nodes(const Graph& current, const Graph& updated) {
  const size_t n = updated.size();
  if (current.size() != n) return refused(cudaGraphExecUpdateErrorTopologyChanged, std::nullopt);
  const std::vector<size_t> exits_now = exit_nodes(updated), exits_was = exit_nodes(current);
  if (exits_now.size() > exits_was.size())
    return refused(cudaGraphExecUpdateErrorTopologyChanged, exits_now[exits_was.size()]);

  std::vector<std::optional<size_t>> partner(n);   // updated node -> current node
  std::vector<std::optional<size_t>> taken_by(n);  // current node -> updated node
  std::deque<size_t> todo;                         // paired updated nodes still to walk back from
  auto pair = [&](size_t now, size_t was) {
    if (partner[now]) return *partner[now] == was;
    if (taken_by[was]) return false;
    partner[now] = was;
    taken_by[was] = now;
    todo.push_back(now);
    return true;
  };
  // Fewer exits in `updated` leave some of the executable's exits unpaired; the walk then
  // runs out of partners and fails at a dependency.
  for (size_t i = 0; i < exits_now.size(); ++i) pair(exits_now[i], exits_was[i]);
  while (!todo.empty()) {
    const size_t now = todo.front();
    todo.pop_front();
    const std::vector<size_t> deps_now = updated.dependencies(now);
    const std::vector<size_t> deps_was = current.dependencies(*partner[now]);
    if (deps_now.size() != deps_was.size()) return refused(cudaGraphExecUpdateErrorTopologyChanged, now);
    for (size_t i = 0; i < deps_now.size(); ++i)
      if (!pair(deps_now[i], deps_was[i]))
        return refused(cudaGraphExecUpdateErrorTopologyChanged, now, deps_now[i]);
  }

  GraphUpdatePlan plan;
  plan.pairs.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    // Only a node on a cycle (no path to an exit) is never reached.
    if (!partner[i]) return refused(cudaGraphExecUpdateErrorTopologyChanged, i);
    plan.pairs.push_back(*partner[i]);
  }
  return plan;
}

// Whether the node `now` may take the place of `was` (same type): memory nodes keep their
// addresses, so another allocation or free cannot take their place; a conditional node keeps
// its parameters (CUDA: changing them is not supported); the graphs a node holds must pair as
// the whole graph must (CUDA's restrictions apply recursively).
cudaGraphExecUpdateResult same_node(const NodeOp& was, const NodeOp& now) {
  if (was.index() != now.index()) return cudaGraphExecUpdateErrorNodeTypeChanged;
  if (const auto* a = std::get_if<MemAllocNodeOp>(&was)) {
    const auto& b = std::get<MemAllocNodeOp>(now);
    if (a->params.dptr != b.params.dptr || a->params.bytesize != b.params.bytesize)
      return cudaGraphExecUpdateErrorParametersChanged;
  }
  if (const auto* f = std::get_if<MemFreeNodeOp>(&was); f != nullptr && f->address != std::get<MemFreeNodeOp>(now).address)
    return cudaGraphExecUpdateErrorParametersChanged;
  if (const auto* c = std::get_if<ConditionalNodeOp>(&was)) {
    const auto& d = std::get<ConditionalNodeOp>(now);
    if (c->handle != d.handle || c->type != d.type || c->bodies.size() != d.bodies.size())
      return cudaGraphExecUpdateErrorParametersChanged;
  }
  const std::vector<Graph*> inner_was = nested_graphs(was), inner_now = nested_graphs(now);
  for (size_t i = 0; i < inner_was.size(); ++i)
    if (const GraphUpdatePlan inner = plan_graph_update(*inner_was[i], *inner_now[i]); !inner.ok()) return inner.result;
  return cudaGraphExecUpdateSuccess;
}

}  // namespace

GraphUpdatePlan plan_graph_update(const Graph& current, const Graph& updated) {
  GraphUpdatePlan plan = pair_nodes(current, updated);
  if (!plan.ok()) return plan;
  // The topology holds as a whole before any node is compared; then nodes in creation order.
  for (size_t i = 0; i < updated.size(); ++i)
    if (const cudaGraphExecUpdateResult why = same_node(current.node(plan.pairs[i]).op, updated.node(i).op);
        why != cudaGraphExecUpdateSuccess)
      return refused(why, i);
  return plan;
}

}  // namespace lockstep::runtime
