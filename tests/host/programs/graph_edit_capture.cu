// Editing a graph as a program would: two kernel nodes built explicitly (fill, then scale),
// a saxpy kernel and a copy back to the host captured into the same graph after them with
// cudaStreamBeginCaptureToGraph, then the scale node dropped with cudaGraphDestroyNode and its
// neighbours linked again. The executable made before the edit keeps scaling; the one made
// after does not. Both are checked against a CPU reference.
#include <cstdio>

#include <cuda_runtime.h>

constexpr int kN = 1000;
constexpr float kScale = 3.0f;
constexpr float kA = 0.5f;

__global__ void fill(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = static_cast<float>(i % 17) - 4.0f;
}

__global__ void scale(float* x, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

__global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

cudaGraphNode_t add_kernel(cudaGraph_t graph, const cudaGraphNode_t* after, size_t count, void* func, void** args) {
  cudaKernelNodeParams p = {};
  p.func = func;
  p.gridDim = dim3((kN + 127) / 128);
  p.blockDim = dim3(128);
  p.kernelParams = args;
  cudaGraphNode_t node = nullptr;
  cudaGraphAddKernelNode(&node, graph, after, count, &p);
  return node;
}

// Mismatches of `out` against the CPU: y = 1 + kA * x, x = fill (times kScale when scaled).
int mismatches(const float* out, bool scaled) {
  int wrong = 0;
  for (int i = 0; i < kN; ++i) {
    const float x = (static_cast<float>(i % 17) - 4.0f) * (scaled ? kScale : 1.0f);
    if (out[i] != kA * x + 1.0f) ++wrong;
  }
  return wrong;
}

// Launches `exec` with y reset to 1 and returns the mismatches of what it copied back.
int run(cudaGraphExec_t exec, cudaStream_t stream, float* y, float* host, bool scaled) {
  for (int i = 0; i < kN; ++i) host[i] = 1.0f;
  cudaMemcpy(y, host, kN * sizeof(float), cudaMemcpyHostToDevice);
  for (int i = 0; i < kN; ++i) host[i] = 0.0f;
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  return mismatches(host, scaled);
}

int main() {
  float *x = nullptr, *y = nullptr, *host = nullptr;
  cudaMalloc(&x, kN * sizeof(float));
  cudaMalloc(&y, kN * sizeof(float));
  cudaMallocHost(&host, kN * sizeof(float));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int n = kN;
  float s = kScale, a = kA;

  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  void* fill_args[] = {&x, &n};
  const cudaGraphNode_t filled = add_kernel(graph, nullptr, 0, reinterpret_cast<void*>(fill), fill_args);
  void* scale_args[] = {&x, &s, &n};
  const cudaGraphNode_t scaled = add_kernel(graph, &filled, 1, reinterpret_cast<void*>(scale), scale_args);

  // The rest is captured into the same graph, after the scale node.
  const cudaError_t begun =
      cudaStreamBeginCaptureToGraph(stream, graph, &scaled, nullptr, 1, cudaStreamCaptureModeGlobal);
  saxpy<<<(kN + 127) / 128, 128, 0, stream>>>(a, x, y, n);
  cudaMemcpyAsync(host, y, kN * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaGraph_t captured = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream, &captured);
  size_t nodes = 0, edges = 0, roots = 0;
  cudaGraphGetNodes(graph, nullptr, &nodes);
  cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges);
  cudaGraphGetRootNodes(graph, nullptr, &roots);
  std::printf("capture: begin %s, end %s, same graph: %s; %zu nodes, %zu edges, %zu root\n", cudaGetErrorName(begun),
              cudaGetErrorName(ended), captured == graph ? "yes" : "no", nodes, edges, roots);
  // The saxpy node is the scale node's one dependent.
  cudaGraphNode_t after_scale = nullptr;
  size_t dependents = 1;
  cudaGraphNodeGetDependentNodes(scaled, &after_scale, nullptr, &dependents);

  cudaGraphExec_t with_scale;
  cudaGraphInstantiate(&with_scale, graph, 0);
  const int first = run(with_scale, stream, y, host, true);
  std::printf("with scale: %d mismatches\n", first);

  // The handle is dead afterwards: using it again is undefined on CUDA (13.0 crashes).
  const cudaError_t destroyed = cudaGraphDestroyNode(scaled);
  cudaGraphGetNodes(graph, nullptr, &nodes);
  cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges);
  cudaGraphGetRootNodes(graph, nullptr, &roots);
  std::printf("destroy: %s; %zu nodes, %zu edges, %zu roots\n", cudaGetErrorName(destroyed), nodes, edges, roots);
  cudaGraphAddDependencies(graph, &filled, &after_scale, nullptr, 1);
  cudaGraphExec_t without_scale;
  cudaGraphInstantiate(&without_scale, graph, 0);
  const int second = run(without_scale, stream, y, host, false);
  const int earlier = run(with_scale, stream, y, host, true);
  std::printf("without scale: %d mismatches; the earlier executable still scales: %d mismatches\n", second, earlier);

  cudaGraph_t other;
  cudaGraphCreate(&other, 0);
  const cudaError_t legacy = cudaStreamBeginCaptureToGraph(cudaStreamLegacy, other, nullptr, nullptr, 0,
                                                           cudaStreamCaptureModeGlobal);
  cudaGetLastError();
  std::printf("legacy stream: %s\n", cudaGetErrorName(legacy));

  cudaGraphExecDestroy(with_scale);
  cudaGraphExecDestroy(without_scale);
  cudaGraphDestroy(graph);
  cudaGraphDestroy(other);
  cudaStreamDestroy(stream);
  cudaFreeHost(host);
  cudaFree(x);
  cudaFree(y);
  const bool ok = begun == cudaSuccess && ended == cudaSuccess && captured == graph && first == 0 &&
                  destroyed == cudaSuccess && second == 0 && earlier == 0 &&
                  legacy == cudaErrorStreamCaptureUnsupported;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
