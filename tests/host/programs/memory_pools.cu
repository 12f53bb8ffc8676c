// Stream-ordered memory pools: the default pool, a pool of the program's own with a release
// threshold, allocation from each (cudaMallocAsync, cudaMallocFromPoolAsync), usage figures and
// their high-water marks, access descriptors, switching the device's current pool, and CUDA's
// errors for what it refuses. Kernels write the pool memory and the host checks it.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void iota(int* v, int n, int base) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = base + i;
}

unsigned long long attribute(cudaMemPool_t pool, cudaMemPoolAttr attr) {
  unsigned long long value = 0;
  cudaMemPoolGetAttribute(pool, attr, &value);
  return value;
}

int main() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMemPool_t default_pool = nullptr, current = nullptr;
  cudaDeviceGetDefaultMemPool(&default_pool, 0);
  cudaDeviceGetMemPool(&current, 0);
  std::printf("default is current: %d\n", default_pool == current);

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool = nullptr;
  const cudaError_t created = cudaMemPoolCreate(&pool, &props);
  unsigned long long threshold = 1 << 20;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  int follow = 0;
  cudaMemPoolSetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &follow);
  int follow_back = 1;
  cudaMemPoolGetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &follow_back);
  std::printf("create %s, threshold %llu, follow events %d\n", cudaGetErrorName(created),
              attribute(pool, cudaMemPoolAttrReleaseThreshold), follow_back);

  const int n = 1000;
  int *a = nullptr, *b = nullptr;
  cudaMallocAsync(&a, n * sizeof(int), stream);
  cudaMallocFromPoolAsync(&b, 2 * n * sizeof(int), pool, stream);
  iota<<<(n + 255) / 256, 256, 0, stream>>>(a, n, 0);
  iota<<<(2 * n + 255) / 256, 256, 0, stream>>>(b, 2 * n, 5000);
  static int ha[n], hb[2 * n];
  cudaMemcpyAsync(ha, a, sizeof ha, cudaMemcpyDeviceToHost, stream);
  cudaMemcpyAsync(hb, b, sizeof hb, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += ha[i] != i;
  for (int i = 0; i < 2 * n; ++i) wrong += hb[i] != 5000 + i;
  std::printf("used: default %llu, pool %llu (reserved %llu), wrong %d\n",
              attribute(default_pool, cudaMemPoolAttrUsedMemCurrent), attribute(pool, cudaMemPoolAttrUsedMemCurrent),
              attribute(pool, cudaMemPoolAttrReservedMemCurrent), wrong);

  cudaFreeAsync(b, stream);
  cudaStreamSynchronize(stream);
  const unsigned long long high_before = attribute(pool, cudaMemPoolAttrUsedMemHigh);
  unsigned long long zero = 0;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero);
  std::printf("after free: pool used %llu, high %llu, high after reset %llu, trim %s\n",
              attribute(pool, cudaMemPoolAttrUsedMemCurrent), high_before, attribute(pool, cudaMemPoolAttrUsedMemHigh),
              cudaGetErrorName(cudaMemPoolTrimTo(pool, 0)));

  cudaMemAccessDesc access = {};
  access.location.type = cudaMemLocationTypeDevice;
  access.location.id = 0;
  access.flags = cudaMemAccessFlagsProtReadWrite;
  const cudaError_t set_access = cudaMemPoolSetAccess(pool, &access, 1);
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  cudaMemLocation where = access.location;
  cudaMemPoolGetAccess(&flags, pool, &where);
  std::printf("access %s, flags %d\n", cudaGetErrorName(set_access), static_cast<int>(flags));

  cudaDeviceSetMemPool(0, pool);
  cudaDeviceGetMemPool(&current, 0);
  int* c = nullptr;
  cudaMallocAsync(&c, 4096, stream);
  std::printf("current is the new pool: %d, its use %llu\n", current == pool,
              attribute(pool, cudaMemPoolAttrUsedMemCurrent));
  cudaFreeAsync(c, stream);
  cudaFreeAsync(a, stream);
  cudaStreamSynchronize(stream);

  const cudaError_t destroy_default = cudaMemPoolDestroy(default_pool);
  const cudaError_t other_device = cudaDeviceGetDefaultMemPool(&current, 1);
  unsigned long long used_value = 5;
  const cudaError_t read_only = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used_value);
  const cudaError_t destroyed = cudaMemPoolDestroy(pool);
  cudaDeviceGetMemPool(&current, 0);
  std::printf("destroy default %s, device 1 %s, set used %s, destroy %s, current back to default %d\n",
              cudaGetErrorName(destroy_default), cudaGetErrorName(other_device), cudaGetErrorName(read_only),
              cudaGetErrorName(destroyed), current == default_pool);
  cudaGetLastError();
  cudaStreamDestroy(stream);
  const bool ok = wrong == 0 && created == cudaSuccess && destroyed == cudaSuccess;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
