#pragma once
// Independent random streams per (seed, replication, source), as ns-3's SetSeed/SetRun/SetStream:
// arrivals, service and obsolescence draw from their own engines, so two policies simulated with
// the same seed see the same pages, services and clocks (common random numbers).
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/mersenne_twister.hpp>
#include <cmath>
#include <cstdint>

namespace crawlq::sim {

// The refresh simulator's streams are apart too: two access orders with one seed see the same
// access times.
enum class Source : std::uint64_t {
  kArrivals = 1,
  kService = 2,
  kObsolescence = 3,
  kRefreshAccess = 4,   // X of each read
  kRefreshChanges = 5,  // each page's first change after a read
  kRefreshChoice = 6,   // the randomized order's page choices
};

class RandomStream {
 public:
  RandomStream(std::uint64_t seed, std::uint64_t replication, Source source);

  // Uniform on (0, 1): never 0, so that -log(u) is finite.
  double uniform() { return (static_cast<double>(engine_() >> 11) + 0.5) * 0x1.0p-53; }
  // Boost's ziggurat sampler: no logarithm on most draws, the event loop's largest cost otherwise.
  double exponential(double rate) { return unit_exponential_(engine_) / rate; }
  double unit_exponential() { return unit_exponential_(engine_); }

 private:
  boost::random::mt19937_64 engine_;
  boost::random::exponential_distribution<double> unit_exponential_{1.0};
};

}  // namespace crawlq::sim
