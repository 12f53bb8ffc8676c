#pragma once
// Directed-rounding arithmetic that cannot be made exact cheaply by error-free
// transformations (division, square root, f64 operations, integer and f64 conversions):
// computed by the host FPU with its rounding mode switched for the one operation.
// float_fenv.cpp is compiled with -frounding-math and keeps every operand and result in a
// volatile so that the compiler cannot fold or move the operation across the mode switch.
// Callers use these only for Round::Zero/Down/Up (and Nearest works too, but slower than the
// plain C++ operator).
#include <cstdint>

#include "func/ops/float_bits.h"

namespace lockstep::func::fp {

double add_f64(double a, double b, Round r);
double mul_f64(double a, double b, Round r);
double fma_f64(double a, double b, double c, Round r);
double div_f64(double a, double b, Round r);
double sqrt_f64(double a, Round r);
float div_f32(float a, float b, Round r);
float sqrt_f32(float a, Round r);

// Integer and f64 sources rounded to f32/f64 in the given mode.
float f32_from_s64(int64_t v, Round r);
float f32_from_u64(uint64_t v, Round r);
double f64_from_s64(int64_t v, Round r);
double f64_from_u64(uint64_t v, Round r);
float f32_from_f64(double v, Round r);

}  // namespace lockstep::func::fp
