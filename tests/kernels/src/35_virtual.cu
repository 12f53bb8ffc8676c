// Indirect calls: virtual functions on objects built in device memory, and a __device__ table
// of function pointers initialised at load time. Lanes of one warp call different targets.
#include <new>

struct Shape {
  __device__ virtual float area(float s) const = 0;
  __device__ virtual int sides() const { return 0; }
};
struct Square : Shape {
  __device__ float area(float s) const override { return s * s; }
  __device__ int sides() const override { return 4; }
};
struct Triangle : Shape {
  __device__ float area(float s) const override { return 0.4330127f * s * s; }
  __device__ int sides() const override { return 3; }
};
struct Circle : Shape {
  __device__ float area(float s) const override { return 3.14159265f * s * s; }
};

union ShapeStorage {
  Square square;
  Triangle triangle;
  Circle circle;
  __device__ ShapeStorage() {}
};

extern "C" __global__ void virtual_areas(const float* sizes, float* areas, int* sides, int n) {
  __shared__ ShapeStorage storage[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Shape* shape;
  switch (i % 3) {
    case 0: shape = new (&storage[threadIdx.x].square) Square(); break;
    case 1: shape = new (&storage[threadIdx.x].triangle) Triangle(); break;
    default: shape = new (&storage[threadIdx.x].circle) Circle(); break;
  }
  areas[i] = shape->area(sizes[i]);
  sides[i] = shape->sides();
}

__device__ __noinline__ int add_one(int x) { return x + 1; }
__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int square(int x) { return x * x; }

typedef int (*IntOp)(int);
__device__ IntOp g_ops[3] = {add_one, twice, square};

extern "C" __global__ void pointer_table(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = g_ops[(in[i] >> 8) % 3](in[i] & 0xff);
}
