// Deliberate memory faults for the engine's memory checker: one thread writes far past the end
// of its buffer, or one thread reads a 4-byte word from an address that is 2 bytes off.
extern "C" __global__ void oob_write(int* buf, int n, int bad_thread, int bad_index) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int index = i == bad_thread ? bad_index : i;
  buf[index] = i;
}

extern "C" __global__ void misaligned_read(const char* bytes, int* out, int n, int bad_thread) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int offset = 4 * i + (i == bad_thread ? 2 : 0);
  out[i] = *reinterpret_cast<const int*>(bytes + offset);
}
