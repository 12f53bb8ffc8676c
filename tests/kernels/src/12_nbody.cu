// All-pairs n-body accelerations. Positions are float4 (x, y, z, mass); each block stages a
// tile of blockDim.x bodies in shared memory, and every thread accumulates the softened
// gravitational pull of all bodies on its own body with rsqrtf. n must be a multiple of
// blockDim.x. acc[i] = (ax, ay, az, 0).
__device__ float3 body_interaction(float4 bi, float4 bj, float3 a, float softening2) {
  float3 r;
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;
  float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + softening2;
  float inv = rsqrtf(dist2);
  float inv3 = inv * inv * inv;
  float s = bj.w * inv3;
  a.x += r.x * s;
  a.y += r.y * s;
  a.z += r.z * s;
  return a;
}

extern "C" __global__ void nbody_accel(const float4* pos, float4* acc, int n, float softening2) {
  extern __shared__ float4 tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = pos[i];
  float3 a = make_float3(0.0f, 0.0f, 0.0f);
  for (int base = 0; base < n; base += blockDim.x) {
    tile[threadIdx.x] = pos[base + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < (int)blockDim.x; ++j) a = body_interaction(me, tile[j], a, softening2);
    __syncthreads();
  }
  acc[i] = make_float4(a.x, a.y, a.z, 0.0f);
}
