// Graph memory nodes: memory that a graph allocates and frees itself. An explicitly built
// graph (allocation -> kernel writing it -> kernel reading it into an output -> free), a stream
// capture of cudaMallocAsync, kernels and cudaFreeAsync, a graph whose allocation outlives the
// launch until cudaFree (relaunching before that fails), and cudaGraphInstantiateFlagAutoFreeOnLaunch.
// Every result is checked against a CPU reference.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

constexpr int kCount = 1000;

__global__ void fill(float* buffer, const float* scale, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) buffer[i] = *scale * static_cast<float>(i % 37) + 1.0f;
}

__global__ void square_into(float* out, const float* buffer, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = buffer[i] * buffer[i] - static_cast<float>(i % 5);
}

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}

void check_call(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::printf("FAILED: %s: %s\n", what, cudaGetErrorName(e));
    ++failures;
  }
}

float expected(float scale, int i) {
  const float v = scale * static_cast<float>(i % 37) + 1.0f;
  return v * v - static_cast<float>(i % 5);
}

// Mismatches between `out` (device) and the CPU reference for `scale`.
int mismatches(const float* out, float scale) {
  std::vector<float> host(kCount);
  check_call(cudaMemcpy(host.data(), out, sizeof(float) * kCount, cudaMemcpyDeviceToHost), "copy back");
  int bad = 0;
  for (int i = 0; i < kCount; ++i)
    if (host[i] != expected(scale, i)) ++bad;
  check(bad == 0, "output matches the CPU reference");
  return bad;
}

unsigned long long graph_mem(cudaGraphMemAttributeType attribute) {
  unsigned long long value = ~0ull;
  check_call(cudaDeviceGetGraphMemAttribute(0, attribute, &value), "cudaDeviceGetGraphMemAttribute");
  return value;
}

cudaMemAllocNodeParams alloc_params(size_t bytes) {
  cudaMemAllocNodeParams p = {};
  p.poolProps.allocType = cudaMemAllocationTypePinned;
  p.poolProps.location.type = cudaMemLocationTypeDevice;
  p.poolProps.location.id = 0;
  p.bytesize = bytes;
  return p;
}

cudaGraphNode_t add_kernel(cudaGraph_t graph, cudaGraphNode_t after, void* func, void** args) {
  cudaKernelNodeParams p = {};
  p.func = func;
  p.gridDim = dim3((kCount + 127) / 128);
  p.blockDim = dim3(128);
  p.kernelParams = args;
  cudaGraphNode_t node = nullptr;
  check_call(cudaGraphAddKernelNode(&node, graph, &after, 1, &p), "cudaGraphAddKernelNode");
  return node;
}

void set_scale(float* scale, float value) {
  check_call(cudaMemcpy(scale, &value, sizeof value, cudaMemcpyHostToDevice), "set scale");
}

// allocation -> fill -> square_into -> free, launched twice with different scales.
void explicit_graph(float* scale, float* out) {
  cudaGraph_t graph = nullptr;
  check_call(cudaGraphCreate(&graph, 0), "cudaGraphCreate");
  cudaMemAllocNodeParams p = alloc_params(sizeof(float) * kCount);
  cudaGraphNode_t alloc = nullptr;
  check_call(cudaGraphAddMemAllocNode(&alloc, graph, nullptr, 0, &p), "cudaGraphAddMemAllocNode");
  float* buffer = static_cast<float*>(p.dptr);
  int n = kCount;
  void* fill_args[] = {&buffer, &scale, &n};
  cudaGraphNode_t filled = add_kernel(graph, alloc, reinterpret_cast<void*>(fill), fill_args);
  void* square_args[] = {&out, &buffer, &n};
  cudaGraphNode_t squared = add_kernel(graph, filled, reinterpret_cast<void*>(square_into), square_args);
  cudaGraphNode_t freed = nullptr;
  check_call(cudaGraphAddMemFreeNode(&freed, graph, &squared, 1, buffer), "cudaGraphAddMemFreeNode");

  cudaGraphNodeType alloc_type = cudaGraphNodeTypeEmpty, free_type = cudaGraphNodeTypeEmpty;
  cudaGraphNodeGetType(alloc, &alloc_type);
  cudaGraphNodeGetType(freed, &free_type);
  cudaMemAllocNodeParams got = {};
  check_call(cudaGraphMemAllocNodeGetParams(alloc, &got), "cudaGraphMemAllocNodeGetParams");
  void* free_address = nullptr;
  check_call(cudaGraphMemFreeNodeGetParams(freed, &free_address), "cudaGraphMemFreeNodeGetParams");
  check(buffer != nullptr && got.dptr == buffer && free_address == buffer, "node parameters");
  check(alloc_type == cudaGraphNodeTypeMemAlloc && free_type == cudaGraphNodeTypeMemFree, "node types");
  std::printf("explicit: address given: %s, types %d %d, params %zu bytes at the same address: %s, free node: %s\n",
              buffer != nullptr ? "yes" : "no", alloc_type, free_type, got.bytesize,
              got.dptr == buffer ? "yes" : "no", free_address == buffer ? "yes" : "no");

  cudaGraphExec_t exec = nullptr;
  check_call(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  const float scales[] = {0.5f, 2.0f};
  for (int run = 0; run < 2; ++run) {
    set_scale(scale, scales[run]);
    check_call(cudaGraphLaunch(exec, 0), "cudaGraphLaunch");
    check_call(cudaDeviceSynchronize(), "synchronize");
    std::printf("explicit run %d: %d mismatches, graph memory in use %llu\n", run + 1, mismatches(out, scales[run]),
                graph_mem(cudaGraphMemAttrUsedMemCurrent));
  }
  // CUDA's restrictions on graphs with memory nodes: no clone, one instantiation at a time,
  // not a child graph.
  cudaGraph_t clone = nullptr, parent = nullptr;
  cudaGraphExec_t second = nullptr;
  cudaGraphNode_t child = nullptr;
  const cudaError_t cloned = cudaGraphClone(&clone, graph);
  const cudaError_t instantiated = cudaGraphInstantiate(&second, graph, 0);
  cudaGraphCreate(&parent, 0);
  const cudaError_t nested = cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, graph);
  cudaGetLastError();
  check(cloned == cudaErrorInvalidValue && instantiated == cudaErrorInvalidValue && nested == cudaErrorInvalidValue,
        "restrictions");
  std::printf("explicit: clone %s, second instantiation %s, child graph %s\n", cudaGetErrorName(cloned),
              cudaGetErrorName(instantiated), cudaGetErrorName(nested));
  cudaGraphDestroy(parent);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

// cudaMallocAsync, two kernels and cudaFreeAsync captured from a stream, launched three times.
void captured_graph(float* scale, float* out) {
  cudaStream_t stream = nullptr;
  check_call(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  cudaGraph_t graph = nullptr;
  check_call(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "cudaStreamBeginCapture");
  float* buffer = nullptr;
  check_call(cudaMallocAsync(reinterpret_cast<void**>(&buffer), sizeof(float) * kCount, stream), "cudaMallocAsync");
  const bool address_at_once = buffer != nullptr;
  fill<<<(kCount + 127) / 128, 128, 0, stream>>>(buffer, scale, kCount);
  square_into<<<(kCount + 127) / 128, 128, 0, stream>>>(out, buffer, kCount);
  check_call(cudaFreeAsync(buffer, stream), "cudaFreeAsync");
  check_call(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");

  size_t count = 0;
  cudaGraphGetNodes(graph, nullptr, &count);
  std::vector<cudaGraphNode_t> nodes(count);
  cudaGraphGetNodes(graph, nodes.data(), &count);
  cudaGraphNodeType first = cudaGraphNodeTypeEmpty, last = cudaGraphNodeTypeEmpty;
  if (count > 0) {
    cudaGraphNodeGetType(nodes.front(), &first);
    cudaGraphNodeGetType(nodes.back(), &last);
  }
  check(address_at_once && count == 4 && first == cudaGraphNodeTypeMemAlloc && last == cudaGraphNodeTypeMemFree,
        "captured graph");
  std::printf("captured: address at once: %s, %zu nodes, first type %d, last type %d\n",
              address_at_once ? "yes" : "no", count, first, last);

  cudaGraphExec_t exec = nullptr;
  check_call(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  const float scales[] = {1.0f, -3.0f, 0.25f};
  for (int run = 0; run < 3; ++run) {
    set_scale(scale, scales[run]);
    check_call(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
    check_call(cudaStreamSynchronize(stream), "synchronize");
    std::printf("captured run %d: %d mismatches\n", run + 1, mismatches(out, scales[run]));
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

// allocation -> fill, no free node: the memory outlives the launch.
cudaGraph_t unfreed_graph(float* scale, float** buffer_out) {
  cudaGraph_t graph = nullptr;
  check_call(cudaGraphCreate(&graph, 0), "cudaGraphCreate");
  cudaMemAllocNodeParams p = alloc_params(sizeof(float) * kCount);
  cudaGraphNode_t alloc = nullptr;
  check_call(cudaGraphAddMemAllocNode(&alloc, graph, nullptr, 0, &p), "cudaGraphAddMemAllocNode");
  float* buffer = static_cast<float*>(p.dptr);
  int n = kCount;
  void* fill_args[] = {&buffer, &scale, &n};  // copied when the node is made
  add_kernel(graph, alloc, reinterpret_cast<void*>(fill), fill_args);
  *buffer_out = buffer;
  return graph;
}

// The allocation's contents as square_into would see them, checked on the host.
int buffer_mismatches(const float* buffer, float scale) {
  std::vector<float> host(kCount);
  check_call(cudaMemcpy(host.data(), buffer, sizeof(float) * kCount, cudaMemcpyDeviceToHost), "copy buffer");
  int bad = 0;
  for (int i = 0; i < kCount; ++i)
    if (host[i] != scale * static_cast<float>(i % 37) + 1.0f) ++bad;
  check(bad == 0, "graph allocation matches the CPU reference");
  return bad;
}

void unfreed_allocation(float* scale) {
  float* buffer = nullptr;
  cudaGraph_t graph = unfreed_graph(scale, &buffer);
  cudaGraphExec_t exec = nullptr;
  check_call(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  set_scale(scale, 3.0f);
  check_call(cudaGraphLaunch(exec, 0), "cudaGraphLaunch");
  cudaDeviceSynchronize();
  std::printf("unfreed: after launch %d mismatches, in use %llu\n", buffer_mismatches(buffer, 3.0f),
              graph_mem(cudaGraphMemAttrUsedMemCurrent));
  const cudaError_t again = cudaGraphLaunch(exec, 0);
  const cudaError_t last = cudaGetLastError();
  check(again == cudaErrorInvalidValue, "relaunch before cudaFree fails");
  std::printf("unfreed: relaunch before cudaFree %s (last error %s)\n", cudaGetErrorName(again),
              cudaGetErrorName(last));
  check_call(cudaFree(buffer), "cudaFree");
  std::printf("unfreed: after cudaFree in use %llu\n", graph_mem(cudaGraphMemAttrUsedMemCurrent));
  set_scale(scale, 4.0f);
  check_call(cudaGraphLaunch(exec, 0), "relaunch after cudaFree");
  cudaDeviceSynchronize();
  std::printf("unfreed: relaunch after cudaFree %d mismatches, same address\n", buffer_mismatches(buffer, 4.0f));
  check_call(cudaFreeAsync(buffer, 0), "cudaFreeAsync");
  cudaGraphExecDestroy(exec);

  // The same graph again, instantiated to free its allocation itself at each relaunch.
  check_call(cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch), "instantiate auto-free");
  const float scales[] = {5.0f, 6.0f, 7.0f};
  int bad = 0;
  for (float s : scales) {
    set_scale(scale, s);
    check_call(cudaGraphLaunch(exec, 0), "auto-free launch");
    cudaDeviceSynchronize();
    bad += buffer_mismatches(buffer, s);
  }
  std::printf("auto-free: 3 launches, %d mismatches, in use %llu, high %llu\n", bad,
              graph_mem(cudaGraphMemAttrUsedMemCurrent), graph_mem(cudaGraphMemAttrUsedMemHigh));
  check_call(cudaFree(buffer), "cudaFree");
  check_call(cudaDeviceGraphMemTrim(0), "cudaDeviceGraphMemTrim");
  std::printf("auto-free: after cudaFree and trim, reserved %llu\n", graph_mem(cudaGraphMemAttrReservedMemCurrent));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

// The generic cudaGraphAddNode makes the same nodes; cudaMallocFromPoolAsync captures one too.
void generic_nodes_and_pools(float* scale, float* out) {
  cudaGraph_t graph = nullptr;
  check_call(cudaGraphCreate(&graph, 0), "cudaGraphCreate");
  cudaGraphNodeParams alloc = {};
  alloc.type = cudaGraphNodeTypeMemAlloc;
  alloc.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.alloc.bytesize = sizeof(float) * kCount;
  cudaGraphNode_t alloc_node = nullptr;
  check_call(cudaGraphAddNode(&alloc_node, graph, nullptr, nullptr, 0, &alloc), "cudaGraphAddNode alloc");
  float* buffer = static_cast<float*>(alloc.alloc.dptr);
  int n = kCount;
  void* fill_args[] = {&buffer, &scale, &n};
  cudaGraphNode_t filled = add_kernel(graph, alloc_node, reinterpret_cast<void*>(fill), fill_args);
  void* square_args[] = {&out, &buffer, &n};
  cudaGraphNode_t squared = add_kernel(graph, filled, reinterpret_cast<void*>(square_into), square_args);
  cudaGraphNodeParams free_params = {};
  free_params.type = cudaGraphNodeTypeMemFree;
  free_params.free.dptr = buffer;
  cudaGraphNode_t free_node = nullptr;
  check_call(cudaGraphAddNode(&free_node, graph, &squared, nullptr, 1, &free_params), "cudaGraphAddNode free");
  cudaGraphExec_t exec = nullptr;
  check_call(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  set_scale(scale, 1.5f);
  check_call(cudaGraphLaunch(exec, 0), "cudaGraphLaunch");
  cudaDeviceSynchronize();
  const int generic_bad = mismatches(out, 1.5f);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);

  cudaMemPool_t pool = nullptr;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  check_call(cudaMemPoolCreate(&pool, &props), "cudaMemPoolCreate");
  cudaStream_t stream = nullptr;
  check_call(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  check_call(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "cudaStreamBeginCapture");
  check_call(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&buffer), sizeof(float) * kCount, pool, stream),
             "cudaMallocFromPoolAsync");
  fill<<<(kCount + 127) / 128, 128, 0, stream>>>(buffer, scale, kCount);
  square_into<<<(kCount + 127) / 128, 128, 0, stream>>>(out, buffer, kCount);
  check_call(cudaFreeAsync(buffer, stream), "cudaFreeAsync");
  check_call(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
  check_call(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  set_scale(scale, -0.5f);
  check_call(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
  cudaStreamSynchronize(stream);
  std::printf("generic nodes: %d mismatches; from a pool: %d mismatches\n", generic_bad, mismatches(out, -0.5f));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  cudaMemPoolDestroy(pool);
}

}  // namespace

int main() {
  float* scale = nullptr;
  float* out = nullptr;
  check_call(cudaMalloc(&scale, sizeof(float)), "cudaMalloc");
  check_call(cudaMalloc(&out, sizeof(float) * kCount), "cudaMalloc");
  explicit_graph(scale, out);
  captured_graph(scale, out);
  unfreed_allocation(scale);
  generic_nodes_and_pools(scale, out);
  cudaFree(scale);
  cudaFree(out);
  std::printf(failures == 0 ? "PASSED\n" : "FAILED\n");
  return failures == 0 ? 0 : 1;
}
