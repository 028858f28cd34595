#pragma once
// The common laws by name (interface.md), each exactly the phase-type law or BMAP it stands for, so
// a file may write what other tools call an exponential, Erlang or hyperexponential time, or
// Poisson batch arrivals, instead of the matrices. Each checks its own numbers and throws
// InputError naming `key` (e.g. "service.erlang") and the value.
#include <string>
#include <vector>

#include "model/bmap.hpp"
#include "model/phase_type.hpp"

namespace crawlq::model {

// Erlang laws beyond this many phases would make dense matrices and chains no machine holds.
inline constexpr int kMostNamedLawPhases = 1000;

// One phase of rate `rate`: alpha = [1], T = [[-rate]].
PhaseType exponential_law(double rate, const std::string& key);
// `phases` phases in a row, each of rate phases / mean: the sum of `phases` exponential times.
PhaseType erlang_law(int phases, double mean, const std::string& key);
// Phase i chosen with probability p_i, then one exponential time of rate `rates[i]`.
PhaseType hyperexponential_law(const std::vector<double>& probabilities,
                               const std::vector<double>& rates, const std::string& key);
// Batches as a Poisson process of rate `rate`, of k pages with probability batch[k-1]:
// D_0 = [[-rate]], D_k = [[rate * batch[k-1]]].
Bmap poisson_batches(double rate, const std::vector<double>& batch, const std::string& key);

}  // namespace crawlq::model
