// "lru": evicts the line used least recently. Every fill and every hit renews the line's stamp
// from one counter per cache (access order, so several accesses in one cycle still have an
// order); the victim is the candidate with the oldest stamp.
#include <cstdint>
#include <memory>
#include <vector>

#include "mem/replacement/replacement_impls.h"

namespace lockstep::mem {
namespace {

class LruPolicy final : public ReplacementPolicy {
 public:
  LruPolicy(uint32_t sets, uint32_t ways)
      : ways_(ways), stamps_(static_cast<std::size_t>(sets) * ways, 0) {}

  void on_fill(uint32_t line) override { stamps_[line] = ++clock_; }
  void on_hit(uint32_t line) override { stamps_[line] = ++clock_; }
  void on_invalidate(uint32_t line) override { stamps_[line] = 0; }
  uint32_t victim(uint32_t set, uint64_t candidates) const override {
    return replacement_detail::oldest_way(stamps_, set, ways_, candidates);
  }

 private:
  uint32_t ways_;
  std::vector<uint64_t> stamps_;  // per line: last use; 0 = empty
  uint64_t clock_ = 0;
};

std::unique_ptr<ReplacementPolicy> make_lru(uint32_t sets, uint32_t ways) {
  return std::make_unique<LruPolicy>(sets, ways);
}

}  // namespace

extern constinit const ReplacementPolicyInfo kLruReplacement{
    "lru", "evict the line used least recently", {}, make_lru};

}  // namespace lockstep::mem
