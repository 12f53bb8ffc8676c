// Integer intrinsics and arithmetic: bit counting and reversal, byte permute, funnel shifts,
// sums of absolute differences, byte-wise dot products, 24-bit and high-half multiplies, bit
// field extract/insert written with shifts, and signed/unsigned division and remainder.
constexpr int kOuts32 = 25;

// a, b, c: arbitrary 32-bit values; d: nonzero divisors (never -1 with a == INT_MIN).
extern "C" __global__ void int_ops32(const unsigned* a, const unsigned* b, const unsigned* c,
                                     const int* d, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], z = c[i];
  int sx = static_cast<int>(x), sy = static_cast<int>(y), sd = d[i];
  unsigned* o = out + kOuts32 * i;
  o[0] = __popc(x);
  o[1] = __clz(sx);
  o[2] = __brev(x);
  o[3] = __ffs(sx);
  o[4] = __byte_perm(x, y, z);
  o[5] = __funnelshift_l(x, y, z);
  o[6] = __funnelshift_r(x, y, z);
  o[7] = __funnelshift_lc(x, y, z);
  o[8] = __funnelshift_rc(x, y, z);
  o[9] = __sad(sx, sy, z);
  o[10] = __usad(x, y, z);
  o[11] = __vabsdiffu4(x, y);
  o[12] = static_cast<unsigned>(__dp4a(sx, sy, static_cast<int>(z)));
  o[13] = __dp4a(x, y, z);
  o[14] = static_cast<unsigned>(__mul24(sx, sy));
  o[15] = __umul24(x, y);
  o[16] = static_cast<unsigned>(__mulhi(sx, sy));
  o[17] = __umulhi(x, y);
  o[18] = (x >> (z & 15)) & 0x7fu;                        // 7-bit field at a variable offset
  o[19] = (x & ~(0xffu << 8)) | ((y & 0xffu) << 8);       // insert a byte at bit 8
  o[20] = static_cast<unsigned>(sx / sd);
  o[21] = static_cast<unsigned>(sx % sd);
  o[22] = x / static_cast<unsigned>(sd);
  o[23] = x % static_cast<unsigned>(sd);
  // __byte_perm masks its selector to 3 bits per byte (and 0x7777); raw prmt also honours the
  // selector's sign-replicate bit.
  unsigned raw;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(raw) : "r"(x), "r"(y), "r"(z));
  o[24] = raw;
}

constexpr int kOuts64 = 10;

// 64-bit: division/remainder signed and unsigned, high-half multiplies, bit counting.
extern "C" __global__ void int_ops64(const unsigned long long* a, const unsigned long long* b,
                                     const long long* d, unsigned long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = a[i], y = b[i];
  long long sx = static_cast<long long>(x), sd = d[i];
  unsigned long long* o = out + kOuts64 * i;
  o[0] = static_cast<unsigned long long>(sx / sd);
  o[1] = static_cast<unsigned long long>(sx % sd);
  o[2] = x / static_cast<unsigned long long>(sd);
  o[3] = x % static_cast<unsigned long long>(sd);
  o[4] = static_cast<unsigned long long>(__mul64hi(sx, static_cast<long long>(y)));
  o[5] = __umul64hi(x, y);
  o[6] = static_cast<unsigned long long>(__popcll(x));
  o[7] = static_cast<unsigned long long>(__clzll(sx));
  o[8] = __brevll(x);
  o[9] = static_cast<unsigned long long>(__ffsll(sx));
}
