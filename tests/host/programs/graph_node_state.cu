// What a graph's nodes carry beside their parameters, used as a program would: memcpy nodes to
// and from a __device__ symbol, a kernel node made cooperative through its launch attribute (its
// grid.sync() must hold), a cooperative launch captured from a stream, a node disabled and
// enabled again in the executable graph, the clone of a node found by cudaGraphNodeFindInClone,
// and a user object whose destructor runs only when the program and every graph released it.
// Results are checked against a CPU reference.
#include <cstdio>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

constexpr int kN = 256;
constexpr int kBlocks = 4;
constexpr int kThreads = kN / kBlocks;

__device__ int table[kN];

// Each block writes its part, then (after the grid-wide barrier) reads another block's part:
// without a cooperative launch the barrier would not hold.
__global__ void rotate(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  table[i] = in[i] * 2;
  cg::this_grid().sync();
  out[i] = table[(i + kThreads) % kN];
}

__global__ void add_one(int* x) { x[blockIdx.x * blockDim.x + threadIdx.x] += 1; }

int destroyed = 0;
void destroy_counter(void* p) { ++*static_cast<int*>(p); }

const char* name(cudaError_t e) { return cudaGetErrorName(e); }

// Mismatches of `out` against rotate's result for in[i] = i (plus `extra`).
int rotate_mismatches(const int* out, int extra) {
  int wrong = 0;
  for (int i = 0; i < kN; ++i)
    if (out[i] != ((i + kThreads) % kN) * 2 + extra) ++wrong;
  return wrong;
}

int main() {
  int host_in[kN], host_out[kN];
  for (int i = 0; i < kN; ++i) host_in[i] = i;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, sizeof host_in);
  cudaMalloc(&out, sizeof host_out);
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  cudaStream_t stream;
  cudaStreamCreate(&stream);

  // A graph: rotate (cooperative by attribute), add_one, then copy the symbol out.
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  void* rotate_args[] = {&in, &out};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(rotate);
  kp.gridDim = dim3(kBlocks);
  kp.blockDim = dim3(kThreads);
  kp.kernelParams = rotate_args;
  cudaGraphNode_t rotate_node, add_node, copy_node;
  cudaGraphAddKernelNode(&rotate_node, graph, nullptr, 0, &kp);
  cudaKernelNodeAttrValue v = {};
  const cudaError_t before = cudaGraphKernelNodeGetAttribute(rotate_node, cudaLaunchAttributeCooperative, &v);
  std::printf("cooperative before: %s %d\n", name(before), v.cooperative);
  v.cooperative = 1;
  const cudaError_t set = cudaGraphKernelNodeSetAttribute(rotate_node, cudaLaunchAttributeCooperative, &v);
  v = {};
  cudaGraphKernelNodeGetAttribute(rotate_node, cudaLaunchAttributeCooperative, &v);
  cudaKernelNodeAttrValue cluster = {};
  cudaGraphKernelNodeGetAttribute(rotate_node, cudaLaunchAttributeClusterDimension, &cluster);
  std::printf("set: %s, cooperative now %d, cluster %ux%ux%u, stream-only attribute: %s\n", name(set), v.cooperative,
              cluster.clusterDim.x, cluster.clusterDim.y, cluster.clusterDim.z,
              name(cudaGraphKernelNodeSetAttribute(rotate_node, cudaLaunchAttributeSynchronizationPolicy, &v)));
  void* add_args[] = {&out};
  kp.func = reinterpret_cast<void*>(add_one);
  kp.kernelParams = add_args;
  cudaGraphAddKernelNode(&add_node, graph, &rotate_node, 1, &kp);
  int* symbol_copy = nullptr;
  cudaMalloc(&symbol_copy, sizeof host_out);
  const cudaError_t from = cudaGraphAddMemcpyNodeFromSymbol(&copy_node, graph, &add_node, 1, symbol_copy, table,
                                                            sizeof(int) * kN, 0, cudaMemcpyDeviceToDevice);
  cudaGraphNode_t too_far;
  const cudaError_t past_end = cudaGraphAddMemcpyNodeFromSymbol(&too_far, graph, nullptr, 0, symbol_copy, table,
                                                                sizeof(int) * kN, 4, cudaMemcpyDeviceToDevice);
  std::printf("from symbol: %s, past its end: %s\n", name(from), name(past_end));
  cudaGetLastError();  // the refusals above were the last errors

  // The user object: the program's reference moves to the graph; an executable graph holds one too.
  cudaUserObject_t object;
  cudaUserObjectCreate(&object, &destroyed, destroy_counter, 1, cudaUserObjectNoDestructorSync);
  cudaGraphRetainUserObject(graph, object, 1, cudaGraphUserObjectMove);

  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  int symbol_wrong = 0;
  int host_symbol[kN];
  cudaMemcpy(host_symbol, symbol_copy, sizeof host_symbol, cudaMemcpyDeviceToHost);
  for (int i = 0; i < kN; ++i)
    if (host_symbol[i] != 2 * i) ++symbol_wrong;
  std::printf("cooperative node: %d mismatches; symbol copy: %d mismatches; %s\n", rotate_mismatches(host_out, 1),
              symbol_wrong, name(cudaGetLastError()));

  // add_one disabled: rotate's result unchanged; enabled again: +1.
  unsigned enabled = 7;
  cudaGraphNodeGetEnabled(exec, add_node, &enabled);
  const cudaError_t disable = cudaGraphNodeSetEnabled(exec, add_node, 0);
  unsigned disabled = 7;
  cudaGraphNodeGetEnabled(exec, add_node, &disabled);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  const int wrong_disabled = rotate_mismatches(host_out, 0);
  cudaGraphNodeSetEnabled(exec, add_node, 1);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  std::printf("enabled %u, disable %s, then %u: %d mismatches; enabled again: %d mismatches\n", enabled, name(disable),
              disabled, wrong_disabled, rotate_mismatches(host_out, 1));

  // The memcpy node now copies a symbol's second half into its first: to and from the symbol.
  const cudaError_t to = cudaGraphExecMemcpyNodeSetParamsFromSymbol(exec, copy_node, symbol_copy, table,
                                                                    sizeof(int) * kN / 2, sizeof(int) * kN / 2,
                                                                    cudaMemcpyDeviceToDevice);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  cudaMemcpy(host_symbol, symbol_copy, sizeof host_symbol, cudaMemcpyDeviceToHost);
  int half_wrong = 0;
  for (int i = 0; i < kN / 2; ++i)
    if (host_symbol[i] != 2 * (i + kN / 2)) ++half_wrong;
  std::printf("exec node from the symbol's second half: %s, %d mismatches\n", name(to), half_wrong);

  // A clone's node, found from the original's; a node of another graph is not in the clone.
  cudaGraph_t clone, other;
  cudaGraphClone(&clone, graph);
  cudaGraphCreate(&other, 0);
  cudaGraphNode_t found = nullptr, other_node = nullptr, not_found = nullptr;
  const cudaError_t find = cudaGraphNodeFindInClone(&found, add_node, clone);
  cudaGraphAddEmptyNode(&other_node, other, nullptr, 0);
  const cudaError_t find_other = cudaGraphNodeFindInClone(&not_found, other_node, clone);
  cudaGraphNodeType type;
  cudaGraphNodeGetType(found, &type);
  cudaKernelNodeAttrValue cloned_attr = {};
  cudaGraphNode_t cloned_rotate = nullptr;
  cudaGraphNodeFindInClone(&cloned_rotate, rotate_node, clone);
  cudaGraphKernelNodeGetAttribute(cloned_rotate, cudaLaunchAttributeCooperative, &cloned_attr);
  std::printf("find in clone: %s, kernel node %s, a new handle %s, cooperative %d; another graph's node: %s\n",
              name(find), type == cudaGraphNodeTypeKernel ? "yes" : "no", found != add_node ? "yes" : "no",
              cloned_attr.cooperative, name(find_other));

  // A cooperative launch captured from a stream keeps its attribute.
  cudaGraph_t captured;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cudaLaunchCooperativeKernel(reinterpret_cast<void*>(rotate), dim3(kBlocks), dim3(kThreads), rotate_args, 0, stream);
  cudaStreamEndCapture(stream, &captured);
  size_t count = 0;
  cudaGraphGetNodes(captured, nullptr, &count);
  cudaGraphNode_t captured_node;
  cudaGraphGetNodes(captured, &captured_node, &count);
  cudaKernelNodeAttrValue captured_attr = {};
  cudaGraphKernelNodeGetAttribute(captured_node, cudaLaunchAttributeCooperative, &captured_attr);
  cudaGraphExec_t captured_exec;
  cudaMemset(out, 0, sizeof host_out);
  cudaGraphInstantiate(&captured_exec, captured, 0);
  cudaGraphLaunch(captured_exec, stream);
  cudaStreamSynchronize(stream);
  cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
  std::printf("captured cooperative launch: %zu node, cooperative %d, %d mismatches\n", count, captured_attr.cooperative,
              rotate_mismatches(host_out, 0));

  // The destructor runs once the graph, its clone and the executable graph are all gone.
  cudaGraphDestroy(graph);
  const int after_graph = destroyed;
  cudaGraphDestroy(clone);
  const int after_clone = destroyed;
  cudaGraphExecDestroy(exec);
  std::printf("user object destroyed: %d after the graph, %d after its clone, %d after the executable graph\n",
              after_graph, after_clone, destroyed);
  cudaUserObject_t held;
  cudaUserObjectCreate(&held, &destroyed, destroy_counter, 2, cudaUserObjectNoDestructorSync);
  cudaUserObjectRelease(held, 1);
  const int one_left = destroyed;
  cudaUserObjectRelease(held, 1);
  std::printf("program references: %d with one left, %d with none; bad flags: %s\n", one_left - 1, destroyed - 1,
              name(cudaUserObjectCreate(&held, &destroyed, destroy_counter, 1, 0)));

  cudaGraphExecDestroy(captured_exec);
  cudaGraphDestroy(captured);
  cudaGraphDestroy(other);
  const bool ok = rotate_mismatches(host_out, 0) == 0 && symbol_wrong == 0 && half_wrong == 0 && destroyed == 2;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
