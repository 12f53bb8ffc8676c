// Built with nvcc --default-stream per-thread: every runtime call goes through its _ptsz/_ptds
// spelling and stream 0 is the thread's own default stream. Copies, memsets, launches, events
// and a graph captured from stream 0 (which only a per-thread default stream allows); then
// stream identity and attributes, device flags, managed memory attached to a stream and the
// dynamic shared memory the occupancy calculator leaves, used by a launch. Results are checked
// against the CPU.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

__global__ void affine(int* v, int n, int a, int b) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * a + b;
}

// Sums v through dynamic shared memory of `slots` ints per block.
__global__ void block_sums(const int* v, int n, int* sums, int slots) {
  extern __shared__ int buffer[];
  for (int s = threadIdx.x; s < slots; s += blockDim.x) buffer[s] = 0;
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&buffer[threadIdx.x % slots], v[i]);
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int s = 0; s < slots; ++s) total += buffer[s];
    sums[blockIdx.x] = total;
  }
}

int main() {
  const int n = 1000;
  int host[n], expected[n];
  for (int i = 0; i < n; ++i) host[i] = i, expected[i] = i;
  int* d = nullptr;
  cudaMalloc(&d, sizeof host);
  cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemset(d + n - 10, 0, 10 * sizeof(int));
  for (int i = n - 10; i < n; ++i) expected[i] = 0;
  affine<<<(n + 255) / 256, 256>>>(d, n, 2, 1);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaEvent_t done;
  cudaEventCreate(&done);
  affine<<<(n + 255) / 256, 256, 0, s>>>(d, n, 3, -1);
  const cudaError_t recorded = cudaEventRecordWithFlags(done, s, cudaEventRecordDefault);
  cudaStreamWaitEvent(0, done, 0);
  // Stream 0 is capturable here: a graph of one launch, run twice.
  cudaGraph_t graph;
  const cudaError_t begun = cudaStreamBeginCapture(0, cudaStreamCaptureModeThreadLocal);
  affine<<<(n + 255) / 256, 256>>>(d, n, 1, 5);
  const cudaError_t ended = cudaStreamEndCapture(0, &graph);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, 0);
  cudaGraphLaunch(exec, 0);
  cudaMemcpyAsync(host, d, sizeof host, cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(0);
  int mismatches = 0;
  for (int i = 0; i < n; ++i)
    if (host[i] != (expected[i] * 2 + 1) * 3 - 1 + 10) ++mismatches;
  std::printf("record %s, capture %s %s, mismatches=%d\n", cudaGetErrorName(recorded), cudaGetErrorName(begun),
              cudaGetErrorName(ended), mismatches);

  unsigned long long id_default = 99, id_legacy = 99, id_created = 99;
  cudaStreamGetId(0, &id_default);
  cudaStreamGetId(cudaStreamLegacy, &id_legacy);
  cudaStreamGetId(s, &id_created);
  int device = 99;
  cudaStreamGetDevice(s, &device);
  std::printf("ids: default %llu legacy %llu created %llu, device %d\n", id_default, id_legacy, id_created, device);

  cudaStreamAttrValue window{};
  window.accessPolicyWindow.base_ptr = d;
  window.accessPolicyWindow.num_bytes = sizeof host;
  window.accessPolicyWindow.hitRatio = 0.75f;
  window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  const cudaError_t set = cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &window);
  cudaStreamAttrValue bad = window;
  bad.accessPolicyWindow.hitRatio = 1.5f;
  const cudaError_t refused = cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &bad);
  cudaGetLastError();
  cudaStream_t copy;
  cudaStreamCreateWithPriority(&copy, cudaStreamDefault, -3);
  cudaStreamCopyAttributes(copy, s);
  cudaStreamAttrValue got{}, policy{}, priority{};
  cudaStreamGetAttribute(copy, cudaStreamAttributeAccessPolicyWindow, &got);
  cudaStreamGetAttribute(copy, cudaStreamAttributeSynchronizationPolicy, &policy);
  cudaStreamGetAttribute(copy, cudaStreamAttributePriority, &priority);
  std::printf("window %s/%s: %s %zu %.2f %d %d, sync policy %d, priority %d, reset %s\n", cudaGetErrorName(set),
              cudaGetErrorName(refused), got.accessPolicyWindow.base_ptr == d ? "same base" : "other base",
              got.accessPolicyWindow.num_bytes, got.accessPolicyWindow.hitRatio, int(got.accessPolicyWindow.hitProp),
              int(got.accessPolicyWindow.missProp), int(policy.syncPolicy), priority.priority,
              cudaGetErrorName(cudaCtxResetPersistingL2Cache()));

  unsigned before = 99, after = 99;
  cudaGetDeviceFlags(&before);
  const cudaError_t flags_set = cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost);
  cudaGetDeviceFlags(&after);
  const cudaError_t flags_bad = cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield);
  cudaGetLastError();
  std::printf("device flags %u -> %u (%s), two schedules %s\n", before, after, cudaGetErrorName(flags_set),
              cudaGetErrorName(flags_bad));

  int* managed = nullptr;
  cudaMallocManaged(&managed, n * sizeof(int));
  for (int i = 0; i < n; ++i) managed[i] = 1;
  const cudaError_t attached = cudaStreamAttachMemAsync(s, managed, 0, cudaMemAttachSingle);
  affine<<<(n + 255) / 256, 256, 0, s>>>(managed, n, 7, 0);
  cudaStreamSynchronize(s);
  long total_managed = 0;
  for (int i = 0; i < n; ++i) total_managed += managed[i];

  size_t two = 0, one = 0, opted_two = 0;
  cudaOccupancyAvailableDynamicSMemPerBlock(&two, block_sums, 2, 256);
  cudaFuncSetAttribute(block_sums, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
  cudaOccupancyAvailableDynamicSMemPerBlock(&one, block_sums, 1, 256);
  cudaFuncSetAttribute(block_sums, cudaFuncAttributeMaxDynamicSharedMemorySize, 200000);
  cudaOccupancyAvailableDynamicSMemPerBlock(&opted_two, block_sums, 2, 256);
  const int blocks = (n + 255) / 256, slots = static_cast<int>(opted_two / sizeof(int));
  int* sums = nullptr;
  cudaMalloc(&sums, blocks * sizeof(int));
  block_sums<<<blocks, 256, opted_two>>>(managed, n, sums, slots);
  const cudaError_t launched = cudaGetLastError();
  int host_sums[4] = {};
  cudaMemcpy(host_sums, sums, sizeof host_sums, cudaMemcpyDeviceToHost);
  const long total_blocks = long(host_sums[0]) + host_sums[1] + host_sums[2] + host_sums[3];
  std::printf("attach %s, managed total %ld; dynamic shared %zu %zu %zu, launch %s, sums total %ld\n",
              cudaGetErrorName(attached), total_managed, two, one, opted_two, cudaGetErrorName(launched),
              total_blocks);
  std::printf(mismatches == 0 && total_managed == 7 * n && total_blocks == 7 * n ? "PASSED\n" : "FAILED\n");
  return 0;
}
