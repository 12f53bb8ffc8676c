#include <cstdio>
// Device printf with every common conversion, plus a printf guarded by a per-thread condition.
extern "C" __global__ void printf_formats(int i, unsigned u, float f, long long ll, const int* p) {
  printf("int %d unsigned %u hex %x HEX %X\n", i, u, u, u);
  printf("float %f %.3f %e %g\n", f, f, f, f);
  printf("char %c string %s long %lld\n", 'Q', "lockstep", ll);
  printf("ptr %p\n", p);
  printf("width [%5d] [%-5d] [%05d] [%8.2f] 100%%\n", i, i, i, f);
  printf("unsigned long long %llu neg %d\n", (unsigned long long)ll * 3ull, -i);
}

extern "C" __global__ void printf_guarded(const int* values, int every) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t % every == 0) printf("thread %d block %d value %d\n", t, blockIdx.x, values[t]);
}
