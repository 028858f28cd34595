#include "sim/replications.hpp"

#include <atomic>
#include <boost/math/distributions/students_t.hpp>
#include <chrono>
#include <cmath>
#include <thread>

#include "sim/simulator.hpp"

namespace crawlq::sim {

Interval student_interval(const std::vector<double>& values) {
  Interval i;
  const auto n = static_cast<double>(values.size());
  if (values.empty()) return i;
  for (double v : values) i.mean += v / n;
  if (values.size() < 2) return i;
  double squares = 0;
  for (double v : values) squares += (v - i.mean) * (v - i.mean);
  const boost::math::students_t t(n - 1);
  i.half_width = boost::math::quantile(boost::math::complement(t, 0.025)) * std::sqrt(squares / (n - 1) / n);
  return i;
}

SimulationSummary simulate(const model::Model& model, const Policy& policy, const ReplicationPlan& plan) {
  const auto start = std::chrono::steady_clock::now();
  const Simulator simulator(model, policy);
  SimulationSummary summary;
  summary.replications.resize(plan.replications);
  std::vector<std::uint64_t> events(plan.replications, 0);
  std::atomic<int> next{0};
  const auto work = [&] {
    for (int r = next++; r < plan.replications; r = next++) {
      StatisticsObserver statistics(model.capacity, model.modes());
      events[r] = simulator.run(plan.seed, r, plan.warmup, plan.warmup + plan.horizon, {&statistics}).events;
      summary.replications[r] = statistics.estimate(model.costs);
    }
  };
  int threads = plan.threads > 0 ? plan.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::min(threads, plan.replications);
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();

  const auto interval_of = [&](auto field) {
    std::vector<double> values;
    for (const auto& e : summary.replications) values.push_back(field(e));
    return student_interval(values);
  };
  summary.lambda = interval_of([](const auto& e) { return e.lambda; });
  summary.p_loss = interval_of([](const auto& e) { return e.p_loss; });
  summary.p_obsolete = interval_of([](const auto& e) { return e.p_obsolete; });
  summary.p_served = interval_of([](const auto& e) { return e.p_served; });
  summary.p_starvation = interval_of([](const auto& e) { return e.p_starvation; });
  summary.mean_active_robots = interval_of([](const auto& e) { return e.mean_active_robots; });
  summary.mean_sojourn = interval_of([](const auto& e) { return e.mean_sojourn; });
  summary.mean_sojourn_served = interval_of([](const auto& e) { return e.mean_sojourn_served; });
  summary.mean_sojourn_obsolete = interval_of([](const auto& e) { return e.mean_sojourn_obsolete; });
  // The cost's interval comes from the per-replication costs.
  summary.cost = interval_of([](const auto& e) { return e.cost; });
  summary.served_median = interval_of([](const auto& e) { return e.served_median; });
  summary.served_p90 = interval_of([](const auto& e) { return e.served_p90; });
  summary.served_p99 = interval_of([](const auto& e) { return e.served_p99; });
  for (int i = 0; i <= model.capacity; ++i)
    summary.level_probabilities.push_back(interval_of([i](const auto& e) { return e.level_probabilities[i]; }));
  for (int r = 0; r < model.modes(); ++r)
    summary.mode_probabilities.push_back(interval_of([r](const auto& e) { return e.mode_probabilities[r]; }));
  for (auto e : events) summary.events += e;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace crawlq::sim
