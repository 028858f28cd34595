#include "api/describe_request.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

#include "analytic/stationary/memory_estimate.hpp"
#include "api/json_output.hpp"
#include "model/time_unit.hpp"

namespace crawlq::api {

namespace {

// The law as the engines use it, whether the file wrote it out or by name.
nlohmann::json phase_type_json(const model::PhaseType& ph, const char* initial_key,
                               const char* matrix_key) {
  return {{"phases", ph.phases()},
          {"mean", ph.mean()},
          {"variance", ph.variance()},
          {"scv", ph.variance() / (ph.mean() * ph.mean())},
          {initial_key, matrix_json(ph.initial())[0]},
          {matrix_key, matrix_json(ph.subgenerator())}};
}

}  // namespace

nlohmann::json describe(const DescribeRequest& request) {
  const model::Model& m = request.model;
  const double states = analytic::estimate_memory(m).states;
  nlohmann::json modes = nlohmann::json::array();
  for (int r = 1; r <= m.modes(); ++r) {
    const model::Bmap& b = m.arrivals.mode(r);
    nlohmann::json d = nlohmann::json::array();
    for (const model::Matrix& dk : b.matrices()) d.push_back(matrix_json(dk));
    modes.push_back({{"robots", r},
                     {"fundamental_rate", b.fundamental_rate()},
                     {"group_rate", b.group_rate()},
                     {"mean_batch", b.fundamental_rate() / b.group_rate()},
                     // Pages offered per page the indexer can serve: above 1 the buffer fills
                     // whatever its size.
                     {"offered_load", b.fundamental_rate() * m.service.mean()},
                     {"group_interval_variance", b.group_interval_variance()},
                     {"lag1_correlation", b.group_interval_lag1_correlation()},
                     {"max_batch", b.max_batch()},
                     {"D", d}});
  }
  nlohmann::json j{
      {"name", m.name},
      {"time_unit", m.time_unit},
      // The unit's words as the tables print them, for a reader (the lab) that keeps no rules of
      // its own for plurals.
      {"time_units", model::time_unit_plural(m.time_unit)},
      {"per_time_unit", model::per_time_unit(m.time_unit)},
      {"capacity", m.capacity},
      {"admission", model::kAdmissionNames.name(m.admission)},
      {"arrival_phases", m.arrivals.phases()},
      {"modes", modes},
      {"service", phase_type_json(m.service, "beta", "S")},
      {"obsolescence", m.obsolescence ? phase_type_json(*m.obsolescence, "gamma", "Gamma")
                                      : nlohmann::json(nullptr)},
      {"states", chain_states_json(m, states)},
      {"repairs", request.repairs}};
  if (m.level_map()) j["policy"] = policy_json(*m.level_map());
  if (m.rhythm) j["rhythm"] = {{"period", m.rhythm->period}, {"scales", m.rhythm->scales}};
  return j;
}

}  // namespace crawlq::api
