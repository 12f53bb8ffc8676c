// Which unit each instruction issues to (the preset's [opcodes] table, then its type), and the
// register operands the scoreboard and the banks see.
#include "sim/instruction_timing.h"

#include <gtest/gtest.h>

#include "config/gpu_config.h"

namespace lockstep::test {
namespace {

ir::Instruction inst(std::string opcode, std::vector<std::string> modifiers, std::vector<ir::Operand> operands = {}) {
  ir::Instruction i;
  i.opcode = std::move(opcode);
  i.modifiers = std::move(modifiers);
  i.operands = std::move(operands);
  i.decoded = ir::decode_form(i.opcode, i.modifiers);  // as the lowering does
  return i;
}

ir::Operand reg(uint32_t slot) {
  ir::Operand o;
  o.kind = ir::Operand::Kind::Reg;
  o.index = slot;
  return o;
}

ir::Operand pred(uint32_t index) {
  ir::Operand o;
  o.kind = ir::Operand::Kind::Pred;
  o.index = index;
  return o;
}

ir::Operand address(uint32_t base_slot) {
  ir::Operand o;
  o.kind = ir::Operand::Kind::Address;
  o.base_is_reg = true;
  o.index = base_slot;
  o.offset = 4;
  return o;
}

ir::Operand vector(std::vector<ir::Operand> parts) {
  ir::Operand o;
  o.kind = ir::Operand::Kind::Vector;
  o.elements = std::move(parts);
  return o;
}

TEST(InstructionTiming, UnitsByTableThenByType) {
  const config::GpuConfig h100 = config::load_gpu_config("h100");
  using sim::UnitKind;
  EXPECT_EQ(sim::unit_of(inst("sin", {"approx", "f32"}), h100), UnitKind::kSfu);
  EXPECT_EQ(sim::unit_of(inst("rcp", {"approx", "ftz", "f32"}), h100), UnitKind::kSfu);
  EXPECT_EQ(sim::unit_of(inst("rcp", {"rn", "f64"}), h100), UnitKind::kFp64);  // only rcp.approx is listed
  EXPECT_EQ(sim::unit_of(inst("fma", {"rn", "f32"}), h100), UnitKind::kFp32);
  EXPECT_EQ(sim::unit_of(inst("add", {"rn", "bf16x2"}), h100), UnitKind::kFp32);
  EXPECT_EQ(sim::unit_of(inst("add", {"s32"}), h100), UnitKind::kInt);
  EXPECT_EQ(sim::unit_of(inst("ld", {"global", "f64"}), h100), UnitKind::kLdSt);  // the table before the type
  EXPECT_EQ(sim::unit_of(inst("mma", {"sync", "aligned", "m16n8k16", "row", "col", "f32", "f16", "f16", "f32"}), h100),
            UnitKind::kTensor);
  // The table is the preset's: move sin to the integer unit.
  const config::GpuConfig moved = config::load_gpu_config("h100", {"opcodes.sfu=cos", "opcodes.int=sin"});
  EXPECT_EQ(sim::unit_of(inst("sin", {"approx", "f32"}), moved), UnitKind::kInt);
}

TEST(InstructionTiming, RegisterOperands) {
  const sim::RegisterSpace regs{10, 4};  // slots 0..9, predicates at 10..13
  using R = sim::RegRange;
  // st.global [%slot3+4], %slot5: no destination; reads the address base and the value.
  const sim::InstOperands st = sim::register_operands(inst("st", {"global", "f32"}, {address(3), reg(5)}), regs);
  EXPECT_EQ(st.dst_count, 0);
  ASSERT_EQ(st.src_count, 2);
  EXPECT_EQ(st.src[0], (R{3, 1}));
  EXPECT_EQ(st.src[1], (R{5, 1}));
  // @%p2 fma %slot1, %slot2, %slot3, %slot4: consecutive sources merge; the guard is predicate
  // 2, register 12.
  ir::Instruction fma = inst("fma", {"rn", "f32"}, {reg(1), reg(2), reg(3), reg(4)});
  fma.has_guard = true;
  fma.guard = 2;
  const sim::InstOperands f = sim::register_operands(fma, regs);
  ASSERT_EQ(f.dst_count, 1);
  EXPECT_EQ(f.dst[0], (R{1, 1}));
  ASSERT_EQ(f.src_count, 2);
  EXPECT_EQ(f.src[0], (R{2, 3}));
  EXPECT_EQ(f.src[1], (R{12, 1}));
  // ld.global.v4 {%slot6, %slot7, %slot8, %slot9}, [%slot0+4]: one destination range of four.
  const sim::InstOperands ld = sim::register_operands(
      inst("ld", {"global", "v4", "f32"}, {vector({reg(6), reg(7), reg(8), reg(9)}), address(0)}), regs);
  ASSERT_EQ(ld.dst_count, 1);
  EXPECT_EQ(ld.dst[0], (R{6, 4}));
  ASSERT_EQ(ld.src_count, 1);
  EXPECT_EQ(ld.src[0], (R{0, 1}));
  // setp.lt.s32 %p0|%p1, ...: a pair of predicates, 10 and 11.
  const sim::InstOperands setp =
      sim::register_operands(inst("setp", {"lt", "s32"}, {vector({pred(0), pred(1)}), reg(2), reg(4)}), regs);
  ASSERT_EQ(setp.dst_count, 1);
  EXPECT_EQ(setp.dst[0], (R{10, 2}));
  // bar.sync writes nothing; bar.red.popc writes its first operand.
  EXPECT_EQ(sim::register_operands(inst("bar", {"sync"}, {reg(1)}), regs).dst_count, 0);
  EXPECT_EQ(sim::register_operands(inst("bar", {"red", "popc", "u32"}, {reg(1), reg(2), pred(0)}), regs).dst_count, 1);
  // A one-entry rid-table: destinations that are not consecutive fold into one covering range.
  const sim::InstOperands folded = sim::register_operands(
      inst("ld", {"global", "v2", "f32"}, {vector({reg(2), reg(7)}), address(0)}), regs, 1);
  ASSERT_EQ(folded.dst_count, 1);
  EXPECT_EQ(folded.dst[0], (R{2, 6}));
}

}  // namespace
}  // namespace lockstep::test

namespace lockstep::test {
namespace {

// The `::`-qualified spaces are their space (ld.shared::cta once took the global latency).
TEST(InstructionTiming, QualifiedSpacesAreTheirSpace) {
  using sim::MemorySpace;
  using sim::UnitKind;
  const auto space = [](std::string op, std::vector<std::string> mods) {
    return sim::space_of(inst(std::move(op), std::move(mods)), UnitKind::kLdSt);
  };
  EXPECT_EQ(space("ld", {"shared::cta", "u32"}), MemorySpace::kShared);
  EXPECT_EQ(space("st", {"shared::cluster", "u32"}), MemorySpace::kShared);
  EXPECT_EQ(space("ld", {"shared", "v4", "f32"}), MemorySpace::kShared);
  EXPECT_EQ(space("atom", {"shared::cta", "add", "u32"}), MemorySpace::kShared);
  EXPECT_EQ(space("ld", {"param::entry", "u64"}), MemorySpace::kConstant);
  EXPECT_EQ(space("ld", {"param::func", "b32"}), MemorySpace::kConstant);
  EXPECT_EQ(space("ld", {"const", "f32"}), MemorySpace::kConstant);
  // A taken kernel-parameter address read through a register (ld.param.u32 %r, [%rd+4]): the
  // constant path too, not the global one.
  EXPECT_EQ(sim::space_of(inst("ld", {"param", "u32"}, {reg(1), address(2)}), UnitKind::kLdSt),
            MemorySpace::kConstant);
  EXPECT_EQ(space("ld", {"local", "u32"}), MemorySpace::kLocal);
  EXPECT_EQ(space("ld", {"global", "nc", "L1::no_allocate", "f32"}), MemorySpace::kGlobal);
  EXPECT_EQ(space("ld", {"relaxed", "gpu", "global", "u32"}), MemorySpace::kGlobal);
  EXPECT_EQ(space("ld", {"u32"}), MemorySpace::kGlobal);  // generic
  EXPECT_EQ(space("cp", {"async", "ca", "shared", "global"}), MemorySpace::kGlobal);
  EXPECT_EQ(space("ldmatrix", {"sync", "aligned", "m8n8", "x4", "shared::cta", "b16"}), MemorySpace::kShared);
  EXPECT_EQ(space("cvta", {"to", "shared", "u64"}), MemorySpace::kNone);
  EXPECT_EQ(sim::space_of(inst("tex", {"2d", "v4", "f32", "f32"}), UnitKind::kLdSt), MemorySpace::kTexture);
  EXPECT_EQ(sim::space_of(inst("add", {"shared", "u32"}), UnitKind::kInt), MemorySpace::kNone);
}

// Under the fixed-latency model each space has its preset latency.
TEST(InstructionTiming, SharedQualifiedLoadTakesTheSharedLatency) {
  const config::GpuConfig teaching = config::load_gpu_config("teaching");
  ir::KernelProgram k;
  k.code.push_back(inst("ld", {"shared::cta", "u32"}, {reg(0), address(1)}));
  k.code.push_back(inst("ld", {"global", "u32"}, {reg(2), address(1)}));
  const std::vector<sim::InstTiming> t = sim::instruction_timing(k, teaching, {4, 0});
  EXPECT_EQ(t[0].space, sim::MemorySpace::kShared);
  EXPECT_EQ(t[0].memory_latency, teaching.memory.shared_latency);
  EXPECT_EQ(t[1].memory_latency, teaching.memory.global_latency);
  EXPECT_NE(teaching.memory.shared_latency, teaching.memory.global_latency);
}

}  // namespace
}  // namespace lockstep::test

namespace lockstep::test {
namespace {

// The L1 is not coherent between SMs: loads that must see other SMs' writes go to the L2.
TEST(InstructionTiming, CoherentLoadsBypassTheL1) {
  const config::GpuConfig h100 = config::load_gpu_config("h100");
  ir::KernelProgram k;
  k.code.push_back(inst("ld", {"global", "u32"}, {reg(0), address(1)}));
  k.code.push_back(inst("ld", {"acquire", "gpu", "u32"}, {reg(0), address(1)}));
  k.code.push_back(inst("ld", {"relaxed", "sys", "global", "u32"}, {reg(0), address(1)}));
  k.code.push_back(inst("ld", {"acquire", "cta", "u32"}, {reg(0), address(1)}));
  k.code.push_back(inst("ld", {"volatile", "global", "u32"}, {reg(0), address(1)}));
  k.code.push_back(inst("ld", {"global", "cg", "v4", "f32"}, {reg(0), address(1)}));
  k.code.push_back(inst("ld", {"global", "nc", "f32"}, {reg(0), address(1)}));
  k.code.push_back(inst("st", {"global", "u32"}, {address(1), reg(0)}));
  k.code.push_back(inst("atom", {"add", "release", "gpu", "u32"}, {reg(0), address(1), reg(2)}));
  const std::vector<sim::InstTiming> t = sim::instruction_timing(k, h100, {4, 0});
  const bool bypass[] = {false, true, true, false, true, true, false, false, false};
  for (size_t i = 0; i < t.size(); ++i) EXPECT_EQ(t[i].bypass_l1, bypass[i]) << "instruction " << i;
  EXPECT_EQ(t[7].access, mem::AccessKind::kWrite);
  EXPECT_EQ(t[8].access, mem::AccessKind::kAtomic);
  EXPECT_EQ(t[0].access, mem::AccessKind::kRead);
}

}  // namespace
}  // namespace lockstep::test

namespace lockstep::test {
namespace {

ir::Operand immediate(uint64_t value) {
  ir::Operand o;
  o.kind = ir::Operand::Kind::Imm;
  o.imm = value;
  return o;
}

// The asynchronous copies' parts (sim/async_copies.h), and the group operations off the memory:
// they move no data, so they take the LD/ST pipe's latency, not the global one.
TEST(InstructionTiming, AsyncCopyFormsAndTheirGroupOperations) {
  const config::GpuConfig teaching = config::load_gpu_config("teaching");
  ir::KernelProgram k;
  k.code.push_back(inst("cp", {"async", "ca", "shared", "global"}, {address(0), address(1), immediate(4)}));
  k.code.push_back(inst("cp", {"async", "commit_group"}));
  k.code.push_back(inst("cp", {"async", "wait_group"}, {immediate(3)}));
  k.code.push_back(inst("cp", {"async", "wait_all"}));
  k.code.push_back(inst("cp", {"async", "mbarrier", "arrive", "noinc", "shared", "b64"}, {address(0)}));
  k.code.push_back(inst("cp", {"async", "bulk", "shared::cluster", "global", "mbarrier::complete_tx::bytes"},
                        {address(0), address(1), reg(2), address(3)}));
  k.code.push_back(inst("cp", {"async", "bulk", "global", "shared::cta", "bulk_group"},
                        {address(0), address(1), reg(2)}));
  k.code.push_back(inst("cp", {"async", "bulk", "commit_group"}));
  k.code.push_back(inst("cp", {"async", "bulk", "wait_group", "read"}, {immediate(1)}));
  k.code.push_back(inst("mbarrier", {"try_wait", "parity", "shared::cta", "b64"}, {pred(0), address(0), reg(1)}));
  k.code.push_back(inst("mbarrier", {"arrive", "shared::cta", "b64"}, {reg(1), address(0)}));
  const std::vector<sim::InstTiming> t = sim::instruction_timing(k, teaching, {4, 1});
  using R = ir::AsyncOp;
  const std::vector<R> roles = {R::Copy, R::CommitGroup, R::WaitGroup, R::WaitAll, R::CopyArrive,
                                R::BulkCopyBarrier, R::BulkCopyGroup, R::BulkCommitGroup, R::BulkWaitGroup,
                                R::BarrierWait, R::None};
  for (size_t i = 0; i < roles.size(); ++i) EXPECT_EQ(t[i].async, roles[i]) << i;
  EXPECT_EQ(t[2].async_groups, 3u);
  EXPECT_EQ(t[8].async_groups, 1u);
  EXPECT_EQ(t[0].space, sim::MemorySpace::kGlobal);
  EXPECT_EQ(t[0].memory_latency, 400u);
  for (size_t i : {1, 2, 3, 7, 8}) {
    EXPECT_EQ(t[i].space, sim::MemorySpace::kNone) << i;
    EXPECT_EQ(t[i].unit, sim::UnitKind::kLdSt) << i;
  }
}

}  // namespace
}  // namespace lockstep::test
