#pragma once
// How sure an answer is that rests on a crawler's log (issue 32), in one request: the log's
// arrivals fitted (fit arrivals), refitted on block-bootstrap resamples of its batches (fit
// arrivals --bootstrap B), each fit put in place of a base scenario's arrivals (mode r is r times
// the fit, as fit arrivals --scenario builds them) and solved under one policy: each measure of the
// point fit beside its spread over the refits. The command line does the same in two steps (fit
// arrivals --scenario BASE --bootstrap B --out DIR, then solve --ensemble DIR/bootstrap); the lab,
// which reads no file, sends the log's text.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "api/caller_words.hpp"
#include "api/scenario_source.hpp"
#include "api/solve_request.hpp"
#include "model/control_policy.hpp"

namespace crawlq::api {

// The most refits one request may ask for: each is a fit and a solve.
inline constexpr int kMostLogRefits = 100;

struct LogEnsembleRequest {
  ScenarioSource base;  // the base scenario, with its changes (the lab's settings)
  model::ControlPolicy policy;
  std::string log_text, log_label;  // the log's lines, and its name in messages and the JSON
  int refits = 20;
  std::uint64_t seed = 1;
  Caller caller = Caller::kCommandLine;
  // The largest chain each fit may make (the lab bounds its work; 0: no bound).
  double most_states = 0;
};

// {"log", "lines", "batches", "refits", "seed", "reordered_lines", "measures": {KEY:
// spread_json(the point fit's, the refits')}, "by_refit": [{KEY: value}]}; model::InputError naming
// the field, the log's line or the scenario when something cannot be read, fitted or solved.
nlohmann::json log_ensemble(const LogEnsembleRequest& request,
                            const Cancellation* cancel = nullptr);

}  // namespace crawlq::api
