#pragma once
// The lab's admission control: one memory budget shared by every request in flight, and a bounded
// number of long computations at a time, so that many requests side by side neither exhaust memory
// (each alone would fit) nor make a cheap solve wait behind a queue of optimisations.
//
// A request estimates its memory before any work and is admitted when it fits beside the others; a
// long one (optimize, landscape, simulate, a large solve) also needs one of the long-work slots.
// One that cannot be admitted waits, in order, while its client is there, up to a limit; then, or
// when too many already wait, it is refused with LabBusy (the server's 503). A request larger than
// the whole budget is refused at once.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>

#include "api/solve_request.hpp"

namespace crawlq::server {

// Refused for now (503): the lab is busy; the message says with what and when to retry.
class LabBusy : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The request's client went away, or the lab is stopping: nobody is left to answer.
class LabCancelled : public std::runtime_error {
 public:
  LabCancelled() : std::runtime_error("cancelled: the client went away or the lab is stopping") {}
};

struct WorkGateLimits {
  double memory_bytes = 0;  // all requests in flight together
  int long_slots = 1;       // long computations at once
  int most_waiting = 16;    // requests waiting at once; more are refused at once
  std::chrono::milliseconds longest_wait{60'000};
};

class WorkGate {
 public:
  explicit WorkGate(WorkGateLimits limits);

  // Held while the admitted work runs: gives back its memory and slot when destroyed.
  class Ticket {
   public:
    Ticket(WorkGate& gate, double bytes, bool long_work)
        : gate_(gate), bytes_(bytes), long_work_(long_work) {}
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    ~Ticket();

   private:
    WorkGate& gate_;
    double bytes_;
    bool long_work_;
  };

  // Waits for `bytes` of the budget (and a slot when `long_work`; long requests are admitted in
  // arrival order). Throws model::InputError when `bytes` exceeds the whole budget, LabBusy when
  // too many wait or the wait is too long, LabCancelled when `cancel` is set while waiting.
  std::unique_ptr<Ticket> admit(double bytes, bool long_work, const api::Cancellation* cancel);

  // Idle cores lent to admitted long work that can share itself out (a landscape's solves side by
  // side): up to `at_most` of the long slots nobody holds, none while anyone waits; held until
  // destroyed. Never waits, so the same work runs on fewer threads on a busy lab.
  class Loan {
   public:
    Loan(WorkGate& gate, int slots) : gate_(gate), slots_(slots) {}
    Loan(const Loan&) = delete;
    Loan& operator=(const Loan&) = delete;
    ~Loan();
    int slots() const { return slots_; }

   private:
    WorkGate& gate_;
    int slots_;
  };
  std::unique_ptr<Loan> lend_idle_slots(int at_most);

  // Wakes every waiter (to see its cancellation).
  void wake_all();

  double budget_bytes() const { return limits_.memory_bytes; }

 private:
  void release(double bytes, bool long_work);
  bool fits(double bytes, bool long_work) const;
  void advance_turns();  // past the turns of waiters that left

  WorkGateLimits limits_;
  std::mutex mutex_;
  std::condition_variable changed_;
  double bytes_in_use_ = 0;
  int long_in_use_ = 0, in_flight_ = 0, waiting_ = 0;
  std::uint64_t next_turn_ = 0, serving_turn_ = 0;  // long waiters, admitted in arrival order
  std::set<std::uint64_t> skipped_turns_;
};

// What the lab may use in all: 80% of the memory this process may have (the machine's, or less
// under a cgroup or address-space limit), less what it holds already and, under an address-space
// limit, `reserved_address_space` it will take before any work (worker threads' stacks).
double lab_memory_budget(double reserved_address_space);

}  // namespace crawlq::server
