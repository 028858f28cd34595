#include "validation/transient_comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "model/transient_keys.hpp"

namespace crawlq::validation {

namespace {

using Key = model::TransientKey;

// The exact value the simulator's estimate of `key` at point i stands for.
std::optional<double> exact_value(const analytic::TransientResult& exact, std::size_t i, Key key) {
  const analytic::TransientPoint& p = exact.points[i];
  const auto count = [&](std::size_t at, Key rate) {
    const analytic::TransientPoint& q = exact.points[at];
    switch (rate) {
      case Key::kOfferedRate:
        return q.offered;
      case Key::kLossRate:
        return q.lost;
      case Key::kObsolescenceRate:
        return q.obsolete;
      default:
        return q.served;
    }
  };
  if (model::is_rate(key)) {
    const double span = p.t - (i == 0 ? 0.0 : exact.points[i - 1].t);
    if (!(span > 0)) return std::nullopt;
    return (count(i, key) - (i == 0 ? 0.0 : count(i - 1, key))) / span;
  }
  switch (key) {
    case Key::kMeanInSystem:
      return p.mean_in_system;
    case Key::kMeanInQueue:
      return p.mean_in_queue;
    case Key::kMeanActiveRobots:
      return p.mean_active_robots;
    case Key::kPEmpty:
      return p.p_empty;
    case Key::kOffered:
      return p.offered;
    case Key::kLost:
      return p.lost;
    case Key::kObsolete:
      return p.obsolete;
    case Key::kServed:
      return p.served;
    default:
      return p.cost_accumulated;
  }
}

// The least variance a value whose mean is `mean` can have when it takes whole numbers only: that
// of the two whole numbers around the mean, {mean} (1 - {mean}).
double least_integer_variance(double mean) {
  const double fraction = mean - std::floor(mean);
  return fraction * (1 - fraction);
}

// A floor under the variance of measure m's values if its exact value is their mean: the level's
// probabilities, the pages and robots and the counts take whole numbers (a rate is a count over
// its stretch); the cost does not. It stands in for a sample's variance where a rare value has
// come out too seldom to show its spread (one replication in 600 with a page lost).
double least_variance(const MeasureVerdict& m, double exact,
                      const std::map<double, double>& spans) {
  if (m.name == "cost_accumulated") return 0;
  for (const model::TransientKeyName& key : model::kTransientKeys)
    if (key.json == m.name && model::is_rate(key.key)) {
      const double span = spans.at(*m.t);
      return least_integer_variance(exact * span) / (span * span);
    }
  return least_integer_variance(exact);
}

}  // namespace

EngineComparison compare_transients(const analytic::TransientResult* exact,
                                    const sim::TransientSimulation& simulated) {
  EngineComparison c;
  std::map<double, double> spans;  // each time's stretch since the previous one
  for (std::size_t i = 0; i < simulated.points.size(); ++i)
    spans[simulated.points[i].t] =
        simulated.points[i].t - (i == 0 ? 0.0 : simulated.points[i - 1].t);
  c.replications = simulated.replications;
  c.events = simulated.events;
  c.seconds = simulated.seconds;
  for (std::size_t i = 0; i < simulated.points.size(); ++i) {
    const sim::TransientPointEstimate& p = simulated.points[i];
    for (std::size_t level = 0; level < p.level_probabilities.size(); ++level)
      c.measures.push_back(
          {.name = fmt::format("level_probabilities[{}]", level),
           .t = p.t,
           .exact = exact ? std::optional<double>(exact->points[i].level_probabilities[level])
                          : std::nullopt,
           .simulated = p.level_probabilities[level]});
    for (const model::TransientKeyName& key : model::kTransientKeys) {
      if (std::isnan(p[key.key].mean)) continue;  // a rate over a stretch of no length
      c.measures.push_back({.name = std::string(key.json),
                            .t = p.t,
                            .exact = exact ? exact_value(*exact, i, key.key) : std::nullopt,
                            .simulated = p[key.key]});
    }
  }
  const auto n = static_cast<double>(std::max(c.replications, 2));
  const boost::math::students_t t(n - 1);
  const double t95 = boost::math::quantile(boost::math::complement(t, 0.025));
  c.z_bound = boost::math::quantile(boost::math::complement(
      t, kFamilyLevel / (2.0 * static_cast<double>(std::max<std::size_t>(c.measures.size(), 1)))));
  for (MeasureVerdict& m : c.measures) {
    if (!m.exact) continue;
    const double sample_variance = std::pow(m.simulated.half_width / t95, 2) * n;
    const double variance = std::max(sample_variance, least_variance(m, *m.exact, spans));
    m.z = z_score(m.simulated.mean, *m.exact, std::sqrt(variance / n));
    m.verdict = verdict_of(m.z, c.z_bound);
  }
  return c;
}

}  // namespace crawlq::validation
