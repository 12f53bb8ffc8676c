// Real recursion through __noinline__ device functions (compiled to a .func that calls itself):
//  - fib_kernel: out[i] = fib(ns[i]) with the doubly recursive definition.
//  - local_recursive_sum: each thread fills a local array and folds it with a recursive
//    function that receives a pointer to that array (so the array lives in .local memory).
//    fold(a, n) = a[n-1] + 3 * fold(a, n-1), fold(a, 0) = 0 (wrapping 32-bit arithmetic).
__device__ __noinline__ int fib(int n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ unsigned fold(const unsigned* a, int n) {
  if (n == 0) return 0u;
  return a[n - 1] + 3u * fold(a, n - 1);
}

extern "C" __global__ void fib_kernel(const int* ns, int* out, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = fib(ns[i]);
}

extern "C" __global__ void local_recursive_sum(const unsigned* in, unsigned* out, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  unsigned local[16];
  for (int k = 0; k < 16; ++k) local[k] = in[i * 16 + k] * (unsigned)(k + 1);
  out[i] = fold(local, 16 - i % 7);
}
