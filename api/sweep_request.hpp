#pragma once
// `sweep` as a request: one parameter varied, the best threshold policy found again at each value;
// the JSON of `crawlq sweep --json`.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/caller_words.hpp"
#include "model/model.hpp"
#include "validation/parameter_sweep.hpp"

namespace crawlq::api {

struct SweepRequest {
  std::string source;  // what messages call the model: its file's name
  model::Model model;
  validation::SweepParameter parameter = validation::SweepParameter::kCapacity;
  std::vector<double> values;
  int threads = 0;  // values solved at once; 0: every core
  // Besides the threshold optimum, each value's best of this class
  // (analytic::policy_class_names()).
  std::string policy_class = "thresholds";
  // Every phase of the obsolescence clock in the chains solved (validation::swept_chain_model).
  bool full_chain = false;
  Caller caller = Caller::kCommandLine;  // whose words the messages use

  // False with `why` naming the field (in the caller's words) and the value: a parameter that means
  // nothing for this model, a value out of its range.
  bool is_valid(std::string* why) const;
};

// One row per value, in order, on this process's threads (the command line may spread the values
// over processes instead; the rows are the same). Throws model::InputError when the request is not
// valid, std::runtime_error naming the value when a solve fails.
// Every value's chain against this machine's memory, before anything is solved (is_valid has
// checked the values themselves): model::InputError naming --values, the value and why.
void require_sweep_fits(const SweepRequest& request);
// Every check before a sweep: is_valid, then require_sweep_fits (model::InputError). sweep calls
// it; a caller that spreads the values over processes calls it before it starts them.
void check(const SweepRequest& request);
std::vector<validation::SweepRow> sweep(const SweepRequest& request);
nlohmann::json to_json(const SweepRequest& request, const std::vector<validation::SweepRow>& rows);
// The best policy's thresholds, empty for a one-mode model.
std::vector<int> thresholds_of(const validation::SweepRow& row);

}  // namespace crawlq::api
