// Runtime: graph memory nodes. An allocation node reserves its address when it is made and
// maps zero-filled memory there each time it runs; a free node (or cudaFree, cudaFreeAsync)
// unmaps it, so kernels that touch it afterwards fault as they would on a GPU.
#include "runtime/runtime.h"

namespace lockstep::runtime {

namespace {

uint64_t address_of(const void* p) { return reinterpret_cast<uint64_t>(p); }

// Where graph memory may live and who may reach it: device 0 only, read-write or no access.
cudaError_t check_location(const cudaMemLocation& location) {
  if (location.type != cudaMemLocationTypeDevice) return cudaErrorInvalidValue;
  return location.id == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}

cudaError_t check_alloc_params(const cudaMemAllocNodeParams& p) {
  if (p.bytesize == 0 || p.poolProps.allocType != cudaMemAllocationTypePinned) return cudaErrorInvalidValue;
  // Graph allocations cannot be shared with another process (CUDA: handleTypes must be none).
  if (p.poolProps.handleTypes != cudaMemHandleTypeNone) return cudaErrorInvalidValue;
  if (const cudaError_t e = check_location(p.poolProps.location); e != cudaSuccess) return e;
  if (p.accessDescCount > 0 && p.accessDescs == nullptr) return cudaErrorInvalidValue;
  for (size_t i = 0; i < p.accessDescCount; ++i) {
    if (const cudaError_t e = check_location(p.accessDescs[i].location); e != cudaSuccess) return e;
    const cudaMemAccessFlags flags = p.accessDescs[i].flags;
    if (flags != cudaMemAccessFlagsProtNone && flags != cudaMemAccessFlagsProtReadWrite) return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

// Whether a free node of `graph` frees `address` already.
bool frees(const Graph& graph, void* address) {
  for (size_t i = 0; i < graph.size(); ++i)
    if (const auto* f = std::get_if<MemFreeNodeOp>(&graph.node(i).op); f != nullptr && f->address == address)
      return true;
  return false;
}

}  // namespace

cudaError_t Runtime::mem_alloc_node(MemAllocNodeOp& op, cudaMemAllocNodeParams& params) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (const cudaError_t e = check_alloc_params(params); e != cudaSuccess) return record(e);
  if (params.bytesize > options_.preset.global_memory) return record(cudaErrorMemoryAllocation);
  const uint64_t address = engine_.reserve(params.bytesize);
  graph_memory_.reserved(address, params.bytesize);
  MemAllocNodeOp made;
  made.params = params;
  made.params.accessDescs = nullptr;
  made.params.dptr = reinterpret_cast<void*>(address);
  made.access.assign(params.accessDescs, params.accessDescs + params.accessDescCount);
  op = std::move(made);
  params.dptr = op.params.dptr;
  return cudaSuccess;
}

cudaError_t Runtime::mem_free_node(MemFreeNodeOp& op, const Graph& graph, void* address) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (!graph_memory_.is_graph_allocation(address_of(address)) || frees(graph, address))
    return record(cudaErrorInvalidValue);
  op.address = address;
  return cudaSuccess;
}

cudaError_t Runtime::capture_malloc(void** pointer, size_t bytes, cudaMemPool_t pool, void* stream) {
  if (sticky_ != cudaSuccess) return sticky_;
  const MemPool* from = mem_pools_.find(pool);
  if (pointer == nullptr || from == nullptr) return record(cudaErrorInvalidValue);
  // The node allocates where the pool does; graph memory is the graph's own, so it does not
  // count against the pool (CUDA keeps graph allocations apart from the pools too).
  cudaMemAllocNodeParams params{};
  params.poolProps.allocType = cudaMemAllocationTypePinned;
  params.poolProps.location = from->props.location;
  params.bytesize = bytes;
  MemAllocNodeOp op;
  if (const cudaError_t e = mem_alloc_node(op, params); e != cudaSuccess) return e;
  if (const cudaError_t e = capture(stream, std::move(op)); e != cudaSuccess) return e;
  *pointer = params.dptr;
  return cudaSuccess;
}

cudaError_t Runtime::capture_free(void* pointer, void* stream) {
  if (sticky_ != cudaSuccess) return sticky_;
  const CaptureSequence* s = captures_.sequence(stream);
  if (s == nullptr) return record(cudaErrorIllegalState);
  MemFreeNodeOp op;
  if (const cudaError_t e = mem_free_node(op, *s->graph, pointer); e != cudaSuccess) return e;
  return capture(stream, op);
}

cudaError_t Runtime::run_mem_alloc(const MemAllocNodeOp& op) {
  const uint64_t address = address_of(op.params.dptr), bytes = op.params.bytesize;
  // Live already: another graph with the same node (cudaGraphExecUpdate copies) ran it.
  if (graph_memory_.live(address)) return record(cudaErrorInvalidValue);
  if (bytes > options_.preset.global_memory - allocated_bytes_) return record(cudaErrorMemoryAllocation);
  engine_.malloc_at(address, bytes);
  allocations_[address] = bytes;
  device_ranges_[address] = bytes;
  allocated_bytes_ += bytes;
  graph_memory_.mapped(address);
  return cudaSuccess;
}

cudaError_t Runtime::launch_graph(const GraphExec& exec) {
  if (sticky_ != cudaSuccess) return sticky_;
  for (size_t i = 0; i < exec.graph.size(); ++i) {
    const auto* alloc = std::get_if<MemAllocNodeOp>(&exec.graph.node(i).op);
    if (alloc == nullptr || !graph_memory_.live(address_of(alloc->params.dptr))) continue;
    if (!(exec.flags & cudaGraphInstantiateFlagAutoFreeOnLaunch)) return record(cudaErrorInvalidValue);
    if (const cudaError_t e = free(alloc->params.dptr); e != cudaSuccess) return e;
  }
  assign_conditional_defaults(exec);
  return run_graph(exec.graph, exec.order);
}

}  // namespace lockstep::runtime
