#pragma once
// The waiting room: at most K-1 pages in FIFO order, each with its arrival time and the moment its
// obsolescence clock rings. A ring allocated once per run, so the event loop never allocates.
#include <algorithm>
#include <limits>
#include <vector>

namespace crawlq::sim {

inline constexpr double kNever = std::numeric_limits<double>::infinity();

struct WaitingPage {
  double arrival = 0;
  double expiry = kNever;
};

class PageBuffer {
 public:
  explicit PageBuffer(int capacity) : pages_(std::max(capacity, 1)) {}
  int size() const { return size_; }
  const WaitingPage& at(int i) const { return pages_[slot(i)]; }
  void push(const WaitingPage& page) { pages_[slot(size_++)] = page; }
  WaitingPage pop_front() {
    const WaitingPage page = pages_[head_];
    head_ = slot(1);
    --size_;
    return page;
  }
  void erase(int i) {
    for (int j = i; j + 1 < size_; ++j) pages_[slot(j)] = pages_[slot(j + 1)];
    --size_;
  }
  // Moves every time by `delta` (the event loop's origin moved).
  void shift_times(double delta) {
    for (int i = 0; i < size_; ++i) {
      WaitingPage& page = pages_[slot(i)];
      page.arrival += delta;
      page.expiry += delta;
    }
  }
  // The waiting page whose clock rings first, or -1. A scan: K is small, and a heap would have to
  // follow pages that leave from the front.
  int first_to_expire() const {
    int best = -1;
    double earliest = kNever;
    for (int i = 0; i < size_; ++i)
      if (at(i).expiry < earliest) earliest = at(best = i).expiry;
    return best;
  }

 private:
  int slot(int i) const {
    const int s = head_ + i;
    return s >= static_cast<int>(pages_.size()) ? s - static_cast<int>(pages_.size()) : s;
  }
  std::vector<WaitingPage> pages_;
  int head_ = 0, size_ = 0;
};

}  // namespace crawlq::sim
