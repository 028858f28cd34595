#pragma once
// What every caller of the request layer checks before a request runs, the same for the command
// line, the Python package and the lab: whether the exact engine's chain fits in this machine's
// memory, whether a search's work is within what one request may take, and which policy a scenario
// stands for when none is named. api::solve and api::optimize make these checks themselves.
#include <cstdint>
#include <functional>
#include <string>

#include "analytic/control/search_work.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "analytic/stationary/stationary_solver.hpp"
#include "api/caller_words.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::api {

// Why the exact chain of `model` would not fit in this machine's memory (its size and the largest
// capacity that would), or empty when it fits.
std::string exact_engine_refusal(const model::Model& model,
                                 analytic::Method method = analytic::Method::kAuto);
// Refuses (model::InputError naming `source`) a model `method` cannot take: one whose exact chain
// would not fit in memory, or batches under qbd.
void require_exact_engine_fits(const model::Model& model, const std::string& source,
                               analytic::Method method = analytic::Method::kAuto,
                               Caller caller = Caller::kCommandLine);
// Refuses (model::InputError naming `source` and `what_asked`, e.g. "--class markov") a model whose
// optimal control over full-state policies would not fit in memory, naming the largest capacity
// that would; else gives that control's memory.
analytic::MemoryEstimate require_markov_control_fits(const model::Model& model,
                                                     const std::string& source,
                                                     const std::string& what_asked);
// The same for the per-rate sensitivities (`what_asked`: "--sensitivity-rates" in the caller's
// words), whose adjoint solves hold the assembled generator.
analytic::MemoryEstimate require_adjoint_fits(const model::Model& model, const std::string& source,
                                              const std::string& what_asked);
// The model a policy search solves: level maps, whatever form the file's policy has.
model::Model searched_model(const model::Model& model);

// Refuses (model::InputError naming `source` and `what_asked`, e.g. "--class thresholds --search
// exhaustive") a policy search whose least work, counted before it starts by `least_work` (one of
// search_work.hpp's), is more than analytic::kMostSearchWork: the policies and states it would
// solve and, when it helps, `advice` (another search, say); else the largest capacity within the
// budget.
void require_search_fits(const model::Model& model, const std::string& source,
                         const std::string& what_asked,
                         const std::function<analytic::SearchWork(const model::Model&)>& least_work,
                         const std::string& advice = "");
// The advice to search the threshold class locally, in `caller`'s words, when that search (of about
// `policies`) fits and `exhaustive` is the one asked; else empty.
std::string local_search_advice(Caller caller, bool exhaustive, const analytic::SearchWork& local);
// The same for the best of a class of analytic::policy_class_names() ("all": every class), searched
// as best_of_class and compare_classes do (`max_maps` as their options).
void require_class_search_fits(const model::Model& model, const std::string& source,
                               const std::string& policy_class, analytic::Search search,
                               std::int64_t max_maps = 1'000'000,
                               Caller caller = Caller::kCommandLine);
// Refuses (model::InputError naming `source`) a stationary solve that stopped unconverged for a
// model that is valid: what `summary` says, and the --method that answers instead (another that
// fits in memory), or the capacity to lower when none does.
[[noreturn]] void refuse_unconverged(const model::Model& model, const std::string& source,
                                     const analytic::StationarySummary& summary,
                                     Caller caller = Caller::kCommandLine);

// Refuses (model::InputError naming `source`) a model with a rhythm for `command` ("simulate"),
// which does not follow one yet: solve computes its periodic regime.
void require_no_rhythm(const model::Model& model, const std::string& source,
                       const std::string& command);

// The scenario's own policy, or the only one a one-mode model has; model::InputError naming
// `source` and how to give one (`how`, e.g. "give --thresholds j1,...,j3 or --levels m0,...,m5")
// otherwise.
model::ControlPolicy policy_or_default(const model::Model& model, const std::string& source,
                                       const std::string& how);

}  // namespace crawlq::api
