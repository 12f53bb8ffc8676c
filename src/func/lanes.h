#pragma once
// Lane masks and typed views of the 64-bit register slots. A slot holds a value of up to 64
// bits in its low bits; narrower values are stored zero-extended, so reading a slot as a
// narrower type is a truncation.
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace lockstep::func {

using LaneMask = uint64_t;  // bit i = lane i; warps have at most 64 lanes

inline LaneMask full_mask(uint32_t width) {
  return width >= 64 ? ~LaneMask{0} : (LaneMask{1} << width) - 1;
}

// Calls f(lane) for every set lane, lowest first.
template <class F>
inline void for_each_lane(LaneMask m, F&& f) {
  while (m) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
    f(lane);
    m &= m - 1;
  }
}

template <class T>
inline T get(uint64_t slot) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>);
  if constexpr (sizeof(T) == 8) {
    return std::bit_cast<T>(slot);
  } else {
    using U = std::conditional_t<sizeof(T) == 4, uint32_t,
                                 std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>;
    return std::bit_cast<T>(static_cast<U>(slot));
  }
}

template <class T>
inline uint64_t put(T v) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>);
  if constexpr (sizeof(T) == 8) {
    return std::bit_cast<uint64_t>(v);
  } else {
    using U = std::conditional_t<sizeof(T) == 4, uint32_t,
                                 std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>;
    return static_cast<uint64_t>(std::bit_cast<U>(v));
  }
}

}  // namespace lockstep::func
