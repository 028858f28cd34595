#include "api/json_output.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

#include "model/time_unit.hpp"

namespace crawlq::api {

nlohmann::json interval_json(const sim::Interval& i) {
  return {{"mean", i.mean}, {"half_width", i.half_width}};
}

nlohmann::json intervals_json(const std::vector<sim::Interval>& intervals) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& i : intervals) list.push_back(interval_json(i));
  return list;
}

nlohmann::json rhythm_keys_json(const model::Rhythm& rhythm) {
  return {{"period", rhythm.period}, {"pieces", rhythm.pieces()}, {"scales", rhythm.scales}};
}

nlohmann::json matrix_json(const model::Matrix& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j) == 0 ? 0.0 : m(i, j));
    rows.push_back(std::move(row));
  }
  return rows;
}

nlohmann::json policy_json(const model::Policy& policy) {
  nlohmann::json j{{"levels", policy.levels()}};
  if (const auto t = policy.thresholds()) j["thresholds"] = *t;
  return j;
}

nlohmann::json control_policy_json(const model::ControlPolicy& policy) {
  return std::visit(
      model::Overloaded{[](const model::Policy& levels) { return policy_json(levels); },
                        [](const model::PhaseAwarePolicy& table) {
                          return nlohmann::json{{"kind", "phase-aware"}, {"robots", table.robots}};
                        },
                        [](const model::HysteresisPolicy& h) {
                          return nlohmann::json{{"kind", "hysteresis"},
                                                {"high", h.high},
                                                {"low", h.low},
                                                {"switch_off", h.switch_off},
                                                {"switch_on", h.switch_on}};
                        },
                        [](const model::MemoryPolicy& memory) {
                          return nlohmann::json{{"kind", "memory"}, {"next", memory.next}};
                        },
                        [](const model::TablePolicy& table) {
                          return nlohmann::json{{"kind", "table"}, {"table", table.source}};
                        }},
      policy);
}

nlohmann::json evaluation_json(const analytic::PolicyEvaluation& e) {
  const analytic::StationarySummary& s = e.stationary.summary;
  nlohmann::json j{{"policy", control_policy_json(e.policy)},
                   {"method", analytic::method_name(s.method)},
                   {"states", e.stationary.probabilities.size()},
                   {"residual", s.residual},
                   {"iterations", s.iterations},
                   {"seconds", s.seconds}};
  put_measures(j, e.measures);
  return j;
}

namespace {
nlohmann::json cost_json(const nlohmann::json& policy, double cost) {
  nlohmann::json j = policy;
  j["cost"] = cost;
  return j;
}
}  // namespace

nlohmann::json class_best_json(const model::ControlPolicy& policy, double cost,
                               const std::string& table_file) {
  return std::visit(
      model::Overloaded{[&](const model::Policy& p) { return cost_json(policy_json(p), cost); },
                        [&](const model::PhaseAwarePolicy& p) {
                          return cost_json({{"phase_aware", p.robots}}, cost);
                        },
                        [&](const model::MemoryPolicy& p) {
                          return cost_json({{"memory", p.next}}, cost);
                        },
                        [&](const model::TablePolicy&) {
                          return cost_json(
                              {{"table", table_file.empty() ? nlohmann::json(nullptr)
                                                            : nlohmann::json(table_file)}},
                              cost);
                        },
                        [&](const model::HysteresisPolicy&) {
                          return cost_json(control_policy_json(policy), cost);
                        }},
      policy);
}

nlohmann::json measure_list_json() {
  nlohmann::json list = nlohmann::json::array();
  const auto add = [&list](const model::MeasureName& name) {
    list.push_back({{"key", name.key},
                    {"symbol", name.symbol},
                    {"description", name.description},
                    {"unit", model::measure_unit_words(name.unit, "")},
                    {"dimension", name.unit == model::MeasureUnit::kPagesPerTime ? "pages/time"
                                  : name.unit == model::MeasureUnit::kTime       ? "time"
                                                                                 : ""}});
  };
  for (const auto& measure : model::scalar_measures<double>()) add(measure.name);
  for (const auto& measure : model::list_measures<double>()) add(measure.name);
  return {{"measures", std::move(list)}};
}

std::string clock_lumping_text(double rate, const std::string& time_unit) {
  return fmt::format(
      "every phase of the obsolescence clock exits at rate {:.6g} {}, so the clock is exponential "
      "and its phases change no answer",
      rate, model::per_time_unit(time_unit));
}

std::string lumped_chain_text(double rate, const std::string& time_unit, std::string_view chain,
                              const std::string& solved, const std::string& full,
                              std::string_view what) {
  return fmt::format(
      "{}: {} counts pages, not their clocks' phases ({} states of {}); the full chain keeps them, "
      "with the same {}",
      clock_lumping_text(rate, time_unit), chain, solved, full, what);
}

std::string searched_lumping_text(double rate, const std::string& time_unit) {
  return clock_lumping_text(rate, time_unit) +
         ": each chain solved counts pages, not their clocks' phases; the full chain keeps them, "
         "with the same costs";
}

namespace {
// W (1 + M (1 + R + ... + R^(K-1))) in base 10, where the count itself is beyond a double.
double states_log10(const model::Model& m) {
  const double r = m.obsolescence ? m.obsolescence->phases() : 1;
  const double w = m.arrivals.phases(), service = m.service.phases(), k = m.capacity;
  // R^(K-1) dominates the sum for R >= 2; with R = 1 the sum is K.
  const double levels = r > 1 ? (k - 1) * std::log10(r) + std::log10(r / (r - 1)) : std::log10(k);
  return std::log10(w) + std::log10(service) + levels;
}
}  // namespace

nlohmann::json chain_states_json(const model::Model& m, double states) {
  if (states < 9e15) return static_cast<std::int64_t>(states);
  if (std::isfinite(states)) return states;
  const double exponent = std::floor(states_log10(m));
  return fmt::format("{:.2g}e{}", std::pow(10.0, states_log10(m) - exponent), exponent);
}

std::string chain_states_text(const model::Model& m, double states) {
  const nlohmann::json count = chain_states_json(m, states);
  return count.is_string() ? count.get<std::string>() : fmt::format("{:.6g}", states);
}

}  // namespace crawlq::api
