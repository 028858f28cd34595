#pragma once
// Independent evaluations side by side: each writes its own slot, so results never depend on the
// thread count.
#include <cstddef>
#include <functional>

namespace crawlq::analytic {

// body(i) for i = 0..count-1 on `threads` threads (0: all cores); the first exception stops the
// rest and is rethrown.
void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& body);

}  // namespace crawlq::analytic
