// mov (registers, immediates, special registers, symbol addresses, vector pack/unpack) and
// cvta (conversions between state-space and generic addresses).
#include "func/bind.h"
#include "func/device_memory.h"
#include "func/warp.h"

namespace lockstep::func {

namespace {

template <class T>
void mov_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  for (uint32_t l = 0; l < w.width; ++l)
    if (w.exec >> l & 1) d[l] = put<T>(get<T>(a[l]));
}

void mov_pred_h(const ExecInst& in, Warp& w) {
  LaneMask& d = w.p(in.d[0]);
  const LaneMask src = in.aux == 2 ? w.p(in.s[0]) : (in.aux ? ~LaneMask{0} : 0);
  d = (d & ~w.exec) | (src & w.exec);
}

// d = frame base + offset (address of a .local/.param variable of the current frame)
void mov_frame_address_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t v = w.frame_base() + static_cast<uint64_t>(in.offset);
  for_each_lane(w.exec, [&](uint32_t l) { d[l] = in.width == 4 ? static_cast<uint32_t>(v) : v; });
}

// Dynamic special registers: %clock, %clock64, %clock_hi, %globaltimer and its halves.
// Functional time is the warp's instruction count (documented estimate); the timing model
// supplies real cycles. aux: which register (ClockRead).
enum ClockRead : uint8_t { kClock64, kClock, kGlobalTimer, kClockHi, kGlobalTimerLo, kGlobalTimerHi };

void mov_clock_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t clock = w.clock;
  // %globaltimer in ns; the division only for the reads that need it.
  const auto timer = [&] { return clock * 1000 / w.launch->clock_mhz; };
  uint64_t v = clock;
  switch (in.aux) {
    case kClock: v = static_cast<uint32_t>(clock); break;
    case kGlobalTimer: v = timer(); break;
    case kClockHi: v = clock >> 32; break;
    case kGlobalTimerLo: v = static_cast<uint32_t>(timer()); break;
    case kGlobalTimerHi: v = timer() >> 32; break;
    default: break;
  }
  for_each_lane(w.exec, [&](uint32_t l) { d[l] = v; });
}

ClockRead clock_read(ir::SpecialReg r) {
  using S = ir::SpecialReg;
  switch (r) {
    case S::Clock: return kClock;
    case S::GlobalTimer: return kGlobalTimer;
    case S::ClockHi: return kClockHi;
    case S::GlobalTimerLo: return kGlobalTimerLo;
    case S::GlobalTimerHi: return kGlobalTimerHi;
    default: return kClock64;
  }
}

// Unpack: d0..dn-1 = pieces of s0 (each `width` bytes); table: destination slots.
void unpack_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& dst = w.launch->kernel->tables[in.table];
  const uint64_t* a = w.r(in.s[0]);
  const uint32_t bits = in.width * 8u;
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  for (size_t i = 0; i < dst.size(); ++i) {
    uint64_t* d = w.r(dst[i]);
    for_each_lane(w.exec, [&](uint32_t l) { d[l] = (a[l] >> (bits * i)) & mask; });
  }
}

// Pack: d = s0 | s1 << w | ...; table: source slots.
void pack_h(const ExecInst& in, Warp& w) {
  const std::vector<uint32_t>& src = w.launch->kernel->tables[in.table];
  uint64_t* d = w.r(in.d[0]);
  const uint32_t bits = in.width * 8u;
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  for_each_lane(w.exec, [&](uint32_t l) {
    uint64_t v = 0;
    for (size_t i = 0; i < src.size(); ++i) v |= (w.r(src[i])[l] & mask) << (bits * i);
    d[l] = v;
  });
}

uint32_t type_bytes(const std::string& t) {
  if (t == "pred") return 0;
  if (t == "b8" || t == "u8" || t == "s8") return 1;
  if (t == "b16" || t == "u16" || t == "s16" || t == "f16" || t == "bf16") return 2;
  if (t == "b32" || t == "u32" || t == "s32" || t == "f32" || t == "f16x2" || t == "bf16x2") return 4;
  if (t == "b64" || t == "u64" || t == "s64" || t == "f64") return 8;
  return ~0u;
}

Handler mov_for_size(uint32_t bytes) {
  switch (bytes) {
    case 1: return mov_h<uint8_t>;
    case 2: return mov_h<uint16_t>;
    case 4: return mov_h<uint32_t>;
    default: return mov_h<uint64_t>;
  }
}

std::optional<ExecInst> bind_mov(const ir::Instruction& inst, BindContext& ctx) {
  if (inst.modifiers.size() != 1) ctx.unsupported(inst);
  const uint32_t bytes = type_bytes(inst.modifiers[0]);
  if (bytes == ~0u) ctx.unsupported(inst);
  ctx.expect_operands(inst, 2);
  const ir::Operand& dst = inst.operands[0];
  const ir::Operand& src = inst.operands[1];
  using K = ir::Operand::Kind;

  if (bytes == 0) {  // mov.pred
    ExecInst e = make_exec(inst, mov_pred_h);
    e.d[0] = ctx.pred(dst);
    if (src.kind == K::Pred) {
      e.s[0] = src.index;
      e.aux = 2;
    } else if (src.kind == K::Imm) {
      e.aux = src.imm ? 1 : 0;
    } else if (src.kind == K::Special && src.special == ir::SpecialReg::IsExplicitCluster) {
      // True when the kernel asks for clusters (.explicitcluster or .reqnctapercluster); a
      // launch cannot give clusters any other way here (the engine runs one-block clusters).
      const ptx::PerformanceHints& h = ctx.program().hints;
      e.aux = h.explicitcluster || h.reqnctapercluster.has_value() ? 1 : 0;
    } else {
      ctx.error(src, "operand 2 of '" + inst.form() + "' must be a predicate or immediate");
    }
    return e;
  }
  if (dst.kind == K::Vector) {  // unpack a wide register into pieces
    std::vector<uint32_t> parts;
    for (const ir::Operand& p : dst.elements) parts.push_back(ctx.slot(p));
    if (parts.empty() || bytes % parts.size() != 0) ctx.error(dst, "vector does not divide the type");
    ExecInst e = make_exec(inst, unpack_h);
    e.s[0] = ctx.slot(src);
    e.width = static_cast<uint8_t>(bytes / parts.size());
    e.table = ctx.table(std::move(parts));
    return e;
  }
  if (dst.kind != K::Reg) ctx.error(dst, "operand 1 of '" + inst.form() + "' must be a register");
  if (src.kind == K::Vector) {  // pack pieces into a wide register
    std::vector<uint32_t> parts;
    for (const ir::Operand& p : src.elements) parts.push_back(ctx.slot(p));
    if (parts.empty() || bytes % parts.size() != 0) ctx.error(src, "vector does not divide the type");
    ExecInst e = make_exec(inst, pack_h);
    e.d[0] = dst.index;
    e.width = static_cast<uint8_t>(bytes / parts.size());
    e.table = ctx.table(std::move(parts));
    return e;
  }
  if (src.kind == K::Special && ir::is_dynamic(src.special)) {
    ExecInst e = make_exec(inst, mov_clock_h);
    e.d[0] = dst.index;
    e.aux = clock_read(src.special);
    return e;
  }
  if (src.kind == K::Symbol) {
    switch (src.symbol.space) {
      case ir::SymbolSpace::Local:
      case ir::SymbolSpace::FrameParam: {
        ExecInst e = make_exec(inst, mov_frame_address_h);
        e.d[0] = dst.index;
        e.offset = static_cast<int64_t>(src.symbol.value);
        e.width = static_cast<uint8_t>(bytes);
        return e;
      }
      case ir::SymbolSpace::Global:
      case ir::SymbolSpace::Shared:
      case ir::SymbolSpace::Function:  // a function pointer, or a kernel's address for a device launch
      case ir::SymbolSpace::KernelParam:  // its offset in the parameter buffer (ld.param [reg])
        break;  // a constant address: handled as a slot below
      default:
        ctx.error(src, "taking the address of '" + src.symbol.name + "' is not supported");
    }
  }
  if (src.kind == K::Pred || src.kind == K::Address)
    ctx.error(src, "operand 2 of '" + inst.form() + "' must be a register, immediate or symbol");
  ExecInst e = make_exec(inst, mov_for_size(bytes));
  e.d[0] = dst.index;
  e.s[0] = ctx.slot(src);
  return e;
}

// ---- cvta ------------------------------------------------------------------------------
// kSpace: 0 global/const, 1 shared, 2 local, 3 kernel parameters (their offsets in the
// parameter buffer map into kParamWindow, where generic loads read them).
template <bool kToGeneric, int kSpace>
void cvta_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  constexpr uint64_t window = kSpace == 1   ? kSharedWindow
                              : kSpace == 2 ? kLocalWindow
                              : kSpace == 3 ? kParamWindow
                                            : 0;
  const uint64_t mask = in.width == 4 ? 0xffffffffull : ~uint64_t{0};
  for (uint32_t l = 0; l < w.width; ++l) {
    if (!(w.exec >> l & 1)) continue;
    const uint64_t v = kToGeneric ? a[l] + window : a[l] - window;
    d[l] = v & mask;
  }
}

std::optional<ExecInst> bind_cvta(const ir::Instruction& inst, BindContext& ctx) {
  bool to = false;
  int space = -1;
  uint32_t bytes = 0;
  for (const std::string& m : inst.modifiers) {
    if (m == "to") to = true;
    else if (m == "global" || m == "const") space = 0;
    else if (m == "param" || m == "param::entry") space = 3;
    else if (m == "shared" || m == "shared::cta") space = 1;
    else if (m == "local") space = 2;
    else if (m == "u32") bytes = 4;
    else if (m == "u64") bytes = 8;
    else ctx.unsupported(inst);
  }
  if (space < 0 || bytes == 0) ctx.unsupported(inst);
  ctx.expect_operands(inst, 2);
  static constexpr Handler kHandlers[2][4] = {
      {cvta_h<false, 0>, cvta_h<false, 1>, cvta_h<false, 2>, cvta_h<false, 3>},
      {cvta_h<true, 0>, cvta_h<true, 1>, cvta_h<true, 2>, cvta_h<true, 3>}};
  const ir::Operand& src = inst.operands[1];
  ExecInst e;
  if (src.kind == ir::Operand::Kind::Symbol &&
      (src.symbol.space == ir::SymbolSpace::Local || src.symbol.space == ir::SymbolSpace::FrameParam)) {
    ctx.error(src, "cvta of a local symbol: take its address with mov first");
  }
  e = make_exec(inst, kHandlers[to ? 0 : 1][space]);
  e.d[0] = ctx.slot(inst.operands[0]);
  e.s[0] = ctx.slot(src);
  e.width = static_cast<uint8_t>(bytes);
  return e;
}

}  // namespace

void register_move_ops(OpTable& t) {
  t.add("mov", bind_mov);
  t.add("cvta", bind_cvta);
}

}  // namespace lockstep::func
