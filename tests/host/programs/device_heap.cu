// Device-side dynamic memory: each thread builds a linked list with new, another kernel walks
// and deletes it; per-thread scratch arrays with malloc/free; the heap and stack limits set
// and read back with cudaDeviceSetLimit / cudaDeviceGetLimit.
#include <cstdio>
#include <cuda_runtime.h>

struct Node {
  int value;
  Node* next;
};

__global__ void build_lists(Node** heads, int length) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  Node* head = nullptr;
  for (int i = 0; i < length; ++i) {
    Node* n = new Node;
    n->value = t * 100 + i;
    n->next = head;
    head = n;
  }
  heads[t] = head;
}

__global__ void sum_and_delete(Node** heads, long long* sums) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  long long sum = 0;
  for (Node* n = heads[t]; n != nullptr;) {
    Node* next = n->next;
    sum += n->value;
    delete n;
    n = next;
  }
  sums[t] = sum;
}

// Squares of 0..count-1 in a scratch array from malloc; returns their sum, or -1 when malloc
// fails.
__global__ void scratch_squares(int count, long long* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int* scratch = static_cast<int*>(malloc((count + t) * sizeof(int)));
  if (scratch == nullptr) {
    out[t] = -1;
    return;
  }
  for (int i = 0; i < count + t; ++i) scratch[i] = i * i;
  long long s = 0;
  for (int i = 0; i < count + t; ++i) s += scratch[i];
  free(scratch);
  out[t] = s;
}

int main() {
  const int threads = 256, length = 20;
  cudaError_t set = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20);
  cudaError_t stack = cudaDeviceSetLimit(cudaLimitStackSize, 2048);
  size_t heap = 0, stack_size = 0;
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  cudaDeviceGetLimit(&stack_size, cudaLimitStackSize);
  std::printf("set: %s %s, heap %zu, stack %zu\n", cudaGetErrorName(set), cudaGetErrorName(stack), heap,
              stack_size);

  Node** heads = nullptr;
  long long *sums = nullptr, *squares = nullptr;
  cudaMalloc(&heads, threads * sizeof(Node*));
  cudaMalloc(&sums, threads * sizeof(long long));
  cudaMalloc(&squares, threads * sizeof(long long));
  build_lists<<<threads / 64, 64>>>(heads, length);
  sum_and_delete<<<threads / 64, 64>>>(heads, sums);
  scratch_squares<<<threads / 128, 128>>>(50, squares);
  cudaError_t sync = cudaDeviceSynchronize();
  // The heap is in use now, so its size can no longer change.
  cudaError_t late = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20);

  long long host_sums[threads], host_squares[threads];
  cudaMemcpy(host_sums, sums, sizeof(host_sums), cudaMemcpyDeviceToHost);
  cudaMemcpy(host_squares, squares, sizeof(host_squares), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int t = 0; t < threads; ++t) {
    long long expect = 0, expect_squares = 0;
    for (int i = 0; i < length; ++i) expect += t * 100 + i;
    for (long long i = 0; i < 50 + t; ++i) expect_squares += i * i;
    wrong += host_sums[t] != expect;
    wrong += host_squares[t] != expect_squares;
  }
  std::printf("sync: %s, late heap resize: %s, wrong: %d\n%s\n", cudaGetErrorName(sync), cudaGetErrorName(late),
              wrong, wrong == 0 ? "PASSED" : "FAILED");
  cudaFree(heads);
  cudaFree(sums);
  cudaFree(squares);
  return wrong == 0 ? 0 : 1;
}
