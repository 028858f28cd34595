#pragma once
// Random scenario files written as people write them: every rate and probability a short decimal
// (one to three places), each generator row cancelling exactly on paper, so that after reading them
// into binary floating point many rows sum to a few ulps instead of zero.
#include <cstdint>
#include <string>

namespace crawlq::crosscheck {

struct DecimalModel {
  std::string yaml;
  int decimals = 0;  // places after the point
};

// The same seed gives the same file. Its chain has at most about 1500 states; it has a level map.
DecimalModel decimal_model(std::uint64_t seed);

}  // namespace crawlq::crosscheck
