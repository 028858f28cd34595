#include "sim/random_streams.hpp"

namespace crawlq::sim {

namespace {
// SplitMix64: spreads nearby (seed, replication, source) triples over the whole seed space.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

Xoshiro256::Xoshiro256(std::uint64_t seed) {
  // Four SplitMix64 outputs in a row: never all zero, the one state xoshiro cannot leave.
  for (std::uint64_t& word : s_) word = mix(seed += 0x9e3779b97f4a7c15ULL);
}

Xoshiro256 Xoshiro256::from_state(const std::array<std::uint64_t, 4>& state) {
  Xoshiro256 engine;
  for (std::size_t i = 0; i < 4; ++i) engine.s_[i] = state[i];
  return engine;
}

RandomStream::RandomStream(std::uint64_t seed, std::uint64_t replication, Source source)
    : engine_(mix(mix(mix(seed) ^ replication) ^ static_cast<std::uint64_t>(source))) {}

}  // namespace crawlq::sim
