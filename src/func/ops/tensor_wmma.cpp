// wmma.load.{a,b,c}, wmma.store.d and wmma.mma (sm_70+ warp matrix functions).
//
// Forms: shapes m16n16k16, m32n8k16, m8n32k16 with f16 (a/b), bf16 (a/b), s8/u8 (a/b), f16/f32/
// s32 (c/d); m16n16k8 with tf32 (a/b) and f32 (c/d); m8n8k4 with f64. Layout .row/.col,
// optional .global/.shared/.shared::cta (else generic), optional stride operand in elements
// (default: the leading dimension: columns for .row, rows for .col). Modifiers may come in any
// order (ptxas accepts wmma.load.a.sync.aligned.m16n16k16.global.row.f16 too).
//
// Fragment layout: the PTX ISA leaves the wmma fragment-to-lane mapping unspecified, so this
// engine uses the natural one: a lane's fragment has n = registers x elements-per-register
// elements, and element j of lane l holds matrix element (l * n + j) mod (rows * cols) in
// row-major order. Fragment sizes are the ones CUDA uses (num_elements): f16 multiplicands
// have 16 elements per lane (8 .f16x2 registers) for a 256- or 128-element matrix, so every
// element is held by 2 (or 4) lanes, lanes 16-31 repeating lanes 0-15; all other fragments
// hold each element once. The layout is the same for .row and .col (memory layout is applied
// by load/store), so wmma.mma's .alayout/.blayout need no work. Element-wise code that
// treats fragments as opaque arrays (what CUDA guarantees) runs as on hardware.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "func/ops/tensor_binders.h"
#include "func/ops/tensor_common.h"
#include "func/ops/tensor_multiply.h"
#include "func/ops/warp_common.h"

namespace lockstep::func::tensor {

namespace {

struct Shape {
  uint32_t m = 0, n = 0, k = 0;
};

std::optional<Shape> parse_shape(const std::string& s) {
  unsigned m = 0, n = 0, k = 0;
  char tail = 0;
  if (std::sscanf(s.c_str(), "m%un%uk%u%c", &m, &n, &k, &tail) != 3) return std::nullopt;
  return Shape{m, n, k};
}

// The modifiers of a wmma instruction, sorted by kind.
struct WmmaForm {
  std::string op;                  // load, store, mma
  std::string matrix;              // a, b, c, d (load/store)
  std::vector<std::string> layouts;
  std::optional<Shape> shape;
  Space space = Space::Generic;
  std::vector<Elem> types;
  bool satfinite = false;
  bool rounding_other_than_rn = false;
  bool unknown = false;
};

WmmaForm parse_form(const ir::Instruction& inst) {
  WmmaForm f;
  const auto& m = inst.modifiers;
  if (m.empty()) {
    f.unknown = true;
    return f;
  }
  f.op = m[0];
  size_t i = 1;
  if ((f.op == "load" || f.op == "store") && m.size() > 1) f.matrix = m[i++];
  for (; i < m.size(); ++i) {
    const std::string& x = m[i];
    if (x == "sync" || x == "aligned") continue;
    if (x == "row" || x == "col") {
      f.layouts.push_back(x);
    } else if (auto s = parse_shape(x)) {
      if (f.shape) f.unknown = true;
      f.shape = s;
    } else if (x == "global") {
      f.space = Space::Global;
    } else if (x == "shared" || x == "shared::cta") {
      f.space = Space::Shared;
    } else if (auto t = elem_type(x)) {
      f.types.push_back(*t);
    } else if (x == "satfinite") {
      f.satfinite = true;
    } else if (x == "rn") {
      continue;
    } else if (x == "rz" || x == "rm" || x == "rp") {
      f.rounding_other_than_rn = true;
    } else {
      f.unknown = true;
    }
  }
  return f;
}

bool is_shape(const Shape& s, uint32_t m, uint32_t n, uint32_t k) {
  return s.m == m && s.n == n && s.k == k;
}
bool is_half_shape(const Shape& s) {
  return is_shape(s, 16, 16, 16) || is_shape(s, 32, 8, 16) || is_shape(s, 8, 32, 16);
}

// Whether a multiplicand type goes with a shape.
bool multiplicand_fits(Elem e, const Shape& s) {
  if (e == Elem::TF32) return is_shape(s, 16, 16, 8);
  if (e == Elem::F64) return is_shape(s, 8, 8, 4);
  return (e == Elem::F16 || e == Elem::BF16 || e == Elem::S8 || e == Elem::U8) && is_half_shape(s);
}
bool accumulator_fits(Elem e, const Shape& s) {
  if (e == Elem::F64) return is_shape(s, 8, 8, 4);
  if (e == Elem::F32) return is_half_shape(s) || is_shape(s, 16, 16, 8);
  return (e == Elem::F16 || e == Elem::S32) && is_half_shape(s);
}

// Registers of a fragment: f16 multiplicands 8 (elements repeated across lanes), else the
// matrix spread evenly over 32 lanes.
uint32_t fragment_regs(Elem e, uint32_t rows, uint32_t cols, bool multiplicand) {
  if (multiplicand && e == Elem::F16) return 8;
  return rows * cols / 32 / per_reg(e);
}

FragmentMap natural_map(uint32_t rows, uint32_t cols, uint32_t per_lane) {
  FragmentMap map(32 * per_lane);
  for (uint32_t i = 0; i < map.size(); ++i) map[i] = i % (rows * cols);
  return map;
}

// Load/store descriptor in ExecInst::aux.
struct FragDesc {
  uint8_t rows = 0, cols = 0, regs = 0, elem_bytes = 0, per_reg = 0, col_major = 0;
  uint8_t unused[2] = {};
};
static_assert(sizeof(FragDesc) == 8);

// Moves `run` consecutive elements of kBytes each between memory at `p` and a lane's fragment
// registers (`value`), starting at fragment element j. Registers are 32 bits wide but for f64.
template <uint32_t kBytes, bool kStore>
[[gnu::always_inline]] inline void move_elements(uint8_t* p, uint32_t run, uint32_t j,
                                                 uint64_t* value) {
  using T = std::conditional_t<kBytes == 1, uint8_t,
                               std::conditional_t<kBytes == 2, uint16_t,
                                                  std::conditional_t<kBytes == 4, uint32_t, uint64_t>>>;
  constexpr uint32_t kPerReg = kBytes == 8 ? 1 : 4 / kBytes;
  if constexpr (kPerReg > 1 && std::endian::native == std::endian::little) {
    // Whole registers: a register's elements sit low to high as they do in memory, so it is
    // one 32-bit word (f16 and bf16 rows move 8 or 16 bytes per register this way).
    for (; run >= kPerReg && j % kPerReg == 0; run -= kPerReg, j += kPerReg, p += 4) {
      if constexpr (kStore) {
        const uint32_t v = static_cast<uint32_t>(value[j / kPerReg]);
        std::memcpy(p, &v, 4);
      } else {
        uint32_t v;
        std::memcpy(&v, p, 4);
        value[j / kPerReg] = v;
      }
    }
  }
  for (uint32_t e = 0; e < run; ++e, ++j, p += kBytes) {
    const uint32_t reg = j / kPerReg, shift = (j % kPerReg) * kBytes * 8;
    if constexpr (kStore) {
      const T v = static_cast<T>(value[reg] >> shift);
      std::memcpy(p, &v, kBytes);
    } else {
      T v;
      std::memcpy(&v, p, kBytes);
      value[reg] |= uint64_t{v} << shift;
    }
  }
}

template <Space S, bool kStore>
void wmma_access_h(const ExecInst& in, Warp& w) {
  require_whole_warp(w, kStore ? "wmma.store" : "wmma.load");
  const FragDesc f = std::bit_cast<FragDesc>(in.aux);
  const uint32_t* regs = operand_table(in, w).data();
  const uint32_t bytes = f.elem_bytes;
  const uint32_t per_lane = f.regs * f.per_reg;
  const uint32_t total = uint32_t{f.rows} * f.cols;
  // Addresses are read for every lane before any register is written (a fragment register may
  // be the address register).
  uint64_t bases[32], strides[32];
  for (uint32_t lane = 0; lane < 32; ++lane) {
    bases[lane] = w.r(in.s[0])[lane] + static_cast<uint64_t>(in.offset);
    strides[lane] = static_cast<uint32_t>(w.r(in.s[1])[lane]);
  }
  // f16 multiplicand fragments hold each element twice: lane l + copy_lanes holds what lane l
  // does, and loads it from the same bytes when its address is the same (as wmma requires).
  const uint32_t copy_lanes = 32 * per_lane > total && total % per_lane == 0 ? total / per_lane : 32;
  // The fragment of every lane, register by register: the register file is slot-major, so a
  // register's 32 lanes are one contiguous row, read or written in one pass.
  uint64_t frag[8][32];
  if constexpr (kStore) {
    for (uint32_t r = 0; r < f.regs; ++r) std::memcpy(frag[r], w.r(regs[r]), sizeof frag[r]);
  }
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint64_t base = bases[lane], stride = strides[lane];
    if (!kStore && lane >= copy_lanes && base == bases[lane - copy_lanes] && stride == strides[lane - copy_lanes]) {
      for (uint32_t r = 0; r < f.regs; ++r) frag[r][lane] = frag[r][lane - copy_lanes];
      continue;
    }
    uint64_t value[8] = {};
    if constexpr (kStore) {
      for (uint32_t r = 0; r < f.regs; ++r) value[r] = frag[r][lane];
    }
    for (uint32_t j = 0; j < per_lane;) {
      const uint32_t idx = (lane * per_lane + j) % total;
      const uint32_t row = idx / f.cols, col = idx % f.cols;
      const uint64_t elem = f.col_major ? uint64_t{col} * stride + row : uint64_t{row} * stride + col;
      // A lane's elements run along a row: in row-major memory that is one contiguous segment,
      // translated once. A segment that is not all accessible goes element by element, so the
      // fault names the exact element.
      uint32_t run = f.col_major ? 1 : std::min(per_lane - j, uint32_t{f.cols} - col);
      uint8_t* p = run > 1 ? try_at<S>(w, base + elem * bytes, run * bytes, bytes, lane, kStore) : nullptr;
      if (p == nullptr) {
        run = 1;
        p = at<S>(w, base + elem * bytes, bytes, bytes, lane, kStore);
      }
      switch (bytes) {
        case 1: move_elements<1, kStore>(p, run, j, value); break;
        case 2: move_elements<2, kStore>(p, run, j, value); break;
        case 4: move_elements<4, kStore>(p, run, j, value); break;
        default: move_elements<8, kStore>(p, run, j, value); break;
      }
      j += run;
    }
    if constexpr (!kStore) {
      for (uint32_t r = 0; r < f.regs; ++r) frag[r][lane] = value[r];
    }
  }
  // A load writes the registers only once every lane's access has succeeded.
  if constexpr (!kStore) {
    for (uint32_t r = 0; r < f.regs; ++r) std::memcpy(w.r(regs[r]), frag[r], sizeof frag[r]);
  }
}

template <bool kStore>
Handler access_handler(Space s) {
  switch (s) {
    case Space::Global: return &wmma_access_h<Space::Global, kStore>;
    case Space::Shared: return &wmma_access_h<Space::Shared, kStore>;
    default: return &wmma_access_h<Space::Generic, kStore>;
  }
}

std::optional<ExecInst> bind_load_store(const ir::Instruction& inst, BindContext& ctx,
                                        const WmmaForm& f) {
  const bool store = f.op == "store";
  const bool valid_matrix = store ? f.matrix == "d"
                                  : (f.matrix == "a" || f.matrix == "b" || f.matrix == "c");
  if (!valid_matrix || f.layouts.size() != 1 || !f.shape || f.types.size() != 1 ||
      f.satfinite)
    ctx.unsupported(inst);
  const Shape s = *f.shape;
  const Elem e = f.types[0];
  const bool multiplicand = f.matrix == "a" || f.matrix == "b";
  if (multiplicand ? !multiplicand_fits(e, s) : !accumulator_fits(e, s)) ctx.unsupported(inst);
  uint32_t rows = s.m, cols = s.n;
  if (f.matrix == "a") cols = s.k;
  if (f.matrix == "b") rows = s.k;
  if (inst.operands.size() != 2 && inst.operands.size() != 3) ctx.expect_operands(inst, 3);
  const uint32_t regs = fragment_regs(e, rows, cols, multiplicand);
  const size_t frag_at = store ? 1 : 0;
  const std::vector<uint32_t> slots = vector_slots(inst, frag_at, regs, "the fragment", ctx);
  const AddressOperand addr = bind_address(inst, store ? 0 : 1, ctx);
  const bool col_major = f.layouts[0] == "col";
  ExecInst ex = make_exec(inst, store ? access_handler<true>(f.space) : access_handler<false>(f.space));
  ex.table = ctx.table(slots);
  ex.s[0] = addr.base;
  ex.offset = addr.offset;
  ex.s[1] = inst.operands.size() == 3 ? warp_ops::value_slot(inst, 2, ctx)
                                      : ctx.constant(col_major ? rows : cols);
  ex.ns = 2;
  FragDesc d;
  d.rows = static_cast<uint8_t>(rows);
  d.cols = static_cast<uint8_t>(cols);
  d.regs = static_cast<uint8_t>(regs);
  d.elem_bytes = static_cast<uint8_t>(elem_bits(e) / 8);
  d.per_reg = static_cast<uint8_t>(per_reg(e));
  d.col_major = col_major ? 1 : 0;
  ex.aux = std::bit_cast<uint64_t>(d);
  return ex;
}

std::optional<ExecInst> bind_wmma_mma(const ir::Instruction& inst, BindContext& ctx,
                                      const WmmaForm& f) {
  if (f.layouts.size() != 2 || !f.shape || f.space != Space::Generic || f.rounding_other_than_rn)
    ctx.unsupported(inst);
  Elem d, a, b, c;
  if (f.types.size() == 2) {  // .dtype.ctype with f16 multiplicands
    d = f.types[0];
    c = f.types[1];
    a = b = Elem::F16;
  } else if (f.types.size() == 4) {
    d = f.types[0];
    a = f.types[1];
    b = f.types[2];
    c = f.types[3];
  } else {
    ctx.unsupported(inst);
  }
  const Shape s = *f.shape;
  const bool int_mix_ok = !is_int(a) || a == b;  // wmma wants both s8 or both u8
  if (!multiplicand_fits(a, s) || !multiplicand_fits(b, s) || !accumulator_fits(c, s) ||
      !accumulator_fits(d, s) || !int_mix_ok)
    ctx.unsupported(inst);
  const Handler fn = mma_handler(a, b, c, d);
  if (fn == nullptr) ctx.unsupported(inst);
  ctx.expect_operands(inst, 4);
  MmaDesc desc;
  desc.m = static_cast<uint8_t>(s.m);
  desc.n = static_cast<uint8_t>(s.n);
  desc.k = static_cast<uint8_t>(s.k);
  desc.regs_d = static_cast<uint8_t>(fragment_regs(d, s.m, s.n, false));
  desc.regs_a = static_cast<uint8_t>(fragment_regs(a, s.m, s.k, true));
  desc.regs_b = static_cast<uint8_t>(fragment_regs(b, s.k, s.n, true));
  desc.regs_c = static_cast<uint8_t>(fragment_regs(c, s.m, s.n, false));
  desc.satfinite = f.satfinite ? 1 : 0;
  const auto ds = vector_slots(inst, 0, desc.regs_d, "fragment d", ctx);
  const auto as = vector_slots(inst, 1, desc.regs_a, "fragment a", ctx);
  const auto bs = vector_slots(inst, 2, desc.regs_b, "fragment b", ctx);
  const auto cs = vector_slots(inst, 3, desc.regs_c, "fragment c", ctx);
  return bind_multiply(inst, ctx, fn, desc, ds, as, bs, cs,
                       natural_map(s.m, s.k, desc.regs_a * per_reg(a)),
                       natural_map(s.k, s.n, desc.regs_b * per_reg(b)),
                       natural_map(s.m, s.n, desc.regs_c * per_reg(c)), true);
}

}  // namespace

std::optional<ExecInst> bind_wmma(const ir::Instruction& inst, BindContext& ctx) {
  const WmmaForm f = parse_form(inst);
  if (f.unknown) ctx.unsupported(inst);
  if (f.op == "load" || f.op == "store") return bind_load_store(inst, ctx, f);
  if (f.op == "mma") return bind_wmma_mma(inst, ctx, f);
  ctx.unsupported(inst);
}

}  // namespace lockstep::func::tensor
