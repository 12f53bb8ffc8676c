// Runtime: CUDA graphs. Kernel nodes copy their arguments when made; launching a graph runs
// its nodes one after another in topological order, each doing what its stream operation does
// (every operation completes when issued). Stream capture records those operations as nodes.
#include <algorithm>
#include <cstring>

#include "fmt/format.h"
#include "runtime/runtime.h"

namespace lockstep::runtime {

namespace {

// The `extra` launch-parameter array: {CU_LAUNCH_PARAM_BUFFER_POINTER, buffer,
// CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END} in any order (cuda.h's values).
constexpr uintptr_t kExtraEnd = 0, kExtraBufferPointer = 1, kExtraBufferSize = 2;

bool packed_buffer(void** extra, const uint8_t*& buffer, size_t& bytes) {
  bool have_size = false;
  for (size_t i = 0; reinterpret_cast<uintptr_t>(extra[i]) != kExtraEnd; i += 2) {
    const auto key = reinterpret_cast<uintptr_t>(extra[i]);
    if (key == kExtraBufferPointer) {
      buffer = static_cast<const uint8_t*>(extra[i + 1]);
    } else if (key == kExtraBufferSize) {
      bytes = *static_cast<const size_t*>(extra[i + 1]);
      have_size = true;
    } else {
      return false;
    }
  }
  return buffer != nullptr && have_size;
}

}  // namespace

cudaError_t Runtime::packed_arguments(const void* host_fun, void** extra, std::vector<void*>& args) {
  const KernelRecord* k = nullptr;
  ModuleId module{};
  cudaError_t error = cudaSuccess;
  const KernelInfo* info = loaded_kernel(host_fun, k, module, error);
  if (info == nullptr) return record(error);
  args.clear();
  if (info->params.empty()) return cudaSuccess;
  const uint8_t* buffer = nullptr;
  size_t buffer_bytes = 0;
  if (extra == nullptr || !packed_buffer(extra, buffer, buffer_bytes)) return record(cudaErrorInvalidValue);
  for (const KernelParamInfo& p : info->params) {
    if (uint64_t{p.offset} + p.size > buffer_bytes) return record(cudaErrorInvalidValue);
    args.push_back(const_cast<uint8_t*>(buffer + p.offset));
  }
  return cudaSuccess;
}

cudaError_t Runtime::kernel_node(KernelNodeOp& op, const void* host_fun, Dim3 grid, Dim3 block, size_t shared,
                                 void** args, void** extra) {
  const KernelRecord* k = nullptr;
  ModuleId module{};
  cudaError_t error = cudaSuccess;
  const KernelInfo* info = loaded_kernel(host_fun, k, module, error);
  if (info == nullptr) return record(error);
  if ((args == nullptr) == (extra == nullptr) && !info->params.empty()) return record(cudaErrorInvalidValue);
  std::vector<void*> unpacked;
  if (args == nullptr) {
    if (cudaError_t e = packed_arguments(host_fun, extra, unpacked); e != cudaSuccess) return e;
    args = unpacked.data();
  }
  KernelNodeOp made;
  made.host_fun = host_fun;
  made.grid = grid;
  made.block = block;
  made.shared = shared;
  for (size_t i = 0; i < info->params.size(); ++i) {
    const auto* from = static_cast<const uint8_t*>(args[i]);
    if (from == nullptr) return record(cudaErrorInvalidValue);
    made.args.emplace_back(from, from + info->params[i].size);
  }
  made.attributes = std::move(op.attributes);  // new parameters keep the node's attributes
  op = std::move(made);
  return cudaSuccess;
}

cudaError_t Runtime::capture(void* stream, NodeOp op) {
  const CaptureSequence* s = captures_.sequence(stream);
  if (s == nullptr) return record(cudaErrorIllegalState);
  if (s->invalidated) return record(cudaErrorStreamCaptureInvalidated);
  std::vector<const void*> dependencies(captures_.dependencies(stream).begin(), captures_.dependencies(stream).end());
  GraphNode* node = nullptr;
  if (cudaError_t e = graph_table_.add_node(*s->graph, std::move(op), dependencies, node); e != cudaSuccess)
    return record(e);
  captures_.advance(stream, *node);
  return cudaSuccess;
}

cudaError_t Runtime::check_capture_allows(const char* function) {
  if (!captures_.prohibit_unsafe_call()) return cudaSuccess;
  print(fmt::format("{} is not permitted while a stream captures; the capture is invalidated", function));
  return record(cudaErrorStreamCaptureUnsupported);
}

cudaError_t Runtime::run_graph(const Graph& graph, const std::vector<size_t>& order) {
  if (sticky_ != cudaSuccess) return sticky_;
  for (size_t index : order)
    if (cudaError_t e = run_node(graph.node(index)); e != cudaSuccess) return e;
  return cudaSuccess;
}

cudaError_t Runtime::run_node(const GraphNode& node) {
  if (!node.enabled) return cudaSuccess;
  if (const auto* k = std::get_if<KernelNodeOp>(&node.op)) {
    std::vector<void*> args;
    for (const std::vector<uint8_t>& a : k->args) args.push_back(const_cast<uint8_t*>(a.data()));
    if (k->cooperative()) return launch_cooperative(k->host_fun, k->grid, k->block, args.data(), k->shared);
    return launch(k->host_fun, k->grid, k->block, args.data(), k->shared);
  }
  if (const auto* c = std::get_if<MemcpyNodeOp>(&node.op)) {
    const cudaMemcpy3DParms& p = c->params;
    const bool arrays = p.srcArray != nullptr || p.dstArray != nullptr;
    const bool one_row = !arrays && p.extent.height == 1 && p.extent.depth == 1 && p.srcPos.y == 0 && p.srcPos.z == 0 &&
                         p.dstPos.y == 0 && p.dstPos.z == 0;
    if (!one_row) return memcpy_3d(p);
    return memcpy(static_cast<char*>(p.dstPtr.ptr) + p.dstPos.x, static_cast<const char*>(p.srcPtr.ptr) + p.srcPos.x,
                  p.extent.width, p.kind);
  }
  if (const auto* m = std::get_if<MemsetNodeOp>(&node.op)) return run_memset(m->params);
  if (const auto* h = std::get_if<HostNodeOp>(&node.op)) {
    h->fn(h->user_data);
    return cudaSuccess;
  }
  if (const auto* g = std::get_if<ChildGraphNodeOp>(&node.op)) {
    std::optional<std::vector<size_t>> order = g->graph->topological_order();
    return order ? run_graph(*g->graph, *order) : record(cudaErrorInvalidValue);
  }
  if (const auto* r = std::get_if<EventRecordNodeOp>(&node.op))
    return record_event(r->event) ? cudaSuccess : record(cudaErrorInvalidResourceHandle);
  if (const auto* c = std::get_if<ConditionalNodeOp>(&node.op)) return run_conditional(*c);
  if (const auto* a = std::get_if<MemAllocNodeOp>(&node.op)) return run_mem_alloc(*a);
  if (const auto* f = std::get_if<MemFreeNodeOp>(&node.op)) return free(f->address);
  return cudaSuccess;  // empty and event-wait nodes: everything before them has completed
}

cudaError_t Runtime::run_conditional(const ConditionalNodeOp& op) {
  // The value is read when the node runs, after every node before it has completed.
  auto value = [&] {
    uint32_t v = 0;
    engine_.copy_to_host(&v, op.handle, sizeof v);
    return v;
  };
  auto run_body = [&](const Graph& body) {
    std::optional<std::vector<size_t>> order = body.topological_order();
    return order ? run_graph(body, *order) : record(cudaErrorInvalidValue);
  };
  switch (op.type) {
    case cudaGraphCondTypeIf: {
      const uint32_t v = value();
      if (v != 0) return run_body(*op.bodies[0]);
      return op.bodies.size() == 2 ? run_body(*op.bodies[1]) : cudaSuccess;
    }
    case cudaGraphCondTypeWhile:
      while (value() != 0)
        if (cudaError_t e = run_body(*op.bodies[0]); e != cudaSuccess) return e;
      return cudaSuccess;
    case cudaGraphCondTypeSwitch: {
      const uint32_t v = value();
      return v < op.bodies.size() ? run_body(*op.bodies[v]) : cudaSuccess;
    }
  }
  return record(cudaErrorInvalidValue);
}

cudaError_t Runtime::create_conditional(cudaGraphConditionalHandle& handle, const Graph& graph, unsigned default_value,
                                        unsigned flags) {
  if (flags & ~unsigned{cudaGraphCondAssignDefault}) return record(cudaErrorInvalidValue);
  const uint64_t address = engine_.malloc(sizeof(uint32_t));
  const uint32_t value = default_value;
  engine_.copy_to_device(address, &value, sizeof value);
  conditionals_[address] = ConditionalHandle{&graph, default_value, flags};
  handle = address;
  return cudaSuccess;
}

void Runtime::assign_conditional_defaults(const GraphExec& exec) {
  for (const auto& [address, h] : conditionals_) {
    if (!(h.flags & cudaGraphCondAssignDefault)) continue;
    if (std::find(exec.sources.begin(), exec.sources.end(), h.graph) == exec.sources.end()) continue;
    const uint32_t value = h.default_value;
    engine_.copy_to_device(address, &value, sizeof value);
  }
}

cudaError_t Runtime::run_memset(const cudaMemsetParams& p) {
  if (p.elementSize == 1) {
    const int value = static_cast<int>(p.value & 0xffu);
    if (p.height <= 1) return memset(p.dst, value, p.width);
    return memset_2d(p.dst, p.pitch, value, p.width, p.height);
  }
  // 2- and 4-byte elements: the pattern is written by a host-to-device copy.
  std::vector<uint8_t> row(p.width * p.elementSize);
  for (size_t i = 0; i < p.width; ++i) std::memcpy(row.data() + i * p.elementSize, &p.value, p.elementSize);
  for (size_t y = 0; y < std::max<size_t>(p.height, 1); ++y) {
    void* dst = static_cast<char*>(p.dst) + y * p.pitch;
    if (cudaError_t e = memcpy(dst, row.data(), row.size(), cudaMemcpyHostToDevice); e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

}  // namespace lockstep::runtime
