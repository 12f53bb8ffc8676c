// CUDA graphs, both ways programs build them, checked against a CPU reference:
// 1. a Jacobi step for -u'' = f captured once from a stream (two sweeps, then a fork into a
//    second stream for the residual while the first measures the update, a join, and a host
//    function that logs both), then launched many times;
// 2. an explicitly built graph: a memset, two kernels that depend on it, a third that depends on
//    both, a copy back and a host node; relaunched after changing one kernel's argument.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t e_ = (call);                                                     \
    if (e_ != cudaSuccess) {                                                     \
      std::printf("FAILED: %s -> %s\n", #call, cudaGetErrorName(e_));            \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

constexpr int kN = 512;  // interior points of the solver
constexpr int kBlock = 128;
constexpr int kBlocks = kN / kBlock;
constexpr int kLaunches = 30;  // graph launches, two sweeps each

__global__ void jacobi_sweep(const double* x, double* y, const double* f, int n, double h2) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double left = i > 0 ? x[i - 1] : 0.0;
  const double right = i + 1 < n ? x[i + 1] : 0.0;
  y[i] = 0.5 * (left + right + h2 * f[i]);
}

// Per block: the sum of squared residuals f - A x (A the second-difference operator).
__global__ void residual_partials(const double* x, const double* f, int n, double inv_h2, double* partial) {
  __shared__ double sums[kBlock];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double r2 = 0.0;
  if (i < n) {
    const double left = i > 0 ? x[i - 1] : 0.0;
    const double right = i + 1 < n ? x[i + 1] : 0.0;
    const double r = f[i] - (2.0 * x[i] - left - right) * inv_h2;
    r2 = r * r;
  }
  sums[threadIdx.x] = r2;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sums[threadIdx.x] += sums[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
}

// Per block: the largest change of the last sweep, max |x - y|.
__global__ void update_partials(const double* x, const double* y, int n, double* partial) {
  __shared__ double peaks[kBlock];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  peaks[threadIdx.x] = i < n ? fabs(x[i] - y[i]) : 0.0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) peaks[threadIdx.x] = fmax(peaks[threadIdx.x], peaks[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = peaks[0];
}

struct SolverLog {
  const double* residual_partials;  // pinned host copies of the per-block figures
  const double* update_partials;
  double residual[kLaunches];
  double update[kLaunches];
  int count;
};

void CUDART_CB log_step(void* data) {
  SolverLog* log = static_cast<SolverLog*>(data);
  double sum = 0.0, peak = 0.0;
  for (int b = 0; b < kBlocks; ++b) {
    sum += log->residual_partials[b];
    peak = std::fmax(peak, log->update_partials[b]);
  }
  if (log->count < kLaunches) {
    log->residual[log->count] = std::sqrt(sum);
    log->update[log->count] = peak;
  }
  ++log->count;
}

// The same step on the CPU: two sweeps, then the residual norm and the last sweep's update.
void cpu_step(std::vector<double>& x, std::vector<double>& y, const std::vector<double>& f, double h2,
              double& residual, double& update) {
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<double>& from = pass == 0 ? x : y;
    std::vector<double>& to = pass == 0 ? y : x;
    for (int i = 0; i < kN; ++i)
      to[i] = 0.5 * ((i > 0 ? from[i - 1] : 0.0) + (i + 1 < kN ? from[i + 1] : 0.0) + h2 * f[i]);
  }
  double sum = 0.0;
  update = 0.0;
  for (int i = 0; i < kN; ++i) {
    const double r = f[i] - (2.0 * x[i] - (i > 0 ? x[i - 1] : 0.0) - (i + 1 < kN ? x[i + 1] : 0.0)) / h2;
    sum += r * r;
    update = std::fmax(update, std::fabs(x[i] - y[i]));
  }
  residual = std::sqrt(sum);
}

bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::fmax(1.0, std::fabs(b)); }

int captured_solver() {
  const double h = 1.0 / (kN + 1), h2 = h * h, inv_h2 = 1.0 / h2;
  std::vector<double> f(kN);
  for (int i = 0; i < kN; ++i) f[i] = std::sin(3.14159265358979 * (i + 1) * h) + 0.5;
  double *d_x, *d_y, *d_f, *d_residual, *d_update, *h_residual, *h_update;
  CHECK(cudaMalloc(&d_x, kN * sizeof(double)));
  CHECK(cudaMalloc(&d_y, kN * sizeof(double)));
  CHECK(cudaMalloc(&d_f, kN * sizeof(double)));
  CHECK(cudaMalloc(&d_residual, kBlocks * sizeof(double)));
  CHECK(cudaMalloc(&d_update, kBlocks * sizeof(double)));
  CHECK(cudaMallocHost(&h_residual, kBlocks * sizeof(double)));
  CHECK(cudaMallocHost(&h_update, kBlocks * sizeof(double)));
  CHECK(cudaMemset(d_x, 0, kN * sizeof(double)));
  CHECK(cudaMemcpy(d_f, f.data(), kN * sizeof(double), cudaMemcpyHostToDevice));
  SolverLog log{h_residual, h_update, {}, {}, 0};

  cudaStream_t main_stream, side_stream;
  cudaEvent_t fork, join;
  CHECK(cudaStreamCreateWithFlags(&main_stream, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&side_stream, cudaStreamNonBlocking));
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

  CHECK(cudaStreamBeginCapture(main_stream, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus during = cudaStreamCaptureStatusNone;
  CHECK(cudaStreamIsCapturing(main_stream, &during));
  jacobi_sweep<<<kBlocks, kBlock, 0, main_stream>>>(d_x, d_y, d_f, kN, h2);
  jacobi_sweep<<<kBlocks, kBlock, 0, main_stream>>>(d_y, d_x, d_f, kN, h2);
  CHECK(cudaEventRecord(fork, main_stream));
  CHECK(cudaStreamWaitEvent(side_stream, fork, 0));
  residual_partials<<<kBlocks, kBlock, 0, side_stream>>>(d_x, d_f, kN, inv_h2, d_residual);
  CHECK(cudaMemcpyAsync(h_residual, d_residual, kBlocks * sizeof(double), cudaMemcpyDeviceToHost, side_stream));
  CHECK(cudaEventRecord(join, side_stream));
  update_partials<<<kBlocks, kBlock, 0, main_stream>>>(d_x, d_y, kN, d_update);
  CHECK(cudaMemcpyAsync(h_update, d_update, kBlocks * sizeof(double), cudaMemcpyDeviceToHost, main_stream));
  CHECK(cudaStreamWaitEvent(main_stream, join, 0));
  CHECK(cudaLaunchHostFunc(main_stream, log_step, &log));
  cudaGraph_t graph;
  CHECK(cudaStreamEndCapture(main_stream, &graph));
  cudaStreamCaptureStatus after = cudaStreamCaptureStatusActive;
  CHECK(cudaStreamIsCapturing(main_stream, &after));

  size_t nodes = 0, edges = 0, roots = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
  CHECK(cudaGraphGetRootNodes(graph, nullptr, &roots));
  std::printf("captured: active during=%s, after=%s; %zu nodes, %zu edges, %zu root; nothing ran: %s\n",
              during == cudaStreamCaptureStatusActive ? "yes" : "no",
              after == cudaStreamCaptureStatusNone ? "none" : "still capturing", nodes, edges, roots,
              log.count == 0 ? "yes" : "no");

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < kLaunches; ++launch) CHECK(cudaGraphLaunch(exec, main_stream));
  CHECK(cudaStreamSynchronize(main_stream));

  std::vector<double> x(kN, 0.0), y(kN, 0.0), gpu_x(kN);
  CHECK(cudaMemcpy(gpu_x.data(), d_x, kN * sizeof(double), cudaMemcpyDeviceToHost));
  int mismatches = log.count == kLaunches ? 0 : 1;
  for (int launch = 0; launch < kLaunches; ++launch) {
    double residual = 0.0, update = 0.0;
    cpu_step(x, y, f, h2, residual, update);
    if (!close(log.residual[launch], residual) || !close(log.update[launch], update)) ++mismatches;
  }
  for (int i = 0; i < kN; ++i)
    if (!close(gpu_x[i], x[i])) ++mismatches;
  std::printf("solver: %d launches, residual %.6e -> %.6e, last update %.6e, %d mismatches\n", log.count,
              log.residual[0], log.residual[kLaunches - 1], log.update[kLaunches - 1], mismatches);

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(main_stream));
  CHECK(cudaStreamDestroy(side_stream));
  CHECK(cudaEventDestroy(fork));
  CHECK(cudaEventDestroy(join));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_f));
  CHECK(cudaFree(d_residual));
  CHECK(cudaFree(d_update));
  CHECK(cudaFreeHost(h_residual));
  CHECK(cudaFreeHost(h_update));
  return mismatches;
}

// ---- 2. an explicitly built fork/join graph ----

constexpr int kM = 4096;
constexpr int kBias = 5;  // what the memset node writes into every accumulator

__global__ void accumulate_scaled(const int* a, int* u, int n, int scale) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) u[i] += scale * a[i];
}

__global__ void accumulate_squares(const int* b, int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += b[i] * b[i];
}

__global__ void combine(const int* u, const int* v, int* w, int n, int k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] = k * u[i] - v[i];
}

struct Checksum {
  const int* values;
  long long sum;
  long long weighted;
  int calls;
};

void CUDART_CB checksum(void* data) {
  Checksum* c = static_cast<Checksum*>(data);
  c->sum = 0;
  c->weighted = 0;
  for (int i = 0; i < kM; ++i) {
    c->sum += c->values[i];
    c->weighted += static_cast<long long>(i % 97) * c->values[i];
  }
  ++c->calls;
}

void cpu_checksum(const std::vector<int>& a, const std::vector<int>& b, int scale, int k, long long& sum,
                  long long& weighted) {
  sum = 0;
  weighted = 0;
  for (int i = 0; i < kM; ++i) {
    const int w = k * (kBias + scale * a[i]) - (kBias + b[i] * b[i]);
    sum += w;
    weighted += static_cast<long long>(i % 97) * w;
  }
}

int explicit_graph() {
  std::vector<int> a(kM), b(kM), w(kM);
  for (int i = 0; i < kM; ++i) {
    a[i] = (i * 7) % 101 - 50;
    b[i] = (i * 3) % 17;
  }
  int *d_a, *d_b, *d_acc, *d_w;
  CHECK(cudaMalloc(&d_a, kM * sizeof(int)));
  CHECK(cudaMalloc(&d_b, kM * sizeof(int)));
  CHECK(cudaMalloc(&d_acc, 2 * kM * sizeof(int)));  // u then v
  CHECK(cudaMalloc(&d_w, kM * sizeof(int)));
  CHECK(cudaMemcpy(d_a, a.data(), kM * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b.data(), kM * sizeof(int), cudaMemcpyHostToDevice));
  int* d_u = d_acc;
  int* d_v = d_acc + kM;
  int n = kM, scale = 3, k = 1;
  const dim3 grid(kM / 256), block(256);

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemsetParams bias = {};
  bias.dst = d_acc;
  bias.value = kBias;
  bias.elementSize = sizeof(int);
  bias.width = 2 * kM;
  bias.height = 1;
  cudaGraphNode_t memset_node, scaled_node, squares_node, combine_node, copy_node, host_node;
  CHECK(cudaGraphAddMemsetNode(&memset_node, graph, nullptr, 0, &bias));

  void* scaled_args[] = {&d_a, &d_u, &n, &scale};
  cudaKernelNodeParams p = {};
  p.func = reinterpret_cast<void*>(accumulate_scaled);
  p.gridDim = grid;
  p.blockDim = block;
  p.kernelParams = scaled_args;
  CHECK(cudaGraphAddKernelNode(&scaled_node, graph, &memset_node, 1, &p));
  void* squares_args[] = {&d_b, &d_v, &n};
  p.func = reinterpret_cast<void*>(accumulate_squares);
  p.kernelParams = squares_args;
  CHECK(cudaGraphAddKernelNode(&squares_node, graph, &memset_node, 1, &p));
  void* combine_args[] = {&d_u, &d_v, &d_w, &n, &k};
  p.func = reinterpret_cast<void*>(combine);
  p.kernelParams = combine_args;
  const cudaGraphNode_t both[] = {scaled_node, squares_node};
  CHECK(cudaGraphAddKernelNode(&combine_node, graph, both, 2, &p));
  k = 99;  // the node copied its arguments when it was added: this does not reach it

  CHECK(cudaGraphAddMemcpyNode1D(&copy_node, graph, &combine_node, 1, w.data(), d_w, kM * sizeof(int),
                                 cudaMemcpyDeviceToHost));
  Checksum result{w.data(), 0, 0, 0};
  cudaHostNodeParams host = {};
  host.fn = checksum;
  host.userData = &result;
  CHECK(cudaGraphAddHostNode(&host_node, graph, &copy_node, 1, &host));

  size_t nodes = 0, edges = 0, roots = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
  CHECK(cudaGraphGetRootNodes(graph, nullptr, &roots));
  cudaGraphNodeType combine_type;
  CHECK(cudaGraphNodeGetType(combine_node, &combine_type));
  std::printf("explicit: %zu nodes, %zu edges, %zu root, combine is a kernel node: %s\n", nodes, edges, roots,
              combine_type == cudaGraphNodeTypeKernel ? "yes" : "no");

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  int mismatches = 0;
  for (int run = 0; run < 2; ++run) {
    const int used_k = run == 0 ? 1 : 2;
    if (run == 1) {  // the executable graph's combine node takes k = 2 from now on
      k = 2;
      p.kernelParams = combine_args;
      CHECK(cudaGraphExecKernelNodeSetParams(exec, combine_node, &p));
    }
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    long long sum = 0, weighted = 0;
    cpu_checksum(a, b, scale, used_k, sum, weighted);
    if (result.sum != sum || result.weighted != weighted) ++mismatches;
    std::printf("run %d (k=%d): sum %lld, weighted %lld (expected %lld, %lld)\n", run + 1, used_k, result.sum,
                result.weighted, sum, weighted);
  }
  if (result.calls != 2) ++mismatches;
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_acc));
  CHECK(cudaFree(d_w));
  return mismatches;
}

int main() {
  const int failures = captured_solver() + explicit_graph();
  std::printf(failures == 0 ? "PASSED\n" : "FAILED\n");
  return failures == 0 ? 0 : 1;
}
