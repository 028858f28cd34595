#include "api/replayed_log.hpp"

#include <fmt/format.h>

#include <memory>
#include <numeric>

#include "fit/batched_log.hpp"
#include "fit/timestamp_log.hpp"
#include "model/input_error.hpp"
#include "scenarios/shipped_files.hpp"

namespace crawlq::api {

model::Model with_replayed_log(const model::Model& model,
                               const validation::SimulationSettings& settings, Caller caller) {
  const std::string& log = settings.arrivals_log;
  const std::string given = field_given(caller, Field::kArrivalsLog, log);
  try {
    const std::vector<double> times = fit::read_timestamps(scenarios::locate_log(log).string());
    const double batch = settings.batch_gap.value_or(fit::default_batch_gap(times));
    const double censor = settings.censor_gap.value_or(fit::default_censor_gap(times, batch));
    model::Model replayed = model;
    replayed.replayed_arrivals =
        std::make_shared<const model::ArrivalTrace>(fit::batch_trace(times, batch, censor, log));
    return replayed;
  } catch (const model::InputError& e) {
    throw model::InputError(fmt::format("{}: {}", given, e.what()));
  }
}

nlohmann::json replayed_log_json(const model::Model& model) {
  const model::ArrivalTrace* trace = model.replayed_arrivals.get();
  if (!trace) return nullptr;
  return {{"log", trace->source},
          {"batches", trace->gaps.size()},
          {"pages", std::accumulate(trace->sizes.begin(), trace->sizes.end(), 0.0)},
          {"length", std::accumulate(trace->gaps.begin(), trace->gaps.end(), 0.0)}};
}

}  // namespace crawlq::api
