#pragma once
// Work spread over threads that may not all start. Under a pids or address-space limit std::thread
// throws (std::system_error, or std::bad_alloc for its state), and a pool left half-built ends the
// program in std::terminate; every pool of the engines starts here instead, and runs on the threads
// that did start.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace crawlq::model {

// For tests: CRAWLQ_THREADS_THAT_START=n lets at most n threads besides the caller's start in a
// pool, the next failing as under a pids limit, so that what follows is checked the same on any
// machine and under the sanitizers (an address-space cap would also starve the threads that did
// start).
inline int threads_that_start() {
  static const int most = [] {
    const char* text = std::getenv("CRAWLQ_THREADS_THAT_START");
    return text != nullptr ? std::max(0, std::atoi(text)) : std::numeric_limits<int>::max();
  }();
  return most;
}

// Runs `work` on the calling thread and on up to `threads - 1` more, and returns once each has
// returned; returns how many ran it. `work` takes its share from a common counter, so that fewer
// threads do the same work with the same numbers. Threads that cannot start are left out, and the
// first time that happens one line on stderr says so. An exception from any thread's `work` is
// rethrown here once all have returned (the first one caught).
inline int run_on_threads(int threads, const std::function<void()>& work) {
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto guarded = [&] {
    try {
      work();
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    try {
      if (t > threads_that_start())
        throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
      pool.emplace_back(guarded);
    } catch (const std::exception& refusal) {
      static std::atomic<bool> said{false};
      if (!said.exchange(true))
        std::fprintf(stderr, "crawlq: only %d of %d threads could start (%s): running on those\n",
                     t, threads, refusal.what());
      break;
    }
  }
  guarded();
  for (auto& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
  return static_cast<int>(pool.size()) + 1;
}

}  // namespace crawlq::model
