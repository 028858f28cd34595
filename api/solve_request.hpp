#pragma once
// `solve` as a request: a model and a policy in, the exact measures (and, when asked, the sojourn
// times' laws) out, with the JSON of `crawlq solve --json`. The command line parses flags into a
// SolveRequest and prints the SolveResult; the Python package and the lab build the same request.
#include <array>
#include <atomic>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analytic/policy_evaluation.hpp"
#include "analytic/sojourn_times.hpp"
#include "analytic/stationary_solver.hpp"
#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::api {

// Set from another thread (a signal handler, a web request gone away) to stop long work early.
using Cancellation = std::atomic<bool>;

struct SolveRequest {
  std::string source;  // what messages call the model: its file's name
  model::Model model;
  model::ControlPolicy policy;
  analytic::Method method = analytic::Method::kAuto;
  int threads = 0;                  // inside the iterative solve; 0: every core
  bool sojourn = false;             // the laws of the sojourn times: mean, sd, median, 90%, 99%
  std::vector<double> transforms;   // u >= 0: the Laplace-Stieltjes transforms v(u) (ADKNS Theorem 4)
  std::vector<double> cdf_points;   // x: P(sojourn <= x)

  // Whether the request can run: false with `why` naming the field (as the command line's flag) and
  // the value. Checks the request alone; the model's size against memory is the caller's to judge.
  bool is_valid(std::string* why) const;
};

// A fate's conditional sojourn law; the quantiles only when the fate has pages.
struct FateLaw {
  double probability = 0, mean = 0, sd = 0;
  std::optional<double> median, p90, p99;
};

inline constexpr std::array<analytic::PageFate, 3> kFates{
    analytic::PageFate::kAccepted, analytic::PageFate::kServed, analytic::PageFate::kObsolete};
const char* fate_name(analytic::PageFate fate);

struct SolveResult {
  analytic::PolicyEvaluation evaluation;
  std::optional<std::array<FateLaw, 3>> sojourn;        // in kFates order
  std::vector<std::array<double, 3>> transforms, cdf;   // one row per u or x, in kFates order
};

// Throws model::InputError when the request is not valid, the policy is a form the exact engine
// does not solve, the method refuses the model, its chain does not fit in memory
// (require_exact_engine_fits), or the solve stops unconverged (naming the --method that answers); a
// cancelled solve comes back failed, "cancelled", in the summary.
SolveResult solve(const SolveRequest& request, const Cancellation* cancel = nullptr);
// The keys of `solve --json` (interface.md).
nlohmann::json to_json(const SolveRequest& request, const SolveResult& result);

}  // namespace crawlq::api
