#include "analytic/parallel_for.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <vector>

#include "model/thread_count.hpp"
#include "model/worker_threads.hpp"

namespace crawlq::analytic {

void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& body) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      try {
        body(i);
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = count;
      }
    }
  };
  threads = model::resolved_threads(threads);
  threads = static_cast<int>(std::min<std::size_t>(threads, count));
  model::run_on_threads(threads, work);
  if (failure) std::rethrow_exception(failure);
}

}  // namespace crawlq::analytic
