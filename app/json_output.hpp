#pragma once
// The JSON shapes of interface.md, in one place so that every command spells the keys alike.
#include <nlohmann/json.hpp>

#include "analytic/policy_evaluation.hpp"
#include "analytic/sojourn_times.hpp"

namespace crawlq::app {

// {"levels": [...], "thresholds": [...] (threshold policies only)}
nlohmann::json policy_json(const model::Policy& policy);
// The keys of `solve --json`.
nlohmann::json evaluation_json(const analytic::PolicyEvaluation& evaluation);
// {"probability", "mean", "sd", "median", "p90", "p99"} of one page fate.
nlohmann::json sojourn_json(const analytic::SojournTimes& sojourn, analytic::PageFate fate);

}  // namespace crawlq::app
