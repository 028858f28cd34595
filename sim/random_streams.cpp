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

RandomStream::RandomStream(std::uint64_t seed, std::uint64_t replication, Source source)
    : engine_(mix(mix(mix(seed) ^ replication) ^ static_cast<std::uint64_t>(source))) {}

}  // namespace crawlq::sim
