// Kernel parameters of many shapes (structs by value with different sizes and alignments,
// float3, arrays inside structs, small scalars), and 3D grids/blocks that use every
// component of threadIdx, blockIdx, blockDim and gridDim.
struct Small {
  char c;
  int i;
};
struct Mixed {
  double d;
  float f;
  short s;
  char c;
};
struct WithArray {
  int a[5];
  float3 v;
};
struct __align__(16) Aligned16 {
  float4 q;
  int tag;
};

// Thread 0 of block 0 writes every field it received (as raw 32-bit words) to out[0..];
// every other thread writes a value computed from the scalars to out[kFields + i].
constexpr int kFields = 26;

extern "C" __global__ void struct_params(char c, Small s, short h, Mixed m, WithArray w,
                                         unsigned long long big, Aligned16 q, float3 f3, double d,
                                         int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    out[0] = c;
    out[1] = s.c;
    out[2] = s.i;
    out[3] = h;
    out[4] = __double2loint(m.d);
    out[5] = __double2hiint(m.d);
    out[6] = __float_as_int(m.f);
    out[7] = m.s;
    out[8] = m.c;
    for (int k = 0; k < 5; ++k) out[9 + k] = w.a[k];
    out[14] = __float_as_int(w.v.x);
    out[15] = __float_as_int(w.v.y);
    out[16] = __float_as_int(w.v.z);
    out[17] = static_cast<int>(big);
    out[18] = static_cast<int>(big >> 32);
    out[19] = __float_as_int(q.q.x);
    out[20] = __float_as_int(q.q.w);
    out[21] = q.tag;
    out[22] = __float_as_int(f3.x);
    out[23] = __float_as_int(f3.z);
    out[24] = __double2loint(d);
    out[25] = __double2hiint(d);
  }
  if (i < n) out[kFields + i] = i * s.i + w.a[i % 5] + c;
}

// Each thread writes its coordinates, packed 4 bits per component
// (tid.x,y,z, ctaid.x,y,z, ntid.x,y) and gridDim/blockDim.z in a second word, at its
// linear global index.
extern "C" __global__ void grid3d_ids(unsigned* out) {
  unsigned block_linear = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  unsigned thread_linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned g = block_linear * threads + thread_linear;
  out[2 * g] = threadIdx.x | threadIdx.y << 4 | threadIdx.z << 8 | blockIdx.x << 12 |
               blockIdx.y << 16 | blockIdx.z << 20 | blockDim.x << 24 | blockDim.y << 28;
  out[2 * g + 1] = blockDim.z | gridDim.x << 8 | gridDim.y << 16 | gridDim.z << 24;
}
