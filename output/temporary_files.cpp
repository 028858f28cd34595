#include "output/temporary_files.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>

namespace crawlq::output {

namespace {

// A fixed table: the handler may neither allocate nor lock. A slot goes free -> filling (its path
// being copied) -> active -> free; the handler takes active -> removing, after which nothing else
// touches the slot, so it never reads a path being overwritten.
enum SlotState : int { kFree, kFilling, kActive, kRemoving };
constexpr std::size_t kSlots = 64;
constexpr std::size_t kPathBytes = 4096;

struct Slot {
  std::atomic<int> state{kFree};
  char path[kPathBytes];
};
std::array<Slot, kSlots> slots;
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");

constexpr std::array<int, 3> kEndingSignals{SIGINT, SIGTERM, SIGHUP};

void remove_registered() {
  for (Slot& slot : slots) {
    int active = kActive;
    if (slot.state.compare_exchange_strong(active, kRemoving)) ::unlink(slot.path);
  }
}

void restore_default(int signal) {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(signal, &default_action, nullptr);
}

void ending_signal_handler(int signal) {
  remove_registered();
  restore_default(signal);
  // Blocked while this handler runs: delivered, with its default action, as the handler returns.
  ::raise(signal);
}

void install_handlers() {
  for (const int signal : kEndingSignals) {
    struct sigaction current {};
    if (::sigaction(signal, nullptr, &current) != 0) continue;
    const bool by_default = !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_DFL;
    if (!by_default) continue;
    struct sigaction action {};
    action.sa_handler = ending_signal_handler;
    sigemptyset(&action.sa_mask);
    for (const int other : kEndingSignals)
      sigaddset(&action.sa_mask, other);  // one cleanup at a time
    action.sa_flags = SA_RESTART;
    ::sigaction(signal, &action, nullptr);
  }
}

}  // namespace

TemporaryFile::TemporaryFile(const std::string& path) {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  if (path.empty() || path.size() >= kPathBytes) return;
  for (std::size_t i = 0; i < kSlots; ++i) {
    int free = kFree;
    if (!slots[i].state.compare_exchange_strong(free, kFilling)) continue;
    std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
    slots[i].state.store(kActive);
    slot_ = static_cast<int>(i);
    return;
  }
}

void TemporaryFile::release() {
  if (slot_ < 0) return;
  // A handler that took the slot is removing the file and ending the process: the slot stays its.
  int active = kActive;
  slots[static_cast<std::size_t>(slot_)].state.compare_exchange_strong(active, kFree);
  slot_ = -1;
}

void end_by_signal(int signal) {
  remove_registered();
  restore_default(signal);
  sigset_t just_this;
  sigemptyset(&just_this);
  sigaddset(&just_this, signal);
  ::pthread_sigmask(SIG_UNBLOCK, &just_this, nullptr);
  ::raise(signal);
  ::_exit(128 + signal);  // a signal whose default is to go on (none of ours): end all the same
}

}  // namespace crawlq::output
