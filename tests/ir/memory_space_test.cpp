// Every spelling of a state space decodes to its one normalised space.
#include "ir/memory_space.h"

#include <gtest/gtest.h>

namespace lockstep::ir {
namespace {

TEST(MemorySpaceNamed, EachSpellingIsItsSpace) {
  EXPECT_EQ(space_named("global"), MemorySpace::Global);
  EXPECT_EQ(space_named("shared"), MemorySpace::Shared);
  EXPECT_EQ(space_named("shared::cta"), MemorySpace::Shared);
  EXPECT_EQ(space_named("shared::cluster"), MemorySpace::SharedCluster);
  EXPECT_EQ(space_named("local"), MemorySpace::Local);
  EXPECT_EQ(space_named("param"), MemorySpace::Param);
  EXPECT_EQ(space_named("param::entry"), MemorySpace::KernelParam);
  EXPECT_EQ(space_named("param::func"), MemorySpace::FuncParam);
  EXPECT_EQ(space_named("const"), MemorySpace::Const);
  EXPECT_EQ(space_named("const[0]"), MemorySpace::Const);
  EXPECT_EQ(space_named("const[10]"), MemorySpace::Const);
}

TEST(MemorySpaceNamed, OtherModifiersAreNoSpace) {
  for (const char* m : {"u32", "cta", "cluster", "gpu", "L2::cache_hint", "L1::no_allocate", "nc", "global_address",
                        "shared::gpu", "const[", "constant", "mbarrier"}) {
    EXPECT_EQ(space_named(m), std::nullopt) << m;
  }
}

TEST(MemorySpaceNamed, Classes) {
  EXPECT_TRUE(is_shared(MemorySpace::Shared));
  EXPECT_TRUE(is_shared(MemorySpace::SharedCluster));
  EXPECT_FALSE(is_shared(MemorySpace::Generic));
  EXPECT_TRUE(is_param(MemorySpace::KernelParam));
  EXPECT_TRUE(is_param(MemorySpace::FuncParam));
  EXPECT_FALSE(is_param(MemorySpace::Const));
  for (MemorySpace s : {MemorySpace::Local, MemorySpace::Param, MemorySpace::KernelParam, MemorySpace::FuncParam,
                        MemorySpace::Const})
    EXPECT_TRUE(is_private(s)) << space_name(s);
  for (MemorySpace s : {MemorySpace::Generic, MemorySpace::Global, MemorySpace::Shared, MemorySpace::SharedCluster})
    EXPECT_FALSE(is_private(s)) << space_name(s);
}

}  // namespace
}  // namespace lockstep::ir
