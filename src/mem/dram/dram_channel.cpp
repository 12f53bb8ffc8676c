#include "mem/dram/dram_channel.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <utility>

namespace lockstep::mem {
namespace {

const DramOptions& validated(const DramOptions& options) {
  validate_dram_options(options);
  return options;
}

// How many requests can be between their column command and their return. At an issue, those
// whose burst ends later: their commands are at most one a clock and their data starts at most
// max(tCL, tWL) clocks after the command, and one burst at a time is on the bus, so at most
// max(tCL, tWL) + 1, plus the new one. Those whose burst has ended but that tick returns only
// from the next cycle on: their bursts ended within one core cycle, one at least a beat after
// another.
std::size_t in_flight_bound(const DramTiming& timing, const DramClock& clock) {
  const uint64_t beats_per_cycle = clock.units_per_cycle() / clock.units_per_beat() + 1;
  return std::max(timing.tCL, timing.tWL) + 2u + static_cast<std::size_t>(beats_per_cycle);
}

}  // namespace

DramChannel::DramChannel(const DramOptions& options)
    : options_(validated(options)),
      clock_(options.core_clock_mhz, options.dram_clock_mhz, options.transfers_per_clock),
      map_(options.banks, options.row_bytes),
      scheduler_(make_dram_scheduler(options.scheduler)),
      device_(clock_, options.timing, options.banks),
      in_flight_(in_flight_bound(options.timing, clock_)) {
  reads_.reserve(options.read_queue);
  writes_.reserve(options.write_queue);
  const std::size_t deepest = std::max(options.read_queue, options.write_queue);
  candidates_.resize(deepest);
  ready_at_.resize(deepest);
  bank_hits_.resize(options.banks);
  constraint_.resize(std::size_t{options.banks} * kDramCommandCount);
  constraint_scan_.resize(constraint_.size(), 0);
  stats_.units_per_cycle = clock_.units_per_cycle();
}

bool DramChannel::can_accept(bool write) const {
  const bool room = write ? writes_.size() < options_.write_queue : reads_.size() < options_.read_queue;
  if (!room) ++(write ? stats_.write_refusals : stats_.read_refusals);
  return room;
}

void DramChannel::push(const DramRequest& request, uint64_t now) {
  assert(request.write ? writes_.size() < options_.write_queue : reads_.size() < options_.read_queue);
  const DramAddress where = map_.decode(request.address);
  if (request.bytes == 0 || where.column + uint64_t{request.bytes} > options_.row_bytes)
    throw std::invalid_argument(fmt::format("dram request of {} bytes at {:#x} is empty or crosses a {}-byte row",
                                            request.bytes, request.address, options_.row_bytes));
  Pending pending;
  pending.request = request;
  pending.pushed = now;
  pending.visible = clock_.edge_at_or_after(clock_.cycle_start(now));
  // A burst shorter than one transfer still takes the whole transfer.
  pending.burst = clock_.beats((request.bytes + options_.bus_bytes - 1) / options_.bus_bytes);
  pending.row = where.row;
  pending.bank = where.bank;
  // What arrives in cycle `now` cannot change what happened before it. The edges between the last
  // tick and `now` had nothing to do (the caller skips only cycles next_event called idle), but
  // the queues did not hold this request then: it must not act there, not even through the
  // others (a write drain it starts, a row hit it adds).
  const bool served_before = serving_writes();
  next_edge_ = std::max(next_edge_, pending.visible);
  if (request.write) {
    writes_.push_back(pending);
    if (writes_.size() >= options_.write_high_watermark) draining_ = true;
  } else {
    reads_.push_back(pending);
  }
  // The kept choice stands when the request joined the queue not being served and the edge moved
  // no further than the choice: the first scheduling edges it skips had no pick, and with the
  // same candidates the later ones give the same answer (next_issue).
  if (serving_writes() != served_before || request.write == served_before || next_edge_ > cached_choice_.at)
    choice_valid_ = false;
}

// The first edge at which the scheduler picks something, and what. Nothing but an issue or a
// push changes the queues, the bank state or the mode, and until then each request's command only
// becomes more ready with time; so this is exact, and tick and next_event share it.
// Kept between calls: tick and next_event ask every cycle, and it scans every queued request.
// The cycles without a push or an issue move only next_edge_, and only up to the kept choice's
// edge (tick stops short of it), past edges at which the policy picked nothing from the same
// ready candidates; so the answer stands.
// The candidates themselves (each request's next command and the edge its bank allows it) change
// only with an issue or the mode: a push to the queue being served appends one (scan_ below).
DramChannel::Choice DramChannel::next_issue() const {
  if (!choice_valid_) {
    cached_choice_ = compute_next_issue();
    choice_valid_ = true;
  }
  return cached_choice_;
}

void DramChannel::scan_candidates(const std::vector<Pending>& queue, bool write) const {
  if (!scan_valid_ || scan_write_ != write) {
    // Requests to one bank share its constraint per command: found once per scan (it costs a
    // division).
    ++scan_;
    scanned_ = 0;
    scan_valid_ = true;
    scan_write_ = write;
    std::fill(bank_hits_.begin(), bank_hits_.end(), 0u);
  }
  for (std::size_t i = scanned_; i < queue.size(); ++i) {
    const Pending& p = queue[i];
    const DramCommand command = device_.next_command(p.bank, p.row, write);
    candidates_[i] = {p.bank, command, false, false};
    const std::size_t key = std::size_t{p.bank} * kDramCommandCount + static_cast<std::size_t>(command);
    if (constraint_scan_[key] != scan_) {
      constraint_scan_[key] = scan_;
      constraint_[key] = device_.ready_edge(command, p.bank);
    }
    ready_at_[i] = std::max(p.visible, constraint_[key]);
    if (is_column(command)) ++bank_hits_[p.bank];
  }
  scanned_ = queue.size();
}

DramChannel::Choice DramChannel::compute_next_issue() const {
  const bool write = serving_writes();
  const std::vector<Pending>& queue = write ? writes_ : reads_;
  const std::size_t n = queue.size();
  if (n == 0) return {};
  scan_candidates(queue, write);
  // Since next_edge_ and each request's visible time are edges, a request's command may issue
  // from the largest of the three (ready_at_ holds the other two): the policy is asked from
  // next_edge_ on, at each distinct ready time in turn (it may pass over ready candidates, as
  // fcfs does while the oldest waits).
  uint64_t first = DramClock::kNever;
  for (std::size_t i = 0; i < n; ++i) {
    assert(std::max(next_edge_, ready_at_[i]) ==
           device_.earliest(candidates_[i].command, queue[i].bank, std::max(next_edge_, queue[i].visible)));
    first = std::min(first, ready_at_[i]);
    candidates_[i].closes_wanted = candidates_[i].command == DramCommand::kPrecharge && bank_hits_[candidates_[i].bank] > 0;
  }
  for (uint64_t at = std::max(first, next_edge_); at != DramClock::kNever;) {
    uint64_t later = DramClock::kNever;
    for (std::size_t i = 0; i < n; ++i) {
      candidates_[i].ready = ready_at_[i] <= at;
      if (ready_at_[i] > at) later = std::min(later, ready_at_[i]);
    }
    const std::size_t pick = scheduler_->pick({candidates_.data(), n});
    if (pick != DramScheduler::kNone) {
      assert(pick < n && candidates_[pick].ready);
      return {at, pick};
    }
    at = later;
  }
  return {};
}

void DramChannel::count_first_command(DramCommand command) {
  if (is_column(command)) ++stats_.row_hits;
  else if (command == DramCommand::kActivate) ++stats_.row_misses;
  else ++stats_.row_conflicts;
}

void DramChannel::issue(const Choice& choice) {
  const bool write = serving_writes();
  std::vector<Pending>& queue = write ? writes_ : reads_;
  Pending& p = queue[choice.index];
  const DramCommand command = device_.next_command(p.bank, p.row, write);
  choice_valid_ = false;
  scan_valid_ = false;  // the bank state changed, and a column command leaves the queue
  if (!std::exchange(p.classified, true)) count_first_command(command);
  const uint64_t done = device_.issue(command, p.bank, p.row, choice.at, p.burst);
  next_edge_ = choice.at + clock_.units_per_clock();  // one command per clock
  if (command == DramCommand::kActivate) ++stats_.activations;
  if (command == DramCommand::kPrecharge) ++stats_.precharges;
  if (!is_column(command)) return;
  stats_.bus_busy_units += p.burst;
  assert(!in_flight_.full());
  in_flight_.push({p.request, p.pushed, done});
  queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(choice.index));
  if (write && writes_.size() <= options_.write_low_watermark) draining_ = false;
}

bool DramChannel::retire(uint64_t upto, std::vector<DramRequest>& completed) {
  bool any = false;
  while (!in_flight_.empty() && in_flight_.front().done <= upto) {
    const InFlight& f = in_flight_.front();
    if (f.request.write) {
      ++stats_.writes;
      stats_.bytes_written += f.request.bytes;
    } else {
      const uint64_t latency = clock_.cycle_after(f.done) - f.pushed;
      ++stats_.reads;
      stats_.bytes_read += f.request.bytes;
      stats_.read_latency_total += latency;
      ++stats_.read_latency_histogram[DramStats::latency_bucket(latency)];
    }
    completed.push_back(f.request);
    in_flight_.pop();
    any = true;
  }
  return any;
}

bool DramChannel::tick(uint64_t now, std::vector<DramRequest>& completed) {
  const uint64_t start = clock_.cycle_start(now);
  const uint64_t end = clock_.cycle_start(now + 1);
  bool changed = false;
  for (;;) {
    const Choice next = next_issue();
    // Returns up to the issue come first: completion order is output order.
    changed |= retire(std::min(next.at, start), completed);
    if (next.at >= end) break;
    issue(next);
    changed = true;
  }
  // Every edge in this cycle has had its chance.
  next_edge_ = std::max(next_edge_, clock_.edge_at_or_after(end));
  return changed;
}

uint64_t DramChannel::next_event(uint64_t now) const {
  uint64_t cycle = clock_.cycle_holding(next_issue().at);
  if (!in_flight_.empty()) cycle = std::min(cycle, clock_.cycle_after(in_flight_.front().done));
  if (cycle == DramClock::kNever) return UINT64_MAX;
  return std::max(cycle, now + 1);
}

}  // namespace lockstep::mem
