#pragma once
// A bounded FIFO of fixed capacity: the queue every unit of src/mem/ uses between its ports
// (style rule 7: check capacity, then push; full means stall, never grow). The storage is
// allocated once, in the constructor; push and pop never allocate.
//
// Contract: push only when !full(), pop/front/back only when !empty(), at(i) only for i < size().
// Broken preconditions are caught by assert in debug builds and are undefined otherwise, like
// std::vector::operator[]: these calls sit on the per-cycle path.
#include <cassert>
#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

namespace lockstep::mem {

template <typename T>
class RingBuffer {
 public:
  // Throws std::invalid_argument for a capacity of 0 (a queue that can never hold anything
  // would stall its producer forever).
  explicit RingBuffer(std::size_t capacity) : slots_(capacity) {
    if (capacity == 0) throw std::invalid_argument("a ring buffer needs a capacity of at least 1");
  }

  std::size_t capacity() const { return slots_.size(); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == slots_.size(); }

  void push(T value) {
    assert(!full());
    slots_[wrap(head_ + size_)] = std::move(value);
    ++size_;
  }
  void pop() {
    assert(!empty());
    head_ = wrap(head_ + 1);
    --size_;
  }
  void clear() { head_ = size_ = 0; }

  T& front() { return at(0); }
  const T& front() const { return at(0); }
  T& back() { return at(size_ - 1); }
  const T& back() const { return at(size_ - 1); }

  // The i-th element counted from the front (0 = the oldest).
  T& at(std::size_t i) {
    assert(i < size_);
    return slots_[wrap(head_ + i)];
  }
  const T& at(std::size_t i) const {
    assert(i < size_);
    return slots_[wrap(head_ + i)];
  }

 private:
  // head_ + i < 2 * capacity always, so one subtraction wraps it (no division per access).
  std::size_t wrap(std::size_t index) const { return index >= slots_.size() ? index - slots_.size() : index; }

  std::vector<T> slots_;  // capacity() slots, allocated once
  std::size_t head_ = 0;  // slot of the front element
  std::size_t size_ = 0;
};

}  // namespace lockstep::mem
