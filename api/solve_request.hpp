#pragma once
// `solve` as a request: a model and a policy in, the exact measures (and, when asked, the sojourn
// times' laws) out, with the JSON of `crawlq solve --json`. The command line parses flags into a
// SolveRequest and prints the SolveResult; the Python package and the lab build the same request.
#include <array>
#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/sojourn/sojourn_times.hpp"
#include "analytic/stationary/memory_estimate.hpp"
#include "analytic/stationary/stationary_solver.hpp"
#include "analytic/transient/periodic_regime.hpp"
#include "analytic/transient/transient_analysis.hpp"
#include "api/caller_words.hpp"
#include "api/transient_fields.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"
#include "validation/rate_sensitivity.hpp"
#include "validation/sensitivity.hpp"

namespace crawlq::api {

// Set from another thread (a signal handler, a web request gone away) to stop long work early.
using Cancellation = std::atomic<bool>;
// What a request throws when its Cancellation was set: the one way every request stops early.
using Cancelled = analytic::Cancelled;

// A chain of more states than this takes from seconds to minutes: the command line and Python say
// so before the work starts.
inline constexpr double kStatesToWarnOf = 1e6;
// What they say: the states and the memory, and how to stop it.
std::string large_solve_warning(const std::string& source, const analytic::MemoryEstimate& need);

// The largest chain whose sensitivities the lab computes (about 60 solves on the paper's examples).
inline constexpr double kLabSensitivityStates = 5e4;

// The most work of a transient the lab runs: products x Q times the chain's states.
inline constexpr double kLabTransientWork = 3e9;

struct SolveRequest {
  std::string source;  // what messages call the model: its file's name
  model::Model model;
  model::ControlPolicy policy;
  analytic::Method method = analytic::Method::kAuto;
  int threads = 0;       // inside the iterative solve; 0: every core
  bool sojourn = false;  // the laws of the sojourn times: mean, sd, median, 90%, 99%
  std::vector<double> transforms =
      {};  // u >= 0: the Laplace-Stieltjes transforms v(u) (ADKNS Theorem 4)
  std::vector<double> cdf_points = {};  // x: P(sojourn <= x)
  // Transient analysis: the distribution at these times (increasing, >= 0) from `from`, with the
  // indexer stopped during [0, outage).
  std::vector<double> times = {};
  analytic::TransientStart from = analytic::TransientStart::kEmpty;
  // Instead of `from`: the long run of another scenario (under its policy) or of a policy file,
  // or a distribution `solve --export` wrote (.csv), over the same states.
  std::string from_file = {};
  double outage = 0;
  std::optional<int> drain_to =
      std::nullopt;  // the time until the level first drops to this or below
  // The derivative and elasticity of every measure by each parameter group
  // (validation/sensitivity.hpp).
  bool sensitivity = false;
  // The same by every rate and start entry of the laws, by adjoint
  // (validation/rate_sensitivity.hpp); its rows follow the groups' in "sensitivity".
  bool sensitivity_rates = false;
  // Every phase of the obsolescence clock in the chain solved, even where each exits at one rate
  // and the chain lumps without them (analytic/stationary/clock_lumping.hpp): for the stationary
  // vector over every state. A start or a policy given state by state, and the per-rate
  // sensitivities, keep them whatever this says.
  bool full_chain = false;
  Caller caller = Caller::kCommandLine;  // whose words the messages use
  // Told each step as it starts ("the stationary solve"), for a progress line; none: nothing.
  std::function<void(const std::string& step)> stage = {};
  // A set of models (api/ensemble.hpp: a directory or files separated by commas) each solved under
  // this policy: every measure's spread beside this model's value.
  std::string ensemble = {};

  // Whether the request's fields can run: false with `why` naming the field (in the caller's words)
  // and the value.
  bool is_valid(std::string* why) const;
};

// Every check of a solve before its work: its fields, the policy's form, the method against the
// model and the chain against this machine's memory (model::InputError naming the source and the
// field). Gives what the solve will hold, for a caller that admits work by memory; solve calls it.
analytic::MemoryEstimate check(const SolveRequest& request);

// A fate's conditional sojourn law; the quantiles only when the fate has pages.
struct FateLaw {
  double probability = 0, mean = 0, sd = 0;
  std::optional<double> median, p90, p99;
};

inline constexpr std::array<analytic::PageFate, 3> kFates{
    analytic::PageFate::kAccepted, analytic::PageFate::kServed, analytic::PageFate::kObsolete};
const char* fate_name(analytic::PageFate fate);

// The clock's phases left out of the chain solved (analytic/stationary/clock_lumping.hpp): the rate
// each exits at, and the states the chain with them would have.
struct ClockLumping {
  double rate = 0, states_full = 0;
};

struct SolveResult {
  analytic::PolicyEvaluation evaluation;
  std::optional<std::array<FateLaw, 3>> sojourn;       // in kFates order
  std::vector<std::array<double, 3>> transforms, cdf;  // one row per u or x, in kFates order
  // How the quantiles and distribution functions were computed, when asked for: "uniformisation",
  // or "krylov" for a chain whose fastest state jumps too often for it.
  std::optional<std::string> sojourn_method = std::nullopt;
  std::optional<analytic::TransientResult> transient = std::nullopt;  // when times were asked for
  std::optional<analytic::DrainResult> drain = std::nullopt;          // when drain_to was
  // A scenario with a rhythm: its periodic regime, whose averages are evaluation's measures.
  std::optional<analytic::PeriodicRegime> periodic = std::nullopt;
  // With a rhythm, what the pieces ran: piece i runs piece_policies[i % size].
  std::vector<model::ControlPolicy> piece_policies = {};
  std::vector<validation::Sensitivity> sensitivity = {};  // when asked for
  // When an ensemble was asked for: {"members", "files", "measures": {KEY: spread_json},
  // "by_member"}.
  std::optional<nlohmann::json> ensemble = std::nullopt;
  // Set where the chain solved left out the clock's phases.
  std::optional<ClockLumping> lumping = std::nullopt;
  // Wall times: the whole solve, and the parts of it (the stationary solve; the tagged page's
  // chain, its moments and laws; the transient and the drain; the sensitivities' shifted solves).
  // With a rhythm, seconds_stationary is the mean arrivals' solve the iterations start from and
  // seconds_periodic the periods.
  double seconds = 0, seconds_stationary = 0, seconds_sojourn = 0, seconds_transient = 0,
         seconds_sensitivity = 0, seconds_ensemble = 0, seconds_periodic = 0;
};

// Throws model::InputError when check() refuses the request or the solve stops unconverged (naming
// the method that answers); Cancelled when `cancel` is set before it ends.
SolveResult solve(const SolveRequest& request, const Cancellation* cancel = nullptr);
// The keys of `solve --json` (interface.md).
nlohmann::json to_json(const SolveRequest& request, const SolveResult& result);

}  // namespace crawlq::api
