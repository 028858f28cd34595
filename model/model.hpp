#pragma once
// The whole system of the paper, as data: engines take it by const reference and never change it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/arrival_modes.hpp"
#include "model/arrival_trace.hpp"
#include "model/control_policy.hpp"
#include "model/costs.hpp"
#include "model/name_table.hpp"
#include "model/phase_type.hpp"
#include "model/policy.hpp"
#include "model/rhythm.hpp"

namespace crawlq::model {

// What happens to a batch that does not fit in the free places.
enum class Admission {
  kPartial,      // the first pages fill the free places, the last ones are lost
  kRejectBatch,  // the whole batch is lost
};
inline constexpr NameTable<Admission, 2> kAdmissionNames{
    "rule", {{{Admission::kPartial, "partial"}, {Admission::kRejectBatch, "reject-batch"}}}};

// The largest K a model may have: a level map holds an entry per level, and no engine gets far
// beyond.
inline constexpr int kMostCapacity = 10'000'000;

struct Model {
  std::string name;
  int capacity = 1;  // K: most pages in the system, the one in service included
  Admission admission = Admission::kPartial;
  ArrivalModes arrivals;
  PhaseType service;
  std::optional<PhaseType> obsolescence;  // absent: waiting pages never expire
  Costs costs;
  std::optional<ControlPolicy> policy;  // absent: the command line gives one
  // `policy: {by_piece: [...]}` under a rhythm: piece i runs piece_policies[i % size]; `policy`
  // then holds the first, what a door shows when it names one policy.
  std::vector<ControlPolicy> piece_policies{};
  std::string time_unit{};  // the rates' unit of time, singular ("minute"); empty: none
  // Set: the simulator replays this log in place of `arrivals` (the exact engine keeps them).
  std::shared_ptr<const ArrivalTrace> replayed_arrivals{};
  // Set: the arrivals follow this rhythm (model/rhythm.hpp); the long run is periodic.
  std::optional<Rhythm> rhythm{};

  int modes() const { return arrivals.modes(); }
  // The file's policy when it is a level map, the form every engine runs; otherwise nothing.
  const Policy* level_map() const { return policy ? std::get_if<Policy>(&*policy) : nullptr; }
};

}  // namespace crawlq::model
