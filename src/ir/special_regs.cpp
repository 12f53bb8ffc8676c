#include "ir/special_regs.h"

#include <map>
#include <string_view>

namespace lockstep::ir {

namespace {

struct Xyz {
  SpecialReg x, y, z;
};

const std::map<std::string, Xyz, std::less<>>& vector_specials() {
  using S = SpecialReg;
  static const std::map<std::string, Xyz, std::less<>> table = {
      {"%tid", {S::TidX, S::TidY, S::TidZ}},
      {"%ntid", {S::NtidX, S::NtidY, S::NtidZ}},
      {"%ctaid", {S::CtaidX, S::CtaidY, S::CtaidZ}},
      {"%nctaid", {S::NctaidX, S::NctaidY, S::NctaidZ}},
      {"%clusterid", {S::ClusterIdX, S::ClusterIdY, S::ClusterIdZ}},
      {"%nclusterid", {S::NClusterIdX, S::NClusterIdY, S::NClusterIdZ}},
      {"%cluster_ctaid", {S::ClusterCtaidX, S::ClusterCtaidY, S::ClusterCtaidZ}},
      {"%cluster_nctaid", {S::ClusterNCtaidX, S::ClusterNCtaidY, S::ClusterNCtaidZ}},
  };
  return table;
}

const std::map<std::string, SpecialReg, std::less<>>& scalar_specials() {
  using S = SpecialReg;
  static const std::map<std::string, SpecialReg, std::less<>> table = {
      {"%laneid", S::LaneId},
      {"WARP_SZ", S::WarpSize},
      {"%warpid", S::WarpId},
      {"%nwarpid", S::NWarpId},
      {"%smid", S::SmId},
      {"%nsmid", S::NSmId},
      {"%gridid", S::GridId},
      {"%lanemask_eq", S::LanemaskEq},
      {"%lanemask_le", S::LanemaskLe},
      {"%lanemask_lt", S::LanemaskLt},
      {"%lanemask_ge", S::LanemaskGe},
      {"%lanemask_gt", S::LanemaskGt},
      {"%dynamic_smem_size", S::DynamicSmemSize},
      {"%total_smem_size", S::TotalSmemSize},
      {"%cluster_ctarank", S::ClusterCtaRank},
      {"%cluster_nctarank", S::ClusterNCtaRank},
      {"%aggr_smem_size", S::AggrSmemSize},
      {"%reserved_smem_offset_begin", S::ReservedSmemBegin},
      {"%reserved_smem_offset_end", S::ReservedSmemEnd},
      {"%reserved_smem_offset_cap", S::ReservedSmemCap},
      {"%current_graph_exec", S::CurrentGraphExec},
      {"%is_explicit_cluster", S::IsExplicitCluster},
      {"%clock", S::Clock},
      {"%clock64", S::Clock64},
      {"%clock_hi", S::ClockHi},
      {"%globaltimer", S::GlobalTimer},
      {"%globaltimer_lo", S::GlobalTimerLo},
      {"%globaltimer_hi", S::GlobalTimerHi},
  };
  return table;
}

// N when `name` is prefix + N + suffix with N a decimal number below `limit` (no leading zeros).
std::optional<uint32_t> numbered(std::string_view name, std::string_view prefix, std::string_view suffix,
                                 uint32_t limit) {
  if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix))
    return std::nullopt;
  const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (digits.size() > 2 || (digits.size() > 1 && digits[0] == '0')) return std::nullopt;
  uint32_t n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<uint32_t>(c - '0');
  }
  if (n >= limit) return std::nullopt;
  return n;
}

}  // namespace

std::optional<SpecialOperand> lookup_special(const std::string& base, const std::string& component) {
  if (auto it = vector_specials().find(base); it != vector_specials().end()) {
    if (component == "x") return SpecialOperand{it->second.x};
    if (component == "y") return SpecialOperand{it->second.y};
    if (component == "z") return SpecialOperand{it->second.z};
    return std::nullopt;
  }
  if (!component.empty()) return std::nullopt;
  if (auto it = scalar_specials().find(base); it != scalar_specials().end())
    return SpecialOperand{it->second};
  // Numbered families: %envreg0..31, %pm0..7, %pm0_64..%pm7_64, %reserved_smem_offset_0..1.
  if (auto n = numbered(base, "%envreg", "", 32)) return SpecialOperand{SpecialReg::EnvReg, *n};
  if (auto n = numbered(base, "%pm", "", 8)) return SpecialOperand{SpecialReg::Pm, *n};
  if (auto n = numbered(base, "%pm", "_64", 8)) return SpecialOperand{SpecialReg::Pm64, *n};
  if (auto n = numbered(base, "%reserved_smem_offset_", "", 2))
    return SpecialOperand{SpecialReg::ReservedSmemOffset, *n};
  return std::nullopt;
}

}  // namespace lockstep::ir
