#pragma once
// "--threads 0 means every core", decided in one place for every engine.
#include <algorithm>
#include <thread>

namespace crawlq::model {

// The cores of this machine, at least 1.
inline int available_cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// `requested` threads, 0 (or less) meaning one for each core.
inline int resolved_threads(int requested) { return requested > 0 ? requested : available_cores(); }

}  // namespace crawlq::model
