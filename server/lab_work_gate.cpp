#include "server/lab_work_gate.hpp"

#include <fmt/format.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <utility>

#include "analytic/stationary/memory_estimate.hpp"
#include "model/input_error.hpp"

namespace crawlq::server {

namespace {

double gib(double bytes) { return bytes / (1 << 30); }

// Resident and virtual sizes of this process, in bytes.
std::pair<double, double> process_bytes() {
  std::ifstream in("/proc/self/statm");
  double pages = 0, resident = 0;
  if (!(in >> pages >> resident)) return {0, 0};
  const auto page = static_cast<double>(sysconf(_SC_PAGE_SIZE));
  return {resident * page, pages * page};
}

}  // namespace

double lab_memory_budget(double reserved_address_space) {
  const auto [resident, virtual_size] = process_bytes();
  double budget = 0.8 * analytic::physical_memory_bytes() - resident;
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    budget = std::min(budget, 0.8 * (static_cast<double>(limit.rlim_cur) - virtual_size -
                                     reserved_address_space));
  return std::max(0.0, budget);
}

WorkGate::WorkGate(WorkGateLimits limits) : limits_(limits) {}

WorkGate::Ticket::~Ticket() { gate_.release(bytes_, long_work_); }

bool WorkGate::fits(double bytes, bool long_work) const {
  return bytes_in_use_ + bytes <= limits_.memory_bytes &&
         (!long_work || long_in_use_ < limits_.long_slots);
}

std::unique_ptr<WorkGate::Ticket> WorkGate::admit(double bytes, bool long_work,
                                                  const api::Cancellation* cancel) {
  if (bytes > limits_.memory_bytes)
    throw model::InputError(fmt::format(
        "this request needs about {:.2f} GiB and the lab may use {:.2f} GiB in all: give a smaller "
        "capacity, fewer phases, or use the command line on a larger machine",
        gib(bytes), gib(limits_.memory_bytes)));
  std::unique_lock lock(mutex_);
  const std::uint64_t turn = long_work ? next_turn_++ : 0;
  const auto my_turn = [&] { return !long_work || turn == serving_turn_; };
  if (!(my_turn() && fits(bytes, long_work))) {
    if (waiting_ >= limits_.most_waiting) {
      if (long_work) {  // give the turn up at once
        skipped_turns_.insert(turn);
        advance_turns();
      }
      changed_.notify_all();
      throw LabBusy(
          fmt::format("the lab is busy: {} requests are running and {} waiting; try again "
                      "when one has finished",
                      in_flight_, waiting_));
    }
    ++waiting_;
    const auto deadline = std::chrono::steady_clock::now() + limits_.longest_wait;
    bool admitted = false, cancelled = false;
    while (true) {
      if (cancel && *cancel) {
        cancelled = true;
        break;
      }
      if (my_turn() && fits(bytes, long_work)) {
        admitted = true;
        break;
      }
      // Cancellation is a flag, not a notification: look again every tenth of a second.
      if (changed_.wait_until(lock, std::min(deadline, std::chrono::steady_clock::now() +
                                                           std::chrono::milliseconds(100))) ==
              std::cv_status::timeout &&
          std::chrono::steady_clock::now() >= deadline)
        break;
    }
    --waiting_;
    if (!admitted) {
      // A long waiter that leaves passes its turn on, or those behind it would wait forever.
      if (long_work) {
        skipped_turns_.insert(turn);
        advance_turns();
      }
      changed_.notify_all();
      if (cancelled) throw LabCancelled();
      throw LabBusy(fmt::format(
          "the lab is busy: waited {} s for {:.2f} GiB of memory{} while {} requests ran; try again",
          limits_.longest_wait.count() / 1000, gib(bytes), long_work ? " and a free core" : "",
          in_flight_));
    }
  }
  if (long_work) {
    ++serving_turn_;
    advance_turns();
    ++long_in_use_;
  }
  bytes_in_use_ += bytes;
  ++in_flight_;
  changed_.notify_all();
  return std::make_unique<Ticket>(*this, bytes, long_work);
}

void WorkGate::advance_turns() {
  while (skipped_turns_.erase(serving_turn_) > 0) ++serving_turn_;
}

void WorkGate::release(double bytes, bool long_work) {
  {
    std::lock_guard lock(mutex_);
    bytes_in_use_ -= bytes;
    if (long_work) --long_in_use_;
    --in_flight_;
  }
  changed_.notify_all();
  // glibc keeps freed memory for reuse; a lab left idle after a large solve should not hold
  // gigabytes.
  malloc_trim(0);
}

std::unique_ptr<WorkGate::Loan> WorkGate::lend_idle_slots(int at_most) {
  std::lock_guard lock(mutex_);
  const int idle = waiting_ > 0 ? 0 : std::max(0, limits_.long_slots - long_in_use_);
  const int lent = std::min(idle, std::max(0, at_most));
  long_in_use_ += lent;
  return std::make_unique<Loan>(*this, lent);
}

WorkGate::Loan::~Loan() {
  if (slots_ == 0) return;
  {
    std::lock_guard lock(gate_.mutex_);
    gate_.long_in_use_ -= slots_;
  }
  gate_.changed_.notify_all();
}

void WorkGate::wake_all() { changed_.notify_all(); }

}  // namespace crawlq::server
