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
