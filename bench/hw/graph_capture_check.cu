// What a real GPU answers where CUDA's documentation is silent, for tests/cudart's
// graph_capture_to_graph_test: instantiating a graph that a stream is capturing into
// (cudaStreamBeginCaptureToGraph), in each capture mode, with each instantiate form; whether the
// refusal ends the capture; and a graph no stream captures into instantiating meanwhile.
//
//   nvcc -arch=sm_90 bench/hw/graph_capture_check.cu -o /tmp/graph_check && /tmp/graph_check
#include <cstdio>
#include <cuda_runtime.h>

namespace {

const char* mode_name(cudaStreamCaptureMode m) {
  return m == cudaStreamCaptureModeGlobal ? "global" : m == cudaStreamCaptureModeThreadLocal ? "thread-local" : "relaxed";
}

// Launches `exec` over zeroed bytes at `dst`, prints the first byte its memset wrote, destroys it.
void launch_and_show(cudaGraphExec_t exec, cudaStream_t stream, void* dst, const char* whose) {
  cudaMemset(dst, 0, 256);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  unsigned char first = 0;
  cudaMemcpy(&first, dst, 1, cudaMemcpyDeviceToHost);
  std::printf("%s memset wrote 0x%02x\n", whose, first);
  cudaGraphExecDestroy(exec);
}

void check_mode(cudaStreamCaptureMode mode, void* dst) {
  std::printf("## capture mode %s\n", mode_name(mode));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaGraph_t graph, other;
  cudaGraphCreate(&graph, 0);
  cudaGraphCreate(&other, 0);
  cudaGraphNode_t empty;
  cudaGraphAddEmptyNode(&empty, other, nullptr, 0);
  cudaError_t e = cudaStreamBeginCaptureToGraph(stream, graph, nullptr, nullptr, 0, mode);
  std::printf("begin capture to graph: %s\n", cudaGetErrorName(e));
  e = cudaMemsetAsync(dst, 0x22, 256, stream);
  std::printf("memset into the capture: %s\n", cudaGetErrorName(e));
  int untouched = 0;
  cudaGraphExec_t exec = reinterpret_cast<cudaGraphExec_t>(&untouched);
  e = cudaGraphInstantiate(&exec, graph, 0);
  std::printf("cudaGraphInstantiate during the capture: %s\n", cudaGetErrorName(e));
  std::printf("cudaGetLastError after it: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("exec untouched: %s\n", exec == reinterpret_cast<cudaGraphExec_t>(&untouched) ? "yes" : "no");
  e = cudaGraphInstantiateWithFlags(&exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  std::printf("cudaGraphInstantiateWithFlags during the capture: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaGraphInstantiateParams params{};
  params.result_out = cudaGraphInstantiateSuccess;
  e = cudaGraphInstantiateWithParams(&exec, graph, &params);
  std::printf("cudaGraphInstantiateWithParams during the capture: %s, result_out %d, errNode_out %s\n",
              cudaGetErrorName(e), static_cast<int>(params.result_out), params.errNode_out == nullptr ? "null" : "set");
  cudaGetLastError();
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  e = cudaStreamIsCapturing(stream, &status);
  std::printf("still capturing: %s, status %d\n", cudaGetErrorName(e), static_cast<int>(status));
  cudaGraphExec_t other_exec = nullptr;
  e = cudaGraphInstantiate(&other_exec, other, 0);
  std::printf("another graph instantiates meanwhile: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  if (e == cudaSuccess) cudaGraphExecDestroy(other_exec);
  e = cudaGraphDestroy(graph);
  std::printf("cudaGraphDestroy of the target during the capture: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaGraph_t ended = nullptr;
  e = cudaStreamEndCapture(stream, &ended);
  std::printf("end capture: %s, same graph: %s\n", cudaGetErrorName(e), ended == graph ? "yes" : "no");
  cudaGetLastError();
  if (e == cudaSuccess) {
    e = cudaGraphInstantiate(&exec, graph, 0);
    std::printf("instantiate after the capture: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) launch_and_show(exec, stream, dst, "the graph's");
    cudaGraphDestroy(graph);
  }
  cudaGraphDestroy(other);
  cudaStreamDestroy(stream);
}

// Relaxed mode, the capture into a conditional node's body: the parent graph, and the body on
// its own, instantiated while the body is the capture's target.
void check_conditional_body(void* dst) {
  std::printf("## relaxed capture into a conditional body\n");
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaGraph_t parent;
  cudaGraphCreate(&parent, 0);
  cudaGraphConditionalHandle handle;
  cudaError_t e = cudaGraphConditionalHandleCreate(&handle, parent, 1, cudaGraphCondAssignDefault);
  std::printf("handle: %s\n", cudaGetErrorName(e));
  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = handle;
  params.conditional.type = cudaGraphCondTypeIf;
  params.conditional.size = 1;
  cudaGraphNode_t node;
  e = cudaGraphAddNode(&node, parent, nullptr, nullptr, 0, &params);
  std::printf("conditional node: %s\n", cudaGetErrorName(e));
  cudaGraph_t body = params.conditional.phGraph_out[0];
  e = cudaStreamBeginCaptureToGraph(stream, body, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed);
  std::printf("begin capture to the body: %s\n", cudaGetErrorName(e));
  e = cudaMemsetAsync(dst, 0x33, 256, stream);
  std::printf("memset into the capture: %s\n", cudaGetErrorName(e));
  cudaGraphExec_t exec = nullptr;
  e = cudaGraphInstantiate(&exec, parent, 0);
  std::printf("instantiate the parent during the capture: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  if (e == cudaSuccess) cudaGraphExecDestroy(exec);
  e = cudaGraphInstantiate(&exec, body, 0);
  std::printf("instantiate the body during the capture: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  if (e == cudaSuccess) cudaGraphExecDestroy(exec);
  cudaGraph_t ended = nullptr;
  e = cudaStreamEndCapture(stream, &ended);
  std::printf("end capture: %s, same graph: %s\n", cudaGetErrorName(e), ended == body ? "yes" : "no");
  e = cudaGraphInstantiate(&exec, parent, 0);
  std::printf("instantiate the parent after: %s\n", cudaGetErrorName(e));
  if (e == cudaSuccess) launch_and_show(exec, stream, dst, "the body's");
  cudaGetLastError();
  cudaGraphDestroy(parent);
  cudaStreamDestroy(stream);
}

}  // namespace

int main() {
  void* dst = nullptr;
  if (cudaMalloc(&dst, 256) != cudaSuccess) {
    std::printf("no device\n");
    return 1;
  }
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  std::printf("# runtime %d, driver %d\n", runtime, driver);
  for (cudaStreamCaptureMode m : {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed})
    check_mode(m, dst);
  check_conditional_body(dst);
  cudaFree(dst);
  return 0;
}
