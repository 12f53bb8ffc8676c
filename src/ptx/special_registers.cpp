#include "ptx/special_registers.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace lockstep::ptx {
namespace {

// Predefined special registers of PTX ISA 9.x without numbered families (see
// is_special_register for %envregN, %pmN, %pmN_64, %reserved_smem_offset_N). Sorted.
constexpr auto kSpecialRegisters = std::to_array<std::string_view>({
    "%aggr_smem_size", "%clock", "%clock64", "%clock_hi", "%cluster_ctaid",
    "%cluster_ctarank", "%cluster_nctaid", "%cluster_nctarank", "%clusterid", "%ctaid",
    "%current_graph_exec", "%dynamic_smem_size", "%globaltimer", "%globaltimer_hi",
    "%globaltimer_lo", "%gridid", "%is_explicit_cluster", "%laneid", "%lanemask_eq",
    "%lanemask_ge", "%lanemask_gt", "%lanemask_le", "%lanemask_lt", "%nclusterid", "%nctaid",
    "%nsmid", "%ntid", "%nwarpid", "%reserved_smem_offset_begin", "%reserved_smem_offset_cap",
    "%reserved_smem_offset_end", "%smid", "%tid", "%total_smem_size", "%warpid",
});
static_assert(std::is_sorted(kSpecialRegisters.begin(), kSpecialRegisters.end()));

// The value of a decimal number written without leading zeros; -1 when `digits` is not one
// or has more than 10 digits.
int64_t canonical_decimal(std::string_view digits) {
  if (digits.empty() || digits.size() > 10) return -1;
  if (digits.size() > 1 && digits[0] == '0') return -1;
  int64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

bool numbered(std::string_view name, std::string_view prefix, int64_t limit, std::string_view suffix = {}) {
  if (!name.starts_with(prefix) || !name.ends_with(suffix)) return false;
  if (name.size() < prefix.size() + suffix.size()) return false;
  int64_t n = canonical_decimal(name.substr(prefix.size(), name.size() - prefix.size() - suffix.size()));
  return n >= 0 && n < limit;
}

}  // namespace

bool is_special_register(std::string_view name) {
  if (name == "WARP_SZ") return true;  // a constant, read as a special register (parse_operand.cpp)
  if (std::binary_search(kSpecialRegisters.begin(), kSpecialRegisters.end(), name)) return true;
  return numbered(name, "%envreg", 32) || numbered(name, "%pm", 8) || numbered(name, "%pm", 8, "_64") ||
         numbered(name, "%reserved_smem_offset_", 2);
}

}  // namespace lockstep::ptx
