// The one decode of an instruction's opcode and modifiers: the space it reaches, what it does
// there, and the effects the functional and timing models read from it.
#include "ir/decoded_form.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "ir/lower.h"
#include "ptx/parser.h"

namespace lockstep::ir {
namespace {

// "ld.shared::cta.u32" -> decode_form("ld", {"shared::cta", "u32"}).
DecodedForm decode(std::string_view form) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t dot = form.find('.');; dot = form.find('.', start)) {
    parts.emplace_back(form.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  const std::string opcode = parts.front();
  parts.erase(parts.begin());
  return decode_form(opcode, parts);
}

MemorySpace space(std::string_view form) { return decode(form).space; }

TEST(DecodedForm, TheOpcode) {
  EXPECT_EQ(decode("ld.global.u32").opcode, Opcode::Ld);
  EXPECT_EQ(decode("cp.async.ca.shared.global").opcode, Opcode::Cp);
  EXPECT_EQ(decode("$exit").opcode, Opcode::FunctionExit);
  EXPECT_EQ(decode("frobnicate.global.u32").opcode, Opcode::Unknown);
}

TEST(DecodedForm, NormalisedSpaces) {
  EXPECT_EQ(space("ld.shared::cta.u32"), MemorySpace::Shared);
  EXPECT_EQ(space("ld.shared.v4.f32"), MemorySpace::Shared);
  EXPECT_EQ(space("ld.shared::cluster.u32"), MemorySpace::SharedCluster);
  EXPECT_EQ(space("st.global.f32"), MemorySpace::Global);
  EXPECT_EQ(space("ld.global.nc.L1::no_allocate.f32"), MemorySpace::Global);
  EXPECT_EQ(space("ld.relaxed.gpu.global.u32"), MemorySpace::Global);
  EXPECT_EQ(space("ld.const.f32"), MemorySpace::Const);
  EXPECT_EQ(space("ld.const[2].u32"), MemorySpace::Const);
  EXPECT_EQ(space("ld.u32"), MemorySpace::Generic);
  EXPECT_EQ(space("ld.acquire.gpu.u32"), MemorySpace::Generic);  // a scope is not a space
  EXPECT_EQ(space("atom.shared::cta.add.u32"), MemorySpace::Shared);
  EXPECT_EQ(space("atom.add.u32"), MemorySpace::Generic);
  EXPECT_EQ(space("red.global.add.u32"), MemorySpace::Global);
  EXPECT_EQ(space("ld.param.u64"), MemorySpace::Param);
  EXPECT_EQ(space("ld.param::entry.u64"), MemorySpace::KernelParam);
  EXPECT_EQ(space("st.param::func.b32"), MemorySpace::FuncParam);
  EXPECT_EQ(space("ld.local.u32"), MemorySpace::Local);
  EXPECT_EQ(space("ldu.global.f32"), MemorySpace::Global);
  EXPECT_EQ(space("prefetch.global.L2"), MemorySpace::Global);
  EXPECT_EQ(space("prefetch.L1"), MemorySpace::Generic);
  // Objects that only live in shared memory are shared however they are addressed.
  EXPECT_EQ(space("mbarrier.arrive.b64"), MemorySpace::Shared);
  EXPECT_EQ(space("mbarrier.try_wait.parity.shared::cta.b64"), MemorySpace::Shared);
  EXPECT_EQ(space("mbarrier.arrive.release.cluster.shared::cluster.b64"), MemorySpace::SharedCluster);
  EXPECT_EQ(space("ldmatrix.sync.aligned.m8n8.x4.shared::cta.b16"), MemorySpace::Shared);
  EXPECT_EQ(space("stmatrix.sync.aligned.m8n8.x2.b16"), MemorySpace::Shared);
  // Textures and surfaces.
  EXPECT_EQ(space("tex.2d.v4.f32.f32"), MemorySpace::Texture);
  EXPECT_EQ(space("tld4.r.2d.v4.f32.f32"), MemorySpace::Texture);
  EXPECT_EQ(space("txq.width.b32"), MemorySpace::Texture);
  EXPECT_EQ(space("suld.b.2d.b32.trap"), MemorySpace::Surface);
  EXPECT_EQ(space("sust.b.1d.b32.trap"), MemorySpace::Surface);
  EXPECT_EQ(space("sured.b.add.1d.u32.trap"), MemorySpace::Surface);
  // A space named by an instruction that reaches no memory is no access.
  EXPECT_EQ(space("cvta.to.shared.u64"), MemorySpace::None);
  EXPECT_EQ(space("isspacep.shared::cluster"), MemorySpace::None);
  EXPECT_EQ(space("add.shared.u32"), MemorySpace::None);
  EXPECT_EQ(space("mov.u32"), MemorySpace::None);
  EXPECT_EQ(space("frobnicate.global.u32"), MemorySpace::None);
  EXPECT_EQ(space("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32"), MemorySpace::None);
  EXPECT_EQ(space("wmma.load.a.sync.aligned.row.m16n16k16.global.f16"), MemorySpace::Global);
  EXPECT_EQ(space("wmma.store.d.sync.aligned.row.m16n16k16.f32"), MemorySpace::Generic);
}

TEST(DecodedForm, CopiesWaitOnTheirGlobalSide) {
  const DecodedForm bulk = decode("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes");
  EXPECT_EQ(bulk.space, MemorySpace::Global);
  EXPECT_EQ(bulk.copy_destination, MemorySpace::SharedCluster);
  EXPECT_TRUE(bulk.may_write_global);  // over-approximated: every copy but the mbarrier arrive
  EXPECT_TRUE(bulk.shares_memory);
  const DecodedForm async = decode("cp.async.ca.shared.global");
  EXPECT_EQ(async.space, MemorySpace::Global);
  EXPECT_EQ(async.copy_destination, MemorySpace::Shared);
  EXPECT_EQ(async.operation, MemoryOperation::Read);
  EXPECT_EQ(decode("cp.async.bulk.global.shared::cta.bulk_group").copy_destination, MemorySpace::Global);
  // cp.async.mbarrier.arrive touches only the mbarrier object.
  const DecodedForm arrive = decode("cp.async.mbarrier.arrive.noinc.shared::cta.b64");
  EXPECT_EQ(arrive.space, MemorySpace::Shared);
  EXPECT_FALSE(arrive.may_write_global);
  EXPECT_EQ(decode("cp.async.mbarrier.arrive.b64").space, MemorySpace::Shared);
  EXPECT_EQ(decode("ld.global.u32").copy_destination, MemorySpace::None);
}

// By name, wherever the modifiers stand: cache hints and multicast may follow the ones that say
// what the copy does.
TEST(DecodedForm, AsynchronousCopiesByTheirModifiersNames) {
  EXPECT_EQ(decode("cp.async.ca.shared.global").async, AsyncOp::Copy);
  EXPECT_EQ(decode("cp.async.cg.shared.global.L2::cache_hint").async, AsyncOp::Copy);
  EXPECT_EQ(decode("cp.async.commit_group").async, AsyncOp::CommitGroup);
  EXPECT_EQ(decode("cp.async.wait_group").async, AsyncOp::WaitGroup);
  EXPECT_EQ(decode("cp.async.wait_all").async, AsyncOp::WaitAll);
  EXPECT_EQ(decode("cp.async.mbarrier.arrive.noinc.shared::cta.b64").async, AsyncOp::CopyArrive);
  EXPECT_EQ(decode("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes").async, AsyncOp::BulkCopyBarrier);
  EXPECT_EQ(decode("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint").async,
            AsyncOp::BulkCopyBarrier);
  EXPECT_EQ(decode("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes").async, AsyncOp::BulkCopyBarrier);
  EXPECT_EQ(decode("cp.async.bulk.global.shared::cta.bulk_group").async, AsyncOp::BulkCopyGroup);
  EXPECT_EQ(decode("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint").async, AsyncOp::BulkCopyGroup);
  EXPECT_EQ(decode("cp.async.bulk.commit_group").async, AsyncOp::BulkCommitGroup);
  EXPECT_EQ(decode("cp.async.bulk.wait_group.read").async, AsyncOp::BulkWaitGroup);
  EXPECT_EQ(decode("mbarrier.try_wait.parity.shared::cta.b64").async, AsyncOp::BarrierWait);
  EXPECT_EQ(decode("mbarrier.test_wait.shared.b64").async, AsyncOp::BarrierWait);
  // Not tracked: no accesses of theirs complete in the timing model.
  EXPECT_EQ(decode("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes").async, AsyncOp::None);
  EXPECT_EQ(decode("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32").async, AsyncOp::None);
  EXPECT_EQ(decode("cp.async.bulk.prefetch.L2.global").async, AsyncOp::None);
  EXPECT_EQ(decode("mbarrier.arrive.shared::cta.b64").async, AsyncOp::None);
  EXPECT_EQ(decode("ld.global.u32").async, AsyncOp::None);
}

TEST(DecodedForm, MayWriteGlobal) {
  for (const char* form : {"st.global.u32", "st.u32", "st.volatile.u32", "atom.global.add.u32", "atom.add.u32",
                           "red.global.add.u32", "red.add.f32", "wmma.store.d.sync.aligned.row.m16n16k16.f32",
                           "cp.async.ca.shared.global", "multimem.st.relaxed.gpu.global.f32",
                           "sust.b.1d.b32.trap", "sured.b.add.1d.u32.trap",
                           "tensormap.replace.tile.global_address.global.b1024.b64"})
    EXPECT_TRUE(decode(form).may_write_global) << form;
  for (const char* form : {"st.shared.u32", "st.shared::cta.u32", "st.shared::cluster.u32", "atom.shared::cta.add.u32",
                           "red.shared.add.u32", "st.local.u32", "st.param.b32", "st.param::func.b32",
                           "ld.global.u32", "ld.u32", "wmma.load.a.sync.aligned.row.m16n16k16.f16",
                           "cp.async.mbarrier.arrive.b64", "mbarrier.arrive.b64", "bar.sync", "membar.gl",
                           "frobnicate.global"})
    EXPECT_FALSE(decode(form).may_write_global) << form;
}

TEST(DecodedForm, SharesMemory) {
  for (const char* form : {"ld.global.u32", "ld.u32", "ld.shared::cta.u32", "ld.shared::cluster.u32", "ldu.global.f32",
                           "st.shared.u32", "atom.shared::cta.add.u32", "red.global.add.u32",
                           "wmma.load.a.sync.aligned.row.m16n16k16.f16", "wmma.store.d.sync.aligned.row.m16n16k16.f32",
                           "cp.async.ca.shared.global", "mbarrier.try_wait.parity.shared::cta.b64",
                           "ldmatrix.sync.aligned.m8n8.x4.shared::cta.b16", "stmatrix.sync.aligned.m8n8.x2.b16"})
    EXPECT_TRUE(decode(form).shares_memory) << form;
  // Every spelling of the private spaces, param::entry and param::func included.
  for (const char* form : {"ld.local.u32", "st.local.u32", "ld.param.u64", "ld.param::entry.u64",
                           "ld.param::func.b32", "st.param::func.b32", "ld.const.f32", "ld.const[2].u32",
                           "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", "tex.2d.v4.f32.f32", "add.u32",
                           "prefetch.global.L2"})
    EXPECT_FALSE(decode(form).shares_memory) << form;
}

TEST(DecodedForm, OperationAndOrdering) {
  EXPECT_EQ(decode("ld.global.u32").operation, MemoryOperation::Read);
  EXPECT_EQ(decode("st.shared.u32").operation, MemoryOperation::Write);
  EXPECT_EQ(decode("sust.b.1d.b32.trap").operation, MemoryOperation::Write);
  EXPECT_EQ(decode("atom.add.u32").operation, MemoryOperation::ReadModifyWrite);
  EXPECT_EQ(decode("red.shared.add.u32").operation, MemoryOperation::ReadModifyWrite);
  EXPECT_EQ(decode("sured.b.add.1d.u32.trap").operation, MemoryOperation::ReadModifyWrite);
  EXPECT_EQ(decode("tex.2d.v4.f32.f32").operation, MemoryOperation::Read);
  EXPECT_EQ(decode("add.u32").operation, MemoryOperation::None);
  EXPECT_EQ(decode("cvta.to.global.u64").operation, MemoryOperation::None);
  EXPECT_TRUE(decode("membar.gl").orders_memory);
  EXPECT_TRUE(decode("fence.acq_rel.gpu").orders_memory);
  EXPECT_FALSE(decode("bar.sync").orders_memory);
}

TEST(DecodedForm, LoadsTheL1MayNotServe) {
  for (const char* form : {"ld.global.cg.u32", "ld.global.cv.u32", "ld.volatile.global.u32",
                           "ld.global.L1::no_allocate.u32", "ld.relaxed.gpu.u32", "ld.acquire.sys.global.u32",
                           "ld.relaxed.cluster.u32"})
    EXPECT_TRUE(decode(form).bypasses_l1) << form;
  for (const char* form : {"ld.global.u32", "ld.global.nc.f32", "ld.acquire.cta.u32", "ld.relaxed.u32",
                           "st.volatile.global.u32", "atom.relaxed.gpu.add.u32", "ldu.global.cg.u32"})
    EXPECT_FALSE(decode(form).bypasses_l1) << form;
}

TEST(DecodedForm, WhetherTheFirstOperandIsWritten) {
  for (const char* form : {"ld.global.u32", "add.s32", "setp.lt.s32", "atom.add.u32", "bar.red.popc.u32",
                           "barrier.red.and.pred", "wmma.load.a.sync.aligned.row.m16n16k16.f16", "mov.u32", "$exit"})
    EXPECT_TRUE(decode(form).writes_first_operand) << form;
  for (const char* form : {"st.global.u32", "red.add.u32", "bra.uni", "call.uni", "ret", "exit", "bar.sync",
                           "barrier.sync.aligned", "wmma.store.d.sync.aligned.row.m16n16k16.f32",
                           "cp.async.ca.shared.global", "stmatrix.sync.aligned.m8n8.x2.b16", "sust.b.1d.b32.trap",
                           "membar.gl", "fence.sc.gpu", "prefetch.L1", "nanosleep.u32"})
    EXPECT_FALSE(decode(form).writes_first_operand) << form;
}

TEST(DecodedForm, ValueClassFromTheTypeModifiers) {
  EXPECT_EQ(decode("add.s32").value_class, ValueClass::Integer);
  EXPECT_EQ(decode("add.f64").value_class, ValueClass::Fp64);
  EXPECT_EQ(decode("rcp.rn.f64").value_class, ValueClass::Fp64);
  EXPECT_EQ(decode("fma.rn.f32").value_class, ValueClass::Fp32);
  EXPECT_EQ(decode("add.rn.bf16x2").value_class, ValueClass::Fp32);
  EXPECT_EQ(decode("cvt.rn.f16.f64").value_class, ValueClass::Fp64);  // f64 wins
  EXPECT_EQ(decode("max.ftz.f32").value_class, ValueClass::Fp32);
  EXPECT_EQ(decode("cvt.rn.e4m3x2.f32").value_class, ValueClass::Fp32);
}

// The lowering decodes every instruction it emits, the synthetic exit included.
TEST(DecodedForm, LoweringDecodesEachInstruction) {
  const char* text = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .shared .align 4 .b32 buf[32];
  ld.param.u64 %rd1, [out];
  ld.shared::cta.u32 %r1, [buf];
  atom.shared::cta.add.u32 %r2, [buf], 1;
  st.global.u32 [%rd1], %r1;
  ret;
}
)";
  const ModuleProgram module = lower(ptx::parse(text, "decode.ptx"));
  ASSERT_EQ(module.kernels.size(), 1u);
  const std::vector<Instruction>& code = module.kernels[0].code;
  ASSERT_EQ(code.size(), 6u);
  EXPECT_EQ(code[0].decoded.opcode, Opcode::Ld);
  EXPECT_EQ(code[0].decoded.space, MemorySpace::Param);
  EXPECT_EQ(code[1].decoded.space, MemorySpace::Shared);
  EXPECT_TRUE(code[1].decoded.shares_memory);
  EXPECT_EQ(code[2].decoded.opcode, Opcode::Atom);
  EXPECT_EQ(code[2].decoded.space, MemorySpace::Shared);
  EXPECT_FALSE(code[2].decoded.may_write_global);
  EXPECT_EQ(code[3].decoded.space, MemorySpace::Global);
  EXPECT_TRUE(code[3].decoded.may_write_global);
  EXPECT_EQ(code[4].decoded.opcode, Opcode::Ret);
  EXPECT_EQ(code[5].decoded.opcode, Opcode::FunctionExit);
}

}  // namespace
}  // namespace lockstep::ir
