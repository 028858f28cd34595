#pragma once
// The values a transient reports at each time, by their JSON keys (interface.md), named once for
// the simulator's estimates, their comparison with the exact engine's and every writer of either.
#include <array>
#include <cstddef>
#include <string_view>

namespace crawlq::model {

enum class TransientKey : std::size_t {
  kMeanInSystem,
  kMeanInQueue,
  kMeanActiveRobots,
  kPEmpty,
  kOfferedRate,
  kLossRate,
  kObsolescenceRate,
  kServiceRate,
  kOffered,
  kLost,
  kObsolete,
  kServed,
  kCostAccumulated,
};
inline constexpr std::size_t kTransientKeyCount = 13;

struct TransientKeyName {
  TransientKey key;
  std::string_view json;   // the key of `solve --json`'s and `simulate --json`'s times[i]
  std::string_view words;  // what a table's row says
  std::string_view unit;
};

inline constexpr std::array<TransientKeyName, kTransientKeyCount> kTransientKeys{{
    {TransientKey::kMeanInSystem, "mean_in_system", "pages in the system", "pages"},
    {TransientKey::kMeanInQueue, "mean_in_queue", "pages waiting", "pages"},
    {TransientKey::kMeanActiveRobots, "mean_active_robots", "active robots", "robots"},
    {TransientKey::kPEmpty, "p_empty", "P(indexer idle)", ""},
    {TransientKey::kOfferedRate, "offered_rate", "pages offered per unit time", "pages/time"},
    {TransientKey::kLossRate, "loss_rate", "pages lost per unit time", "pages/time"},
    {TransientKey::kObsolescenceRate, "obsolescence_rate", "pages made obsolete per unit time",
     "pages/time"},
    {TransientKey::kServiceRate, "service_rate", "pages served per unit time", "pages/time"},
    {TransientKey::kOffered, "offered", "pages offered since the start", "pages"},
    {TransientKey::kLost, "lost", "pages lost since the start", "pages"},
    {TransientKey::kObsolete, "obsolete", "pages made obsolete since the start", "pages"},
    {TransientKey::kServed, "served", "pages served since the start", "pages"},
    {TransientKey::kCostAccumulated, "cost_accumulated", "cost accumulated since the start",
     "cost"},
}};

// The rates: instantaneous in the exact engine, averages over the stretch since the previous time
// in the simulator (it sees events, not intensities).
constexpr bool is_rate(TransientKey key) {
  return key >= TransientKey::kOfferedRate && key <= TransientKey::kServiceRate;
}

}  // namespace crawlq::model
