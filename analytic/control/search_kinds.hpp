#pragma once
// What a policy search is asked for: the search of the thresholds class and the table classes, with
// their names. Apart from the searches themselves, so that their work estimates (search_work.hpp)
// need not include the searches that consult them.
#include <cstdint>

#include "model/name_table.hpp"

namespace crawlq::analytic {

enum class Search {
  kAuto,        // exhaustive while threshold_search_work is within kExhaustiveWork, else local
  kExhaustive,  // every non-decreasing threshold vector
  kLocal,       // descent from the best of a small grid (optimize_thresholds_locally)
};
// "exhaustive", "local", "auto": the --search names, in the order help and refusals list them.
inline constexpr model::NameTable<Search, 3> kSearchNames{
    "search",
    {{{Search::kExhaustive, "exhaustive"}, {Search::kLocal, "local"}, {Search::kAuto, "auto"}}}};

// Which table, and how its entries become a policy.
enum class TableClass { kLevels, kPhaseAware, kMemory };
inline constexpr model::NameTable<TableClass, 3> kTableClassNames{
    "table class",
    {{{TableClass::kLevels, "levels"},
      {TableClass::kPhaseAware, "phase-aware"},
      {TableClass::kMemory, "memory"}}}};

// Up to this many tables a phase-aware or memory class is enumerated; beyond, the descent.
inline constexpr std::int64_t kExhaustiveTables = 4096;

}  // namespace crawlq::analytic
