// The typed opcodes: one for every instruction name the parser accepts, and back.
#include "ir/opcode.h"

#include <gtest/gtest.h>

#include <string>

#include "ptx/opcodes.h"

namespace lockstep::ir {
namespace {

TEST(Opcode, EveryPtxInstructionNameDecodesToItsOwnOpcode) {
  const auto names = ptx::known_opcodes();
  ASSERT_GT(names.size(), 100u);
  for (std::string_view name : names) {
    SCOPED_TRACE(std::string(name));
    const Opcode op = opcode_named(name);
    EXPECT_NE(op, Opcode::Unknown);
    EXPECT_NE(op, Opcode::FunctionExit);
    EXPECT_EQ(opcode_name(op), name);
  }
  // No enumerator without a PTX name: Unknown, one per name, then the synthetic exit.
  EXPECT_EQ(static_cast<size_t>(Opcode::FunctionExit), names.size() + 1);
}

TEST(Opcode, SpotChecks) {
  EXPECT_EQ(opcode_named("ld"), Opcode::Ld);
  EXPECT_EQ(opcode_named("cp"), Opcode::Cp);
  EXPECT_EQ(opcode_named("mbarrier"), Opcode::Mbarrier);
  EXPECT_EQ(opcode_named("abs"), Opcode::Abs);   // first of the table
  EXPECT_EQ(opcode_named("xor"), Opcode::Xor);   // last of the table
  EXPECT_EQ(opcode_named("$exit"), Opcode::FunctionExit);
  EXPECT_EQ(opcode_name(Opcode::FunctionExit), "$exit");
}

TEST(Opcode, NamesOutsideTheIsaAreUnknown) {
  EXPECT_EQ(opcode_named("frobnicate"), Opcode::Unknown);
  EXPECT_EQ(opcode_named(""), Opcode::Unknown);
  EXPECT_EQ(opcode_named("LD"), Opcode::Unknown);          // case matters, as in PTX
  EXPECT_EQ(opcode_named("ld.global"), Opcode::Unknown);   // the name only, no modifiers
  EXPECT_EQ(opcode_named("suatom"), Opcode::Unknown);      // not a PTX instruction
  EXPECT_EQ(opcode_named("zzz"), Opcode::Unknown);         // past the end of the table
  EXPECT_EQ(opcode_name(Opcode::Unknown), "?");
}

}  // namespace
}  // namespace lockstep::ir
