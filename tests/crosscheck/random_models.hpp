#pragma once
// Small random valid models for the crosscheck, one per seed: random phase counts, modes, batch
// sizes, capacities, admission rules, level maps (any values, not only thresholds) and costs.
#include <cstdint>
#include <string>

#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::crosscheck {

struct RandomModelOptions {
  bool single_arrivals = false;  // every batch has one page (the QBD case of section 6)
  long max_states = 1500;        // of the chain xi_t; larger draws are redrawn
  bool holding_cost = false;     // a random costs.holding (else 0, as in the paper)
  // Ranges of the capacity and of the obsolescence clock's phases, and whether pages always expire:
  // wider ones reach the matrix-free operator's split levels (see split_models below).
  int capacities[2] = {1, 5};
  int clock_phases[2] = {1, 3};
  bool always_expires = false;
};

// Options whose models the matrix-free operator splits into pieces at their top levels: a clock of
// two or three phases and 8 to 13 places, up to 20,000 states.
RandomModelOptions split_models();

// The same seed gives the same model. The model's policy is always set.
model::Model random_model(std::uint64_t seed, const RandomModelOptions& options = {});

// A random policy of each form for `model` (same seed, same policy). A memory table always picks
// one mode on reaching level 0, so that the chain has one recurrent class; hysteresis needs two
// modes (a one-mode model gets its level map).
enum class PolicyForm { kLevels, kPhaseAware, kMemory, kHysteresis, kTable };
model::ControlPolicy random_control_policy(const model::Model& model, std::uint64_t seed,
                                           PolicyForm form);

// A rhythm of 2 to 5 pieces with scales from 0.25 to 2.4 and a period from 0.4 to 10 (same seed,
// same rhythm).
model::Rhythm random_rhythm(std::uint64_t seed);

// A random model of 2 to 5 places (a waiting page, whose phase is lumped) and up to `max_states`
// states whose clock of 2 or 3 phases exits at one random rate from each and moves between them on
// random rates (same seed, same model): one whose chain lumps
// (analytic/stationary/clock_lumping.hpp).
model::Model random_lumpable_model(std::uint64_t seed, long max_states);

// Number of states of xi_t: W (1 + M (1 + R + ... + R^{K-1})).
long chain_size(const model::Model& model);

// Every number of the model, for a failure report that can be replayed by hand.
std::string describe(const model::Model& model);

}  // namespace crawlq::crosscheck
