#include "sim/replications.hpp"

#include <atomic>
#include <boost/math/distributions/students_t.hpp>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>

#include "model/elapsed.hpp"
#include "model/thread_count.hpp"
#include "model/worker_threads.hpp"
#include "sim/simulator.hpp"

namespace crawlq::sim {

double busiest_mode_horizon(const model::Model& model) {
  double busiest = 0;
  for (int r = 1; r <= model.modes(); ++r)
    busiest = std::max(busiest, model.arrivals.mode(r).fundamental_rate());
  return 1e6 / busiest;
}

Interval student_interval(const std::vector<double>& values) {
  Interval i;
  const auto n = static_cast<double>(values.size());
  if (values.empty()) return i;
  for (double v : values) i.mean += v / n;
  if (values.size() < 2) return i;
  double squares = 0;
  for (double v : values) squares += (v - i.mean) * (v - i.mean);
  const boost::math::students_t t(n - 1);
  i.half_width =
      boost::math::quantile(boost::math::complement(t, 0.025)) * std::sqrt(squares / (n - 1) / n);
  return i;
}

ReplicationBatch run_replications(const model::Model& model, const Policy& policy,
                                  const ReplicationPlan& plan, int first, int count) {
  const Simulator simulator(model, policy);
  ReplicationBatch batch;
  batch.estimates.resize(count);
  std::vector<std::uint64_t> events(count, 0);
  std::vector<char> complete(count, 0);
  const RunLimits limits{.deadline = plan.deadline, .stop = plan.stop};
  std::atomic<int> next{0};
  int done = 0;
  std::mutex progress_mutex;
  const auto work = [&] {
    for (int i = next++; i < count; i = next++) {
      const Estimators estimators = plan.estimators(model);
      std::vector<Observer*> observers;
      for (const auto& e : estimators) observers.push_back(e.get());
      const RunStatistics run = simulator.run(plan.seed, first + i, plan.warmup,
                                              plan.warmup + plan.horizon, observers, limits);
      events[i] = run.events;
      complete[i] = run.complete;
      if (!run.complete) next = count;  // past the deadline: start no more
      for (const auto& e : estimators) e->write(batch.estimates[i]);
      if (plan.progress) {
        std::lock_guard lock(progress_mutex);
        plan.progress(first + ++done);
      }
    }
  };
  int threads = model::resolved_threads(plan.threads);
  threads = std::max(1, std::min(threads, count));
  model::run_on_threads(threads, work);
  for (auto e : events) batch.events += e;
  // Replications in order up to the first that did not finish: the same set for any thread count.
  std::size_t finished = 0;
  while (finished < complete.size() && complete[finished]) ++finished;
  batch.cut_short = finished < complete.size();
  batch.estimates.resize(finished);
  return batch;
}

namespace {
constexpr int kHistogramBins = 40;

using Field = double ReplicationEstimate::*;

// The interval over the replications of what `value_of` reads from each.
template <typename ValueOf>
Interval interval_of(const std::vector<ReplicationEstimate>& estimates, const ValueOf& value_of) {
  std::vector<double> values;
  for (const auto& e : estimates) values.push_back(value_of(e));
  return student_interval(values);
}

Interval interval_over(const std::vector<ReplicationEstimate>& estimates, Field field) {
  return interval_of(estimates, [field](const ReplicationEstimate& e) { return e.*field; });
}

// Replication by replication, b minus a: the paired differences of common random numbers.
Interval paired_interval(const std::vector<ReplicationEstimate>& a,
                         const std::vector<ReplicationEstimate>& b, Field field) {
  std::vector<double> differences;
  for (std::size_t r = 0; r < a.size(); ++r) differences.push_back(b[r].*field - a[r].*field);
  return student_interval(differences);
}

// Measure by measure (each entry of the lists too), the interval over the replications of the
// measures `of` picks from each: its own, or those of one piece of the day.
template <typename Of>
void put_intervals(const std::vector<ReplicationEstimate>& estimates, const Of& of,
                   model::MeasureSet<Interval>& out) {
  if (estimates.empty()) return;
  const auto over = [&](const auto& value_of) {
    return interval_of(estimates, [&](const ReplicationEstimate& e) { return value_of(of(e)); });
  };
  const auto& estimated = model::scalar_measures<double>();
  const auto& interval = model::scalar_measures<Interval>();
  for (std::size_t i = 0; i < estimated.size(); ++i)
    out.*(interval[i].field) =
        over([&](const model::MeasureSet<double>& e) { return e.*(estimated[i].field); });
  const auto& estimated_lists = model::list_measures<double>();
  const auto& interval_lists = model::list_measures<Interval>();
  for (std::size_t l = 0; l < estimated_lists.size(); ++l)
    for (std::size_t k = 0; k < (of(estimates.front()).*(estimated_lists[l].field)).size(); ++k)
      (out.*(interval_lists[l].field)).push_back(over([&](const model::MeasureSet<double>& e) {
        return (e.*(estimated_lists[l].field))[k];
      }));
}

// Piece by piece, each measure's interval over the replications, and the fates'.
std::vector<PieceEstimate<Interval>> piece_intervals(
    const std::vector<ReplicationEstimate>& estimates) {
  std::vector<PieceEstimate<Interval>> pieces;
  if (estimates.empty()) return pieces;
  pieces.resize(estimates.front().pieces.size());
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    const auto piece_of = [p](const ReplicationEstimate& e) -> const PieceEstimate<double>& {
      return e.pieces[p];
    };
    put_intervals(estimates, piece_of, pieces[p]);
    const auto fate_interval = [&](double PieceEstimate<double>::*field) {
      return interval_of(estimates,
                         [&](const ReplicationEstimate& e) { return piece_of(e).*field; });
    };
    pieces[p].p_served_by_arrival = fate_interval(&PieceEstimate<double>::p_served_by_arrival);
    pieces[p].p_obsolete_by_arrival = fate_interval(&PieceEstimate<double>::p_obsolete_by_arrival);
  }
  return pieces;
}

Histogram histogram(const std::vector<ReplicationEstimate>& estimates) {
  Histogram h;
  double top = 0;
  for (const auto& e : estimates) top = std::max(top, e.served_p99);
  if (top <= 0) return h;
  top *= 1.2;
  const double width = top / kHistogramBins;
  for (int b = 0; b <= kHistogramBins; ++b) h.edges.push_back(b * width);
  std::vector<std::vector<double>> densities(kHistogramBins);
  for (const auto& e : estimates) {
    std::vector<double> counts(kHistogramBins, 0.0);
    for (double x : e.served_sample) {
      const auto bin = static_cast<std::size_t>(x / width);
      if (bin < counts.size()) ++counts[bin];
    }
    const double n = std::max<double>(1.0, static_cast<double>(e.served_sample.size()));
    for (int b = 0; b < kHistogramBins; ++b) densities[b].push_back(counts[b] / (n * width));
  }
  for (const auto& d : densities) h.density.push_back(student_interval(d));
  return h;
}
}  // namespace

SimulationSummary summarize(
    const model::Model& /*model: the lists take their lengths from the replications*/,
    std::vector<ReplicationEstimate> estimates, std::uint64_t events, double seconds) {
  SimulationSummary summary;
  summary.replications = std::move(estimates);
  // Measure by measure, replication by replication (the cost's interval too comes from the
  // replications' costs).
  put_intervals(
      summary.replications,
      [](const ReplicationEstimate& e) -> const model::MeasureSet<double>& { return e; }, summary);
  summary.served_histogram = histogram(summary.replications);
  summary.pieces = piece_intervals(summary.replications);
  summary.served_median = interval_over(summary.replications, &ReplicationEstimate::served_median);
  summary.served_p90 = interval_over(summary.replications, &ReplicationEstimate::served_p90);
  summary.served_p99 = interval_over(summary.replications, &ReplicationEstimate::served_p99);
  summary.events = events;
  summary.seconds = seconds;
  summary.fewest_pages = summary.replications.empty() ? 0 : std::numeric_limits<double>::infinity();
  for (const auto& e : summary.replications)
    summary.fewest_pages = std::min(summary.fewest_pages, e.pages_offered);
  return summary;
}

namespace {
using crawlq::model::seconds_since;

// How many times the replications must grow for the widest headline interval to shrink to the
// target (half-widths fall as 1/sqrt(replications)); 1 when every one is within it already; a
// negative number when more replications cannot help: a measure came out the same in every
// replication (0 pages lost, say) but the replications saw too few pages for that to mean anything.
double growth_needed(const SimulationSummary& s, double precision,
                     const std::vector<Interval SimulationSummary::*>& targets) {
  double worst = 0;
  for (const auto target : targets) {
    const Interval* i = &(s.*target);
    if (i->half_width == 0) {
      if (s.fewest_pages < kPagesToTrustNoSpread) return -1;
      continue;
    }
    worst = std::max(worst, i->half_width / (precision * std::abs(i->mean)));
  }
  return worst * worst;
}

// On plan.spread's processes when it has them, else on this process's threads.
ReplicationBatch run_planned(const model::Model& model, const Policy& policy,
                             const ReplicationPlan& plan, int first, int count) {
  if (plan.spread) return plan.spread->run(model, policy, plan, first, count);
  return run_replications(model, policy, plan, first, count);
}
}  // namespace

SimulationSummary simulate(const model::Model& model, const Policy& policy,
                           const ReplicationPlan& plan) {
  const auto start = std::chrono::steady_clock::now();
  ReplicationBatch batch = run_planned(model, policy, plan, 0, plan.replications);
  return summarize(model, std::move(batch.estimates), batch.events, seconds_since(start));
}

PolicyComparison compare_policies(const model::Model& model, const Policy& a, const Policy& b,
                                  const ReplicationPlan& plan) {
  PolicyComparison c;
  c.a = simulate(model, a, plan);
  c.b = simulate(model, b, plan);
  const auto& estimated = model::scalar_measures<double>();
  const auto& interval = model::scalar_measures<Interval>();
  for (std::size_t i = 0; i < estimated.size(); ++i)
    c.difference.*(interval[i].field) =
        paired_interval(c.a.replications, c.b.replications, estimated[i].field);
  c.independent_cost_half_width = std::hypot(c.a.cost.half_width, c.b.cost.half_width);
  return c;
}

SequentialResult simulate_to_precision(const model::Model& model, const Policy& policy,
                                       const ReplicationPlan& given, double relative_precision,
                                       double time_limit,
                                       const std::vector<Interval SimulationSummary::*>& targets) {
  const auto start = std::chrono::steady_clock::now();
  ReplicationPlan plan = given;
  // Within a round too: one replication of a long horizon may take longer than the whole limit.
  // Spread over processes, each stops its share by its own clock, and all learn of any cut.
  if (time_limit < 1e9)
    plan.deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(time_limit));
  ReplicationBatch all = run_planned(model, policy, plan, 0, plan.replications);
  while (true) {
    if (all.cut_short)
      return {summarize(model, all.estimates, all.events, seconds_since(start)), false};
    SimulationSummary s = summarize(model, all.estimates, all.events, seconds_since(start));
    const int have = static_cast<int>(all.estimates.size());
    // 0: every target within the precision; -1: no time left; otherwise the next round's size.
    int next = 0;
    const double growth = growth_needed(s, relative_precision, targets);
    if (growth < 0) {
      next = -1;
    } else if (growth > 1) {
      // Ask for 10% more than the estimate says, at least a few more, at most 4x at a time.
      next = std::max(static_cast<int>(std::ceil(have * std::min(4.0, 1.1 * growth))) - have, 2);
      const double per_replication = s.seconds / have;
      const double remaining = time_limit - s.seconds;
      if (remaining <= 0) {
        next = -1;
      } else if (per_replication * next > remaining) {
        next = static_cast<int>(remaining / per_replication);
        if (next < 1) next = -1;
      }
    }
    // Every process reads its own clock: process 0's decision is everyone's.
    if (plan.spread) next = plan.spread->agree(next);
    if (next == 0) return {std::move(s), true};
    if (next < 0) return {std::move(s), false};
    ReplicationBatch extra = run_planned(model, policy, plan, have, next);
    all.estimates.insert(all.estimates.end(), extra.estimates.begin(), extra.estimates.end());
    all.events += extra.events;
    all.cut_short = extra.cut_short;
  }
}

}  // namespace crawlq::sim
