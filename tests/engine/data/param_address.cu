// Source of tests/engine/data/param_address.ptx (nvcc 13.0: nvcc -arch=sm_90 -ptx).
struct Table { int v[1024]; };
// A struct parameter indexed at run time: mov of the parameter's symbol, then ld.param [reg].
__global__ void pick(Table t, const int* idx, int* out) {
  const int i = threadIdx.x;
  out[i] = t.v[idx[i] & 1023];
}
struct Big { int v[8000]; };  // 32000 bytes: a large kernel parameter (CUDA 12.1+)
// A __grid_constant__ parameter whose address is taken: cvta.param, then generic loads.
__device__ __noinline__ int sum_through(const Big* b, int first, int n) {
  int s = 0;
  for (int k = 0; k < n; ++k) s += b->v[(first + k * 97) % 8000];
  return s;
}
__global__ void sum_big(const __grid_constant__ Big b, int* out) {
  out[threadIdx.x] = sum_through(&b, threadIdx.x, 8);
}
// An index past the parameter: ld.param through a register outside the buffer faults.
__global__ void overrun(Table t, int i, int* out) { out[0] = t.v[i]; }
