#pragma once
// The memory family's parts, each registering its opcodes; register_memory_ops (bind.h) calls
// them all.
#include "func/bind.h"

namespace lockstep::func::memory {

void register_load_store_ops(OpTable& table);   // ld, ldu, st
void register_atomic_ops(OpTable& table);       // atom, red
void register_async_copy_ops(OpTable& table);   // cp.async and its group operations
void register_mbarrier_ops(OpTable& table);     // mbarrier (arrive-wait barriers)
void register_memory_misc_ops(OpTable& table);  // prefetch(u), membar, fence, isspacep

}  // namespace lockstep::func::memory
