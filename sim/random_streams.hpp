#pragma once
// Independent random streams per (seed, replication, source), as ns-3's SetSeed/SetRun/SetStream:
// arrivals, service and obsolescence draw from their own engines, so two policies simulated with
// the same seed see the same pages, services and clocks (common random numbers).
#include <array>
#include <boost/random/exponential_distribution.hpp>
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

// xoshiro256++ (Blackman and Vigna, 2019): a 256-bit state, four shifts and rotations a number. It
// passes BigCrush like the Mersenne twister and is several times cheaper per draw, with no 2.5 kB
// state to refill; Boost 1.74 has no such engine. Seeded through SplitMix64, as its authors advise.
class Xoshiro256 {
 public:
  using result_type = std::uint64_t;
  explicit Xoshiro256(std::uint64_t seed);
  // A given state, as the authors' reference code takes it (not all zero).
  static Xoshiro256 from_state(const std::array<std::uint64_t, 4>& state);
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() {
    const std::uint64_t result = rotate(s_[0] + s_[3], 23) + s_[0];
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotate(s_[3], 45);
    return result;
  }

 private:
  Xoshiro256() = default;
  static std::uint64_t rotate(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

class RandomStream {
 public:
  RandomStream(std::uint64_t seed, std::uint64_t replication, Source source);

  // Uniform on (0, 1): never 0, so that -log(u) is finite.
  double uniform() { return (static_cast<double>(engine_() >> 11) + 0.5) * 0x1.0p-53; }
  // Boost's ziggurat sampler: no logarithm on most draws, the event loop's largest cost otherwise.
  // Its unit law is taken directly: exponential_distribution divides every draw by its rate, and a
  // division by 1 (exact, the same bits) was on the event loop's critical path.
  double exponential(double rate) { return unit_exponential() / rate; }
  double unit_exponential() { return unit_exponential_(engine_); }

 private:
  Xoshiro256 engine_;
  boost::random::detail::unit_exponential_distribution<double> unit_exponential_;
};

}  // namespace crawlq::sim
