// Figures 1 to 4 of section 7 (the cost against the threshold of two-mode policies, as the modes,
// the service-time variance and the obsolescence-time variance change), exact curves with simulated
// points, and a sample path of the optimal policy.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>
#include <sstream>

#include "analytic/control/policy_search.hpp"
#include "sim/simulator.hpp"
#include "sim/trace_observer.hpp"
#include "validation/paper_scenarios.hpp"
#include "validation/reproduce_sections.hpp"
#include "validation/sample_path_figure.hpp"

namespace crawlq::validation {

namespace {

// The exact curve of cost against j = 0..K-1 and, beside it, simulated points with intervals.
void add_threshold_curve(output::Figure& f, const PolicySimulation& simulation,
                         const model::Model& m, int high, int low, const std::string& title) {
  const analytic::PolicyEvaluator evaluator(m);
  // A curve and its simulated points share a colour.
  const int color = static_cast<int>(f.series.size()) / 2 + 1;
  output::Series exact = output::make_series(title, output::SeriesStyle::kLines, 1, color);
  output::Series simulated =
      output::make_series(title + ", simulated", output::SeriesStyle::kPointsErrors, 1, color);
  for (int j = 0; j < m.capacity; ++j) {
    const model::Policy policy = two_mode_policy(high, low, j, m.capacity);
    exact.x.push_back(j);
    exact.y.push_back(evaluator.evaluate(policy).measures.cost);
    const sim::Interval point = simulation.cost_point(m, policy);
    simulated.x.push_back(j);
    simulated.y.push_back(point.mean);
    simulated.half_width.push_back(point.half_width);
  }
  f.series.push_back(std::move(exact));
  f.series.push_back(std::move(simulated));
}

// A two-phase hyperexponential law with initial vector (0.9, 0.1) and the given mean: the paper's
// alpha_2 = 0.1 alpha_1 / (mean alpha_1 - 0.9).
model::PhaseType hyperexponential(double alpha1, double mean) {
  const double alpha2 = 0.1 * alpha1 / (mean * alpha1 - 0.9);
  model::RowVector initial(2);
  initial << 0.9, 0.1;
  model::Matrix t = model::Matrix::Zero(2, 2);
  t(0, 0) = -alpha1;
  t(1, 1) = -alpha2;
  return model::PhaseType(initial, t, "figure");
}

// The threshold of the best "high or low" policy.
int best_threshold(const model::Model& m, int high, int low) {
  const analytic::PolicyEvaluator evaluator(m);
  int best = 0;
  double least = 0;
  for (int j = 0; j < m.capacity; ++j) {
    const double cost = evaluator.evaluate(two_mode_policy(high, low, j, m.capacity)).measures.cost;
    if (j == 0 || cost < least) least = cost, best = j;
  }
  return best;
}

void figure1(Reproduction& out, const PolicySimulation& simulation, const model::Model& m) {
  output::Figure f =
      output::make_figure("Figure 1: cost against the threshold, two modes",
                          "threshold j (levels 0..j use the larger mode)", "cost criterion (2)");
  f.height = 640;
  f.integer_x = true;
  for (int high = 4; high >= 2; --high)
    for (int low = high - 1; low >= 1; --low)
      add_threshold_curve(f, simulation, m, high, low, fmt::format("{} or {}", high, low));
  out.figures.push_back(
      {"figure-1",
       "Figure 1. The paper's first example (K = 5): the cost of every two-mode threshold policy "
       "against its threshold. Lines: exact; points: simulated, with 95% intervals.",
       std::move(f)});
}

const std::vector<double> kServiceAlphas{1.521, 3, 5, 7, 9};
const std::vector<double> kObsolescenceAlphas{0.2, 0.5, 1, 3, 7};
constexpr double kMeanService = 0.657;     // b_1 as the paper states it
constexpr double kMeanObsolescence = 5.0;  // g_1

void figures2and3(Reproduction& out, const PolicySimulation& simulation, const model::Model& base) {
  output::Figure f2 = output::make_figure("Figure 2: service-time variance, modes 3 or 1",
                                          "threshold j", "cost criterion (2)");
  output::Figure f3 = output::make_figure("Figure 3: service-time variance, the best pair of modes",
                                          "threshold j", "cost criterion (2)");
  f2.integer_x = f3.integer_x = true;
  f2.height = f3.height = 640;
  std::vector<std::string> best_pairs;
  for (double alpha1 : kServiceAlphas) {
    model::Model m = base;
    m.service = hyperexponential(alpha1, kMeanService);
    const std::string name =
        fmt::format("alpha_1 = {:g} (var {:.3f})", alpha1, m.service.variance());
    add_threshold_curve(f2, simulation, m, 3, 1, name);
    // Figure 3: the paper keeps to two modes; the best pair, and beside it what the whole class
    // prefers.
    const auto search =
        analytic::optimize_thresholds(analytic::PolicyEvaluator(m), out.options.threads);
    const analytic::ModeSetBest* best_pair = nullptr;
    for (const auto& set : search.by_modes)
      if (set.modes.size() == 2 && (!best_pair || set.best.cost < best_pair->best.cost))
        best_pair = &set;
    std::set<int, std::greater<int>> used(search.best.policy.levels().begin(),
                                          search.best.policy.levels().end());
    best_pairs.push_back(fmt::format("alpha_1 = {:g}: {} or {} (over all threshold policies: {})",
                                     alpha1, best_pair->modes[0], best_pair->modes[1],
                                     fmt::join(used, " or ")));
    add_threshold_curve(
        f3, simulation, m, best_pair->modes[0], best_pair->modes[1],
        fmt::format("{}, modes {} or {}", name, best_pair->modes[0], best_pair->modes[1]));
  }
  out.figures.push_back(
      {"figure-2",
       "Figure 2. Service time hyperexponential with beta = (0.9, 0.1) and mean b_1 = 0.657, its "
       "variance growing with alpha_1; the cost of the '3 or 1' policies against the threshold.",
       std::move(f2)});
  out.figures.push_back(
      {"figure-3",
       "Figure 3. The same service laws, each with the pair of modes of its best threshold policy.",
       std::move(f3)});
  out.remarks.push_back(fmt::format(
      "Figures 2 and 3: the text says the best pair of modes is 3 or 1 up to alpha_1 = 4 (var_s = 3.415) and 4 or 1 "
      "beyond; computed: {}.",
      fmt::join(best_pairs, "; ")));
}

void figure4(Reproduction& out, const PolicySimulation& simulation, const model::Model& base) {
  output::Figure f = output::make_figure("Figure 4: obsolescence-time variance, modes 3 or 1",
                                         "threshold j", "cost criterion (2)");
  f.height = 640;
  f.integer_x = true;
  std::vector<std::string> thresholds;
  for (double alpha1 : kObsolescenceAlphas) {
    model::Model m = base;
    m.obsolescence = hyperexponential(alpha1, kMeanObsolescence);
    add_threshold_curve(
        f, simulation, m, 3, 1,
        fmt::format("alpha_1 = {:g} (var {:.0f})", alpha1, m.obsolescence->variance()));
    thresholds.push_back(fmt::format("alpha_1 = {:g}: j = {}", alpha1, best_threshold(m, 3, 1)));
  }
  out.figures.push_back(
      {"figure-4",
       "Figure 4. Time to obsolescence hyperexponential with gamma = (0.9, 0.1) and mean g_1 = 5, "
       "its variance growing with alpha_1; the cost of the '3 or 1' policies against the threshold.",
       std::move(f)});
  out.remarks.push_back(fmt::format(
      "Figure 4: the text says the optimal threshold falls from 2 to 0 as the variance grows; computed: {}.",
      fmt::join(thresholds, "; ")));
}

}  // namespace

void reproduce_figures(Reproduction& out, const PolicySimulation& simulation) {
  const model::Model m = paper_example().model;
  if (out.options.progress) out.options.progress("Figure 1");
  figure1(out, simulation, m);
  if (out.options.progress) out.options.progress("Figures 2 and 3");
  figures2and3(out, simulation, m);
  if (out.options.progress) out.options.progress("Figure 4");
  figure4(out, simulation, m);
}

void reproduce_sample_path(Reproduction& out) {
  constexpr double kHorizon = 15;
  const model::Model m = paper_example().model;
  const sim::LevelMapPolicy policy(*m.level_map());
  std::stringstream csv;
  sim::TraceObserver trace(csv);
  sim::Simulator(m, policy).run(out.options.seed, 0, 0.0, kHorizon, {&trace});
  out.figures.push_back(
      {"sample-path",
       fmt::format(
           "A sample path of the first example under its optimal policy (3 robots up to 2 "
           "pages, then 1): {} time units, seed {}, as `crawlq simulate --trace` writes it.",
           kHorizon, out.options.seed),
       sample_path_figure(csv, "Sample path: level and active robots", m.capacity)});
}

}  // namespace crawlq::validation
