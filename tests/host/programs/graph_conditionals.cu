// Conditional graph nodes (CUDA 12.3+) built with the generic cudaGraphAddNode: a while loop
// whose body kernel decides with cudaGraphSetConditional whether to run again (its handle
// reset to the default at every launch), an if/else chosen by a kernel, and a switch, some of
// whose values match no body. Checked against a CPU reference.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void reset(int* counter) { *counter = 0; }

// One iteration of the loop: counts, records the iteration, and continues while below `limit`.
__global__ void loop_body(cudaGraphConditionalHandle handle, int* counter, int* total, int limit) {
  const int c = ++*counter;
  ++*total;
  cudaGraphSetConditional(handle, c < limit ? 1 : 0);
}

__global__ void choose(cudaGraphConditionalHandle handle, const int* input) { cudaGraphSetConditional(handle, *input); }

__global__ void write(int* out, int value) { *out = value; }

cudaGraphNode_t add_kernel(cudaGraph_t graph, cudaGraphNode_t* after, size_t count, void* func, void** args) {
  cudaGraphNodeParams params = {};
  params.type = cudaGraphNodeTypeKernel;
  params.kernel.func = func;
  params.kernel.gridDim = dim3(1);
  params.kernel.blockDim = dim3(1);
  params.kernel.kernelParams = args;
  cudaGraphNode_t node = nullptr;
  cudaGraphAddNode(&node, graph, after, nullptr, count, &params);
  return node;
}

// A conditional node after `after`; its bodies' handles land in `bodies`.
cudaGraphNode_t add_conditional(cudaGraph_t graph, cudaGraphNode_t after, cudaGraphConditionalHandle handle,
                                cudaGraphConditionalNodeType type, unsigned size, cudaGraph_t* bodies) {
  cudaGraphNodeParams params = {};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = handle;
  params.conditional.type = type;
  params.conditional.size = size;
  cudaGraphNode_t node = nullptr;
  cudaGraphAddNode(&node, graph, after ? &after : nullptr, nullptr, after ? 1 : 0, &params);
  for (unsigned i = 0; i < size; ++i) bodies[i] = params.conditional.phGraph_out[i];
  return node;
}

int main() {
  int* d = nullptr;  // [0] counter, [1] total, [2] if input, [3] if output, [4] switch input, [5] switch output
  cudaMalloc(&d, 8 * sizeof(int));
  cudaMemset(d, 0, 8 * sizeof(int));
  int *counter = d, *total = d + 1, *if_input = d + 2, *if_output = d + 3, *switch_input = d + 4,
      *switch_output = d + 5;

  // while (counter < 5) { ++counter; ++total; }, the condition reset to 1 at every launch.
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaGraphConditionalHandle loop;
  const cudaError_t created = cudaGraphConditionalHandleCreate(&loop, graph, 1, cudaGraphCondAssignDefault);
  void* reset_args[] = {&counter};
  cudaGraphNode_t first = add_kernel(graph, nullptr, 0, reinterpret_cast<void*>(reset), reset_args);
  cudaGraph_t loop_graph;
  cudaGraphNode_t while_node = add_conditional(graph, first, loop, cudaGraphCondTypeWhile, 1, &loop_graph);
  int limit = 5;
  void* body_args[] = {&loop, &counter, &total, &limit};
  add_kernel(loop_graph, nullptr, 0, reinterpret_cast<void*>(loop_body), body_args);

  // if (*if_input) *if_output = 10; else *if_output = 20;
  cudaGraphConditionalHandle branch;
  cudaGraphConditionalHandleCreate(&branch, graph, 0, 0);
  void* choose_if_args[] = {&branch, &if_input};
  cudaGraphNode_t chooser = add_kernel(graph, &while_node, 1, reinterpret_cast<void*>(choose), choose_if_args);
  cudaGraph_t if_bodies[2];
  cudaGraphNode_t if_node = add_conditional(graph, chooser, branch, cudaGraphCondTypeIf, 2, if_bodies);
  int ten = 10, twenty = 20;
  void* then_args[] = {&if_output, &ten};
  void* else_args[] = {&if_output, &twenty};
  add_kernel(if_bodies[0], nullptr, 0, reinterpret_cast<void*>(write), then_args);
  add_kernel(if_bodies[1], nullptr, 0, reinterpret_cast<void*>(write), else_args);

  // switch (*switch_input) { case 0: 100; case 1: 101; case 2: 102; } into *switch_output
  cudaGraphConditionalHandle selector;
  cudaGraphConditionalHandleCreate(&selector, graph, 0, 0);
  void* choose_switch_args[] = {&selector, &switch_input};
  cudaGraphNode_t switch_chooser =
      add_kernel(graph, &if_node, 1, reinterpret_cast<void*>(choose), choose_switch_args);
  cudaGraph_t cases[3];
  cudaGraphNode_t switch_node = add_conditional(graph, switch_chooser, selector, cudaGraphCondTypeSwitch, 3, cases);
  int values[3] = {100, 101, 102};
  void* case_args[3][2];
  for (int c = 0; c < 3; ++c) {
    case_args[c][0] = &switch_output;
    case_args[c][1] = &values[c];
    add_kernel(cases[c], nullptr, 0, reinterpret_cast<void*>(write), case_args[c]);
  }
  cudaGraphNodeType type;
  cudaGraphNodeGetType(switch_node, &type);

  cudaGraphExec_t exec;
  const cudaError_t instantiated = cudaGraphInstantiate(&exec, graph, 0);
  int h[8];
  const int inputs[3][2] = {{1, 2}, {0, 0}, {0, 7}};  // if input, switch input per launch
  for (int launch = 0; launch < 3; ++launch) {
    cudaMemcpy(if_input, &inputs[launch][0], sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(switch_input, &inputs[launch][1], sizeof(int), cudaMemcpyHostToDevice);
    const int unset = -1;
    cudaMemcpy(switch_output, &unset, sizeof(int), cudaMemcpyHostToDevice);
    cudaGraphLaunch(exec, 0);
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("launch %d: counter %d total %d, if %d, switch %d\n", launch, h[0], h[1], h[3], h[5]);
  }
  cudaGraphConditionalHandle bad;
  const cudaError_t bad_flags = cudaGraphConditionalHandleCreate(&bad, graph, 0, 8);
  std::printf("handle %s, type %d, instantiate %s, bad flags %s\n", cudaGetErrorName(created), static_cast<int>(type),
              cudaGetErrorName(instantiated), cudaGetErrorName(bad_flags));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  const bool ok = h[0] == 5 && h[1] == 15 && h[3] == 20 && h[5] == -1 && type == cudaGraphNodeTypeConditional;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
