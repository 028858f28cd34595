#pragma once
// "--threads 0 means every core", and the most threads any door (command line, Python, lab) takes,
// decided in one place for every engine.
#include <algorithm>
#include <thread>

namespace crawlq::model {

// More than this buys nothing on any machine crawlq runs on, and thousands of threads fail to
// start:
// --threads above it is refused, and an engine asked for more (a caller that did not check) uses
// it.
inline constexpr int kMostThreads = 1024;

// The cores of this machine, at least 1.
inline int available_cores() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// `requested` threads, 0 (or less) meaning one for each core, at most kMostThreads.
inline int resolved_threads(int requested) {
  return std::min(requested > 0 ? requested : available_cores(), kMostThreads);
}

}  // namespace crawlq::model
