// "fifo": evicts the line installed first. Only a fill stamps a line (from one counter per
// cache); hits leave the order alone, so a hot line still leaves in its turn.
#include <cstdint>
#include <memory>
#include <vector>

#include "mem/replacement/replacement_impls.h"

namespace lockstep::mem {
namespace {

class FifoPolicy final : public ReplacementPolicy {
 public:
  FifoPolicy(uint32_t sets, uint32_t ways)
      : ways_(ways), stamps_(static_cast<std::size_t>(sets) * ways, 0) {}

  void on_fill(uint32_t line) override { stamps_[line] = ++clock_; }
  void on_hit(uint32_t) override {}
  void on_invalidate(uint32_t line) override { stamps_[line] = 0; }
  uint32_t victim(uint32_t set, uint64_t candidates) const override {
    return replacement_detail::oldest_way(stamps_, set, ways_, candidates);
  }

 private:
  uint32_t ways_;
  std::vector<uint64_t> stamps_;  // per line: fill order; 0 = empty
  uint64_t clock_ = 0;
};

std::unique_ptr<ReplacementPolicy> make_fifo(uint32_t sets, uint32_t ways) {
  return std::make_unique<FifoPolicy>(sets, ways);
}

}  // namespace

extern constinit const ReplacementPolicyInfo kFifoReplacement{
    "fifo", "evict the line installed first; hits do not matter", {}, make_fifo};

}  // namespace lockstep::mem
