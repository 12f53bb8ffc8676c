// See float_fenv.h. Each function switches the host rounding mode for exactly one operation.
#include "func/ops/float_fenv.h"

#include <cfenv>
#include <cmath>

namespace lockstep::func::fp {
namespace {

int host_mode(Round r) {
  switch (r) {
    case Round::Zero: return FE_TOWARDZERO;
    case Round::Down: return FE_DOWNWARD;
    case Round::Up: return FE_UPWARD;
    case Round::Nearest:
    case Round::NearestAway: break;  // rna has no host mode; callers never pass it here
  }
  return FE_TONEAREST;
}

// Restores the caller's rounding mode when the operation is done, also on exceptions.
class ScopedRounding {
 public:
  explicit ScopedRounding(Round r) : saved_(std::fegetround()) { std::fesetround(host_mode(r)); }
  ~ScopedRounding() { std::fesetround(saved_); }
  ScopedRounding(const ScopedRounding&) = delete;
  ScopedRounding& operator=(const ScopedRounding&) = delete;

 private:
  int saved_;
};

// Runs op on volatile copies of the operands inside the rounding scope and reads the
// result back through a volatile, which pins the computation between the two mode switches.
template <class R, class Op, class... Args>
R in_mode(Round r, Op op, Args... args) {
  volatile R result;
  {
    ScopedRounding scope(r);
    result = op(args...);
  }
  return result;
}

template <class T>
T load(const volatile T& v) {
  return v;
}

}  // namespace

double add_f64(double a, double b, Round r) {
  volatile double va = a, vb = b;
  return in_mode<double>(r, [&] { return load(va) + load(vb); });
}
double mul_f64(double a, double b, Round r) {
  volatile double va = a, vb = b;
  return in_mode<double>(r, [&] { return load(va) * load(vb); });
}
double fma_f64(double a, double b, double c, Round r) {
  volatile double va = a, vb = b, vc = c;
  return in_mode<double>(r, [&] { return std::fma(load(va), load(vb), load(vc)); });
}
double div_f64(double a, double b, Round r) {
  volatile double va = a, vb = b;
  return in_mode<double>(r, [&] { return load(va) / load(vb); });
}
double sqrt_f64(double a, Round r) {
  volatile double va = a;
  return in_mode<double>(r, [&] { return std::sqrt(load(va)); });
}
float div_f32(float a, float b, Round r) {
  volatile float va = a, vb = b;
  return in_mode<float>(r, [&] { return load(va) / load(vb); });
}
float sqrt_f32(float a, Round r) {
  volatile float va = a;
  return in_mode<float>(r, [&] { return std::sqrt(load(va)); });
}
float f32_from_s64(int64_t v, Round r) {
  volatile int64_t vv = v;
  return in_mode<float>(r, [&] { return static_cast<float>(load(vv)); });
}
float f32_from_u64(uint64_t v, Round r) {
  volatile uint64_t vv = v;
  return in_mode<float>(r, [&] { return static_cast<float>(load(vv)); });
}
double f64_from_s64(int64_t v, Round r) {
  volatile int64_t vv = v;
  return in_mode<double>(r, [&] { return static_cast<double>(load(vv)); });
}
double f64_from_u64(uint64_t v, Round r) {
  volatile uint64_t vv = v;
  return in_mode<double>(r, [&] { return static_cast<double>(load(vv)); });
}
float f32_from_f64(double v, Round r) {
  volatile double vv = v;
  return in_mode<float>(r, [&] { return static_cast<float>(load(vv)); });
}

}  // namespace lockstep::func::fp
