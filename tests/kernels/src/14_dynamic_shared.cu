// Dynamically sized shared memory (extern __shared__, size given at launch).
//  - dyn_reverse: each block reverses its blockDim.x-element segment through shared memory;
//    the last block may be partial (missing elements read as -1 and are not written).
//  - dyn_two_arrays: one dynamic allocation split into an int array and a float array of
//    blockDim.x elements each; out[i] = vals[(t+1) % B] * (float)counts[B-1-t].
extern __shared__ int dyn_smem[];

extern "C" __global__ void dyn_reverse(const int* in, int* out, int n) {
  int t = threadIdx.x;
  int base = blockIdx.x * blockDim.x;
  int count = min((int)blockDim.x, n - base);
  dyn_smem[t] = t < count ? in[base + t] : -1;
  __syncthreads();
  if (t < count) out[base + t] = dyn_smem[count - 1 - t];
}

extern "C" __global__ void dyn_two_arrays(const int* counts_in, const float* vals_in, float* out) {
  int t = threadIdx.x;
  int b = blockDim.x;
  int* counts = dyn_smem;
  float* vals = reinterpret_cast<float*>(dyn_smem + b);
  int i = blockIdx.x * b + t;
  counts[t] = counts_in[i];
  vals[t] = vals_in[i];
  __syncthreads();
  out[i] = vals[(t + 1) % b] * (float)counts[b - 1 - t];
}
