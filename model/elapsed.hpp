#pragma once
// Wall time since a moment, in seconds: what the commands report as "seconds" and the benchmarks
// print.
#include <chrono>

namespace crawlq::model {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace crawlq::model
