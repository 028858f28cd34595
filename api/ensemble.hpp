#pragma once
// One question asked of a set of models (issue 32): the refits `fit arrivals --bootstrap B --out
// DIR` writes, or any scenarios over the same states. `solve --ensemble` gives each measure's
// spread under one policy; `optimize --ensemble` how far the best policy and its cost move, how
// often each policy is the best (the decision's stability), and what keeping the point estimate's
// policy costs over the set (its regret).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analytic/stationary/measures.hpp"
#include "api/caller_words.hpp"
#include "model/model.hpp"

namespace crawlq::api {

struct EnsembleMember {
  std::string file;  // as messages and the JSON name it
  model::Model model;
};

// The most members a set may have: each is a solve, or a whole policy search.
inline constexpr int kMostEnsembleMembers = 10'000;

// `spec`: a directory (its .yaml and .yml files, in name order) or files separated by commas.
// model::InputError naming the field (in `caller`'s words) when it names fewer than two models or
// more than kMostEnsembleMembers, and naming the file when one does not load.
std::vector<EnsembleMember> read_ensemble(const std::string& spec, Caller caller);

// {"point", "mean", "sd", "low", "high", "min", "max"}: `values` over the members beside the point
// estimate; low and high are the 5% and 95% quantiles (linear between order statistics). Values
// that are not numbers (a measure with no pages to measure) are left out; none left: all null.
nlohmann::json spread_json(double point, std::vector<double> values);

// {KEY: spread_json(point's, members')} for every scalar measure.
nlohmann::json measure_spreads(const analytic::Measures& point,
                               const std::vector<analytic::Measures>& members);

}  // namespace crawlq::api
