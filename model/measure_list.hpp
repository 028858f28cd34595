#pragma once
// The performance measures of one policy, named once. Both engines fill the same structure over
// their own number type (the exact engine a double, the simulator an interval), and every printer,
// packer and comparer iterates over the lists below: a new measure is a member and a line here.
#include <array>
#include <string_view>
#include <vector>

#include "model/time_unit.hpp"

namespace crawlq::model {

template <class T>
struct MeasureSet {
  T lambda{};                 // ADKNS (9): pages offered per unit time
  T p_loss{};                 // lost pages / offered pages (the printed ADKNS (8) is garbled)
  T p_obsolete{};             // ADKNS (14)
  T p_served{};               // ADKNS (15), P_success
  T p_starvation{};           // ADKNS (5)
  T mean_active_robots{};     // ADKNS (6)
  T mean_in_system{};         // pages in the buffer, the one in service included
  T mean_in_queue{};          // pages waiting
  T mean_sojourn{};           // accepted pages (served or obsolete); lost pages are not in it
  T mean_sojourn_served{};    // V^(1), the sojourn term of ADKNS (2)
  T mean_sojourn_obsolete{};  // V^(2)
  T cost{};                   // ADKNS (2)
  std::vector<T> level_probabilities;  // levels 0..K
  std::vector<T> mode_probabilities;   // ADKNS (7): entry r-1 for r robots
};

// What a reader is told about a measure: its JSON key (interface.md), the symbol the tables print,
// a description for tables and help, and what it is measured in (printed in the scenario's unit).
struct MeasureName {
  std::string_view key, symbol, description;
  MeasureUnit unit = MeasureUnit::kNone;
};

template <class T>
struct ScalarMeasure {
  MeasureName name;
  T MeasureSet<T>::*field;
};

template <class T>
struct ListMeasure {
  MeasureName name;
  std::vector<T> MeasureSet<T>::*field;
};

// In the order the tables print them; JSON objects sort their keys.
template <class T>
const std::array<ScalarMeasure<T>, 12>& scalar_measures() {
  using M = MeasureSet<T>;
  static const std::array<ScalarMeasure<T>, 12> list{{
      {{"lambda", "lambda", "pages offered", MeasureUnit::kPagesPerTime}, &M::lambda},
      {{"p_loss", "P_loss", "lost at a full buffer"}, &M::p_loss},
      {{"p_obsolete", "P_obs", "expired while waiting"}, &M::p_obsolete},
      {{"p_served", "P_success", "served"}, &M::p_served},
      {{"p_starvation", "P_star", "starvation: indexer idle"}, &M::p_starvation},
      {{"mean_active_robots", "N_act", "mean active robots"}, &M::mean_active_robots},
      {{"mean_in_system", "", "mean pages in system"}, &M::mean_in_system},
      {{"mean_in_queue", "", "mean pages waiting"}, &M::mean_in_queue},
      {{"mean_sojourn", "V", "mean sojourn, accepted pages", MeasureUnit::kTime}, &M::mean_sojourn},
      {{"mean_sojourn_served", "V(1)", "mean sojourn, served pages", MeasureUnit::kTime},
       &M::mean_sojourn_served},
      {{"mean_sojourn_obsolete", "V(2)", "mean sojourn, obsolete pages", MeasureUnit::kTime},
       &M::mean_sojourn_obsolete},
      {{"cost", "J", "cost: the file's weights applied"}, &M::cost},
  }};
  return list;
}

template <class T>
const std::array<ListMeasure<T>, 2>& list_measures() {
  using M = MeasureSet<T>;
  static const std::array<ListMeasure<T>, 2> list{{
      {{"level_probabilities", "p_i", "probability of each level 0..K"}, &M::level_probabilities},
      {{"mode_probabilities", "q_r", "probability of each number of active robots"},
       &M::mode_probabilities},
  }};
  return list;
}

}  // namespace crawlq::model
