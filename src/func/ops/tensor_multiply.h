#pragma once
// The matrix multiply-accumulate shared by wmma.mma and mma.sync: gather the fragments of all
// 32 lanes into whole matrices, compute D = A * B + C, scatter D back into the lanes' fragments.
// Which (row, col) each fragment element holds is a per-operand map computed at bind time
// (the documented mma layouts or the wmma layout of tensor_wmma.cpp), so the run-time code is
// the same for every shape.
//
// Arithmetic (the ISA leaves accumulation order and internal precision unspecified; this is our
// deterministic choice, reproduced by the tests' CPU reference):
// - f16/bf16/tf32 multiplicands: per output element, acc = C[i][j] as f32, then for k = 0..K-1
//   acc = fmaf(A[i][k], B[k][j], acc) in f32 round-to-nearest (every product of these inputs
//   is exact in f32); an f16 D is acc rounded to nearest even at the end. .satfinite (accepted
//   for old PTX) turns an infinite result into the largest finite value of its sign.
// - f64: the same with fma in double (.rn only).
// - s8/u8: exact sum in 64 bits; .satfinite clamps to the s32 range, otherwise it wraps.
#include <cstdint>
#include <vector>

#include "func/bind.h"
#include "func/ops/tensor_types.h"

namespace lockstep::func::tensor {

// Largest operand matrix (32x16 or 16x32 elements).
inline constexpr uint32_t kMaxMatrixElems = 512;

// Shape and register counts of one multiply, packed into ExecInst::aux.
struct MmaDesc {
  uint8_t m = 0, n = 0, k = 0;
  uint8_t regs_d = 0, regs_a = 0, regs_b = 0, regs_c = 0;
  uint8_t satfinite = 0;
};
static_assert(sizeof(MmaDesc) == 8);

// Which operand a map or a register list belongs to.
enum class Operand : uint8_t { A, B, C };

// The element index (row * cols + col) held by element j of lane l's fragment, for every lane
// and element: map[l * per_lane + j].
using FragmentMap = std::vector<uint32_t>;

// The handler for a type combination, or nullptr when it is not one the ISA defines here.
Handler mma_handler(Elem a, Elem b, Elem c, Elem d);

// Builds the ExecInst of a multiply: table = the d slots, the map of C/D (for writing D), then
// where each element of A, B and C is read from (tensor_multiply.cpp, sources()).
// `name` is used in run-time faults ("wmma.mma", "mma").
ExecInst bind_multiply(const ir::Instruction& inst, BindContext& ctx, Handler fn,
                       const MmaDesc& desc, const std::vector<uint32_t>& d,
                       const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                       const std::vector<uint32_t>& c, const FragmentMap& map_a,
                       const FragmentMap& map_b, const FragmentMap& map_c, bool is_wmma);

}  // namespace lockstep::func::tensor
