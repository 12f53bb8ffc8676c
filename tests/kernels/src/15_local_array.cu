// Per-thread arrays indexed by data, which nvcc cannot keep in registers, so they live in
// .local memory.
//  - local_lookup: a[k] = k*k + i for k < 32; a[sel[i] & 31] += 7; out[i] = a[sel[i] >> 5 & 31] - a[0].
//  - local_histogram: each thread counts the 4-bit nibbles of 8 words in a 16-entry local
//    array and writes the index of the most frequent nibble (smallest on ties) and its count.
extern "C" __global__ void local_lookup(const int* sel, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int a[32];
  for (int k = 0; k < 32; ++k) a[k] = k * k + i;
  int s = sel[i];
  a[s & 31] += 7;
  out[i] = a[(s >> 5) & 31] - a[0];
}

extern "C" __global__ void local_histogram(const unsigned* words, int* best, int* best_count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int counts[16];
  for (int k = 0; k < 16; ++k) counts[k] = 0;
  for (int w = 0; w < 8; ++w) {
    unsigned v = words[i * 8 + w];
    for (int nib = 0; nib < 8; ++nib) counts[(v >> (4 * nib)) & 15u]++;
  }
  int top = 0;
  for (int k = 1; k < 16; ++k)
    if (counts[k] > counts[top]) top = k;
  best[i] = top;
  best_count[i] = counts[top];
}
