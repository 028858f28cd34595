#include "sim/transient_replications.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>

#include "model/thread_count.hpp"
#include "model/worker_threads.hpp"
#include "sim/simulator.hpp"
#include "sim/transient_observer.hpp"

namespace crawlq::sim {

namespace {

// One policy during the warm-up, another from `at` on (the simulator asks the controller again at
// that moment).
class SwitchedPolicy final : public Policy {
 public:
  SwitchedPolicy(const Policy& before, const Policy& after, double at)
      : before_(before), after_(after), at_(at) {}
  int robots(const SystemView& view) const override {
    return view.time < at_ ? before_.robots(view) : after_.robots(view);
  }
  bool needs_phases() const override { return before_.needs_phases() || after_.needs_phases(); }
  bool reads_arrival_phase() const override {
    return before_.reads_arrival_phase() || after_.reads_arrival_phase();
  }

 private:
  const Policy &before_, &after_;
  double at_;
};

using Key = model::TransientKey;

// One replication's values at each time, by key, from what its observer saw.
struct PathValues {
  std::vector<int> levels;
  std::vector<std::array<double, model::kTransientKeyCount>> values;
};

PathValues values_of(const TransientObserver& seen, const std::vector<double>& times,
                     const model::Costs& costs) {
  PathValues path{seen.levels(), {}};
  TransientStretch total;
  double cost = 0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const TransientStretch& s = seen.stretches()[i];
    std::array<double, model::kTransientKeyCount> v{};
    const auto set = [&v](Key key, double value) { v[static_cast<std::size_t>(key)] = value; };
    const int level = seen.levels()[i];
    set(Key::kMeanInSystem, level);
    set(Key::kMeanInQueue, std::max(level - 1, 0));
    set(Key::kMeanActiveRobots, seen.robots()[i]);
    set(Key::kPEmpty, level == 0 ? 1.0 : 0.0);
    const double span = times[i] - (i == 0 ? 0.0 : times[i - 1]);
    const double per_time = span > 0 ? 1.0 / span : std::numeric_limits<double>::quiet_NaN();
    set(Key::kOfferedRate, s.offered * per_time);
    set(Key::kLossRate, s.lost * per_time);
    set(Key::kObsolescenceRate, s.obsolete * per_time);
    set(Key::kServiceRate, s.served * per_time);
    total.offered += s.offered, total.lost += s.lost, total.obsolete += s.obsolete,
        total.served += s.served;
    cost += costs.loss * s.lost + costs.obsolescence * s.obsolete + costs.robot * s.robot_time +
            costs.starvation * s.empty_time + costs.holding * s.page_time;
    set(Key::kOffered, total.offered);
    set(Key::kLost, total.lost);
    set(Key::kObsolete, total.obsolete);
    set(Key::kServed, total.served);
    set(Key::kCostAccumulated, cost);
    path.values.push_back(v);
  }
  return path;
}

double transient_seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

namespace {

// Every replication's values, in replication order up to the first that did not finish.
struct Paths {
  std::vector<PathValues> values;
  std::uint64_t events = 0;
};

Paths run_paths(const model::Model& model, const Policy& policy, const TransientPlan& plan) {
  const double origin = plan.warmup;
  std::optional<SwitchedPolicy> switched;
  if (plan.warmup > 0 && plan.warmup_policy) switched.emplace(*plan.warmup_policy, policy, origin);
  const Policy& run_policy = switched ? static_cast<const Policy&>(*switched) : policy;
  const Simulator simulator(model, run_policy);

  RunSetup setup = plan.warmup > 0 ? RunSetup{} : plan.start;
  if (plan.outage > 0) setup.pause_from = origin, setup.pause_to = origin + plan.outage;
  if (switched) setup.switch_at = origin;
  std::vector<double> moments;
  for (const double t : plan.times) moments.push_back(origin + t);
  // Just past the last moment, so that a run whose last moment is its start still reports the
  // state there (an interval of no length is not reported).
  const double until = std::nextafter(moments.empty() ? origin : moments.back(), kNever);

  const int count = plan.replications;
  std::vector<PathValues> paths(static_cast<std::size_t>(count));
  std::vector<std::uint64_t> events(static_cast<std::size_t>(count), 0);
  std::vector<char> complete(static_cast<std::size_t>(count), 0);
  const RunLimits limits{.deadline = plan.deadline, .stop = plan.stop};
  std::atomic<int> next{0};
  int done = 0;
  std::mutex progress_mutex;
  const auto work = [&] {
    for (int r = next++; r < count; r = next++) {
      TransientObserver seen(origin, moments);
      const std::vector<Observer*> observers{&seen};
      const RunStatistics run = simulator.run(plan.seed, static_cast<std::uint64_t>(r), origin,
                                              until, observers, limits, setup);
      const auto slot = static_cast<std::size_t>(r);
      events[slot] = run.events;
      complete[slot] = run.complete;
      if (!run.complete) {
        next = count;  // past the deadline: start no more
        continue;
      }
      paths[slot] = values_of(seen, plan.times, model.costs);
      if (plan.progress) {
        std::lock_guard lock(progress_mutex);
        plan.progress(++done);
      }
    }
  };
  model::run_on_threads(std::max(1, std::min(model::resolved_threads(plan.threads), count)), work);

  // Replications in order up to the first that did not finish: the same set for any thread count.
  std::size_t finished = 0;
  while (finished < complete.size() && complete[finished]) ++finished;
  Paths out;
  for (const auto e : events) out.events += e;
  paths.resize(finished);
  out.values = std::move(paths);
  return out;
}

// The intervals over replications r = 0..count-1 of level(r, i, level) and value(r, i, key).
template <class LevelValue, class KeyValue>
TransientSimulation summarize(std::size_t count, const std::vector<double>& times, int levels,
                              LevelValue level_value, KeyValue key_value) {
  TransientSimulation result;
  result.replications = static_cast<int>(count);
  for (std::size_t i = 0; i < times.size(); ++i) {
    TransientPointEstimate point;
    point.t = times[i];
    std::vector<double> values(count);
    for (int level = 0; level < levels; ++level) {
      for (std::size_t r = 0; r < count; ++r) values[r] = level_value(r, i, level);
      point.level_probabilities.push_back(student_interval(values));
    }
    for (std::size_t k = 0; k < model::kTransientKeyCount; ++k) {
      for (std::size_t r = 0; r < count; ++r) values[r] = key_value(r, i, k);
      point.values[k] = student_interval(values);
    }
    result.points.push_back(std::move(point));
  }
  return result;
}

double indicator(const PathValues& path, std::size_t i, int level) {
  return path.levels[i] == level ? 1.0 : 0.0;
}

TransientSimulation summarize_paths(const Paths& paths, const TransientPlan& plan, int levels) {
  const auto& v = paths.values;
  TransientSimulation result = summarize(
      v.size(), plan.times, levels,
      [&](std::size_t r, std::size_t i, int level) { return indicator(v[r], i, level); },
      [&](std::size_t r, std::size_t i, std::size_t k) { return v[r].values[i][k]; });
  result.events = paths.events;
  return result;
}

}  // namespace

TransientSimulation simulate_transient(const model::Model& model, const Policy& policy,
                                       const TransientPlan& plan) {
  const auto started = std::chrono::steady_clock::now();
  TransientSimulation result =
      summarize_paths(run_paths(model, policy, plan), plan, model.capacity + 1);
  result.seconds = transient_seconds(started);
  return result;
}

TransientComparison compare_transient(const model::Model& model, const Policy& a,
                                      const TransientPlan& plan_a, const Policy& b,
                                      const TransientPlan& plan_b) {
  const auto started = std::chrono::steady_clock::now();
  const Paths paths_a = run_paths(model, a, plan_a), paths_b = run_paths(model, b, plan_b);
  const int levels = model.capacity + 1;
  TransientComparison c;
  c.a = summarize_paths(paths_a, plan_a, levels);
  c.b = summarize_paths(paths_b, plan_b, levels);
  // Replication by replication, B minus A: the paired differences of common random numbers.
  const auto& va = paths_a.values;
  const auto& vb = paths_b.values;
  c.difference = summarize(
      std::min(va.size(), vb.size()), plan_a.times, levels,
      [&](std::size_t r, std::size_t i, int level) {
        return indicator(vb[r], i, level) - indicator(va[r], i, level);
      },
      [&](std::size_t r, std::size_t i, std::size_t k) {
        return vb[r].values[i][k] - va[r].values[i][k];
      });
  c.difference.events = paths_a.events + paths_b.events;
  c.a.seconds = c.b.seconds = c.difference.seconds = transient_seconds(started);
  return c;
}

}  // namespace crawlq::sim
