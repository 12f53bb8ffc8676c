// ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 r, [p] and its inverse
// stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 [p], r (PTX ISA layout).
// Matrix i (8 rows of 8 16-bit elements) takes its row addresses from lanes 8i..8i+7 (row r
// from lane 8i+r); each row is 16 contiguous bytes, 16-byte aligned. Register i of lane l
// holds row l/4, columns 2(l%4) and 2(l%4)+1 of matrix i (low half first); with .trans it
// holds column l/4, rows 2(l%4) and 2(l%4)+1 instead. Without a state space the address is
// generic (it must point into shared memory; other spaces are accepted here). The m16n16 /
// m8n16 .b8 shapes of sm_100a are not supported.
#include <cstring>

#include "func/ops/tensor_binders.h"
#include "func/ops/tensor_common.h"

namespace lockstep::func::tensor {

namespace {

using Tile = uint16_t[8][8];

// Element (row, col) of the fragment half `half` (0 low, 1 high) that lane l holds.
inline void lane_element(uint32_t l, uint32_t half, bool trans, uint32_t& row, uint32_t& col) {
  const uint32_t a = l / 4, b = 2 * (l % 4) + half;
  row = trans ? b : a;
  col = trans ? a : b;
}

template <Space S, uint32_t kNum, bool kTrans, bool kStore>
void matrix_h(const ExecInst& in, Warp& w) {
  require_whole_warp(w, kStore ? "stmatrix" : "ldmatrix");
  const uint32_t* regs = operand_table(in, w).data();
  const uint64_t* base = w.r(in.s[0]);
  Tile tiles[kNum];
  if constexpr (kStore) {
    for (uint32_t m = 0; m < kNum; ++m) {
      for (uint32_t l = 0; l < 32; ++l) {
        const uint32_t v = static_cast<uint32_t>(w.r(regs[m])[l]);
        for (uint32_t h = 0; h < 2; ++h) {
          uint32_t row = 0, col = 0;
          lane_element(l, h, kTrans, row, col);
          tiles[m][row][col] = static_cast<uint16_t>(v >> (16 * h));
        }
      }
    }
  }
  for (uint32_t m = 0; m < kNum; ++m) {
    for (uint32_t r = 0; r < 8; ++r) {
      const uint32_t lane = 8 * m + r;
      uint8_t* p = at<S>(w, base[lane] + static_cast<uint64_t>(in.offset), 16, 16, lane, kStore);
      if constexpr (kStore) {
        std::memcpy(p, tiles[m][r], 16);
      } else {
        std::memcpy(tiles[m][r], p, 16);
      }
    }
  }
  if constexpr (!kStore) {
    for (uint32_t m = 0; m < kNum; ++m) {
      uint64_t* d = w.r(regs[m]);
      for (uint32_t l = 0; l < 32; ++l) {
        uint32_t r0 = 0, c0 = 0, r1 = 0, c1 = 0;
        lane_element(l, 0, kTrans, r0, c0);
        lane_element(l, 1, kTrans, r1, c1);
        d[l] = static_cast<uint64_t>(tiles[m][r0][c0]) | (static_cast<uint64_t>(tiles[m][r1][c1]) << 16);
      }
    }
  }
}

template <Space S, bool kTrans, bool kStore>
Handler by_count(uint32_t num) {
  if (num == 1) return &matrix_h<S, 1, kTrans, kStore>;
  if (num == 2) return &matrix_h<S, 2, kTrans, kStore>;
  return &matrix_h<S, 4, kTrans, kStore>;
}

template <bool kStore>
Handler pick(Space s, uint32_t num, bool trans) {
  switch (s) {
    case Space::Shared: return trans ? by_count<Space::Shared, true, kStore>(num) : by_count<Space::Shared, false, kStore>(num);
    case Space::Global: return trans ? by_count<Space::Global, true, kStore>(num) : by_count<Space::Global, false, kStore>(num);
    default: return trans ? by_count<Space::Generic, true, kStore>(num) : by_count<Space::Generic, false, kStore>(num);
  }
}

std::optional<ExecInst> bind_matrix(const ir::Instruction& inst, BindContext& ctx, bool store) {
  uint32_t num = 0;
  bool trans = false, shape = false, type = false, bad = false;
  Space space = Space::Generic;
  for (const std::string& x : inst.modifiers) {
    if (x == "sync" || x == "aligned") continue;
    if (x == "m8n8") {
      shape = true;
    } else if (x == "x1" || x == "x2" || x == "x4") {
      num = static_cast<uint32_t>(x[1] - '0');
    } else if (x == "trans") {
      trans = true;
    } else if (x == "shared" || x == "shared::cta") {
      space = Space::Shared;
    } else if (x == "b16") {
      type = true;
    } else {
      bad = true;
    }
  }
  if (bad || !shape || !type || num == 0) ctx.unsupported(inst);
  ctx.expect_operands(inst, 2);
  const size_t frag_at = store ? 1 : 0;
  const std::vector<uint32_t> slots = vector_slots(inst, frag_at, num, "one per matrix", ctx);
  const AddressOperand addr = bind_address(inst, store ? 0 : 1, ctx);
  ExecInst e = make_exec(inst, store ? pick<true>(space, num, trans) : pick<false>(space, num, trans));
  e.table = ctx.table(slots);
  e.s[0] = addr.base;
  e.ns = 1;
  e.offset = addr.offset;
  return e;
}

}  // namespace

std::optional<ExecInst> bind_ldmatrix(const ir::Instruction& inst, BindContext& ctx) {
  return bind_matrix(inst, ctx, false);
}

std::optional<ExecInst> bind_stmatrix(const ir::Instruction& inst, BindContext& ctx) {
  return bind_matrix(inst, ctx, true);
}

}  // namespace lockstep::func::tensor
