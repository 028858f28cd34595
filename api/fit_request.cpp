#include "api/fit_request.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "api/json_output.hpp"
#include "api/value_spread.hpp"
#include "fit/batched_log.hpp"
#include "fit/block_bootstrap.hpp"
#include "fit/hyperexponential_em.hpp"
#include "fit/map_statistics.hpp"
#include "fit/ph_moment_fit.hpp"
#include "fit/regime_map_em.hpp"
#include "fit/regime_map_fit.hpp"
#include "fit/regime_map_standard_errors.hpp"
#include "fit/sample_statistics.hpp"
#include "fit/time_scale.hpp"
#include "model/bmap.hpp"
#include "model/input_error.hpp"

namespace crawlq::api {

namespace {

// Refits a bootstrap may ask for: each is a fit, and EM's take a second each on a large log.
constexpr int kMostBootstrapRefits = 10'000;

// The BMAP of pages, D_0 = D0 and D_k = d_k D1, for r robots scaled as the paper's D^(r) = r D: the
// `arrivals:` section of a scenario with `robots` modes.
nlohmann::json arrivals_section(const fit::RegimeMapFit& map, const std::vector<double>& sizes,
                                int robots) {
  nlohmann::json modes = nlohmann::json::array();
  for (int r = 1; r <= robots; ++r) {
    nlohmann::json d = nlohmann::json::array({matrix_json(r * map.d0)});
    for (const double share : sizes) d.push_back(matrix_json(r * share * map.d1));
    modes.push_back({{"D", d}});
  }
  return {{"kind", "per-mode"}, {"modes", modes}};
}

double scv_of(const std::vector<double>& m) { return m[1] / (m[0] * m[0]) - 1; }

// The MAP of batches for a log cut into batches: the moments fit, and EM from it when asked.
struct MapFit {
  fit::RegimeMapFit map;
  std::optional<fit::RegimeMapEm> em;
};

MapFit fit_batches(const FitArrivalsRequest& request, const fit::BatchedLog& log,
                   const fit::SampleStatistics& sample) {
  MapFit fitted;
  fit::RegimeMapFit& map = fitted.map;
  try {
    map = fit::fit_regime_map(sample.mean, sample.variance, sample.lag_correlations,
                              sample.lag_bands, request.phases.value_or(0));
  } catch (const model::InputError& e) {
    throw model::InputError(fmt::format("{}: {}", request.source, e.what()));
  }
  std::optional<fit::RegimeMapEm>& em = fitted.em;
  if (request.method == "em") {
    // From the moments fit: its regimes' means (spread around the mean for more regimes, or for
    // none), its persistence, and the Erlang shape nearest its regimes' scv.
    const int shape =
        request.phases ? std::clamp(*request.phases / request.regimes, 1, 50)
        : map.regime_scv >= 1
            ? 1
            : static_cast<int>(std::lround(std::clamp(1 / map.regime_scv, 1.0, 50.0)));
    const int n = request.regimes;
    std::vector<double> means;
    if (n == 2 && map.regime_means.size() == 2) {
      means = map.regime_means;
    } else {
      for (int r = 0; r < n; ++r) means.push_back(sample.mean * std::pow(2.0, r - 0.5 * (n - 1)));
    }
    const double keep = map.correlation_decay > 0 ? map.correlation_decay : 0.5;
    const model::Matrix transitions =
        (1 - keep) * model::Matrix::Constant(n, n, 1.0 / n) + keep * model::Matrix::Identity(n, n);
    em = fit::fit_regime_map_em(log.intervals, shape, means, transitions);
    map.d0 = em->d0;
    map.d1 = em->d1;
    map.note.clear();
  }
  return fitted;
}

// What a bootstrap spreads: the fitted MAP's mean, scv and lag correlations, and the batch size
// and page rate they give with the log's batch sizes.
struct FitSummary {
  double mean = 0, scv = 0, batch_size_mean = 0, page_rate = 0;
  std::vector<double> lag_correlations;
};

FitSummary summary_of(const fit::RegimeMapFit& map, const std::vector<double>& size_probabilities,
                      int lags) {
  const fit::MapStatistics fitted = fit::map_statistics(map.d0, map.d1, lags);
  FitSummary summary{
      .mean = fitted.mean, .scv = fitted.scv, .lag_correlations = fitted.lag_correlations};
  for (std::size_t k = 0; k < size_probabilities.size(); ++k)
    summary.batch_size_mean += static_cast<double>(k + 1) * size_probabilities[k];
  summary.page_rate = summary.batch_size_mean / summary.mean;
  return summary;
}

nlohmann::json summary_json(const FitSummary& s) {
  return {{"mean", s.mean},
          {"scv", s.scv},
          {"lag_correlations", s.lag_correlations},
          {"batch_size_mean", s.batch_size_mean},
          {"page_rate", s.page_rate}};
}

// The fit repeated on block-bootstrap resamples of the log's batches, and how far its summary
// spreads over them.
nlohmann::json bootstrap_spread(const FitArrivalsRequest& request, double batch_gap,
                                double censor_gap, const FitSummary& point,
                                double correlation_decay) {
  const model::ArrivalTrace trace =
      fit::batch_trace(request.times, batch_gap, censor_gap, request.source);
  const int block = fit::bootstrap_block_length(trace.gaps.size(), request.lags, correlation_decay);
  std::vector<FitSummary> refits;
  for (int b = 1; b <= request.bootstrap; ++b) {
    const fit::BatchedLog log = fit::block_resample(trace, block, request.seed, b);
    const fit::SampleStatistics sample = fit::sample_statistics(log.intervals, request.lags);
    const MapFit refit = fit_batches(request, log, sample);
    refits.push_back(summary_of(refit.map, log.size_probabilities, request.lags));
    if (request.refitted)
      request.refitted(b, arrivals_section(refit.map, log.size_probabilities, request.robots));
  }
  nlohmann::json errors, intervals;
  const auto spread = [&](const char* key, auto value_of) {
    std::vector<double> values;
    for (const FitSummary& refit : refits) values.push_back(value_of(refit));
    const ValueSpread spread = spread_of(std::move(values));
    errors[key] = spread.sd;
    intervals[key] = {spread.quantile(0.025), spread.quantile(0.975)};
  };
  spread("mean", [](const FitSummary& s) { return s.mean; });
  spread("scv", [](const FitSummary& s) { return s.scv; });
  spread("batch_size_mean", [](const FitSummary& s) { return s.batch_size_mean; });
  spread("page_rate", [](const FitSummary& s) { return s.page_rate; });
  errors["lag_correlations"] = nlohmann::json::array();
  intervals["lag_correlations"] = nlohmann::json::array();
  for (std::size_t k = 0; k < point.lag_correlations.size(); ++k) {
    std::vector<double> values;
    for (const FitSummary& refit : refits) values.push_back(refit.lag_correlations[k]);
    const ValueSpread spread = spread_of(std::move(values));
    errors["lag_correlations"].push_back(spread.sd);
    intervals["lag_correlations"].push_back({spread.quantile(0.025), spread.quantile(0.975)});
  }
  return {{"replicates", request.bootstrap}, {"block_length", block},     {"seed", request.seed},
          {"point", summary_json(point)},    {"standard_errors", errors}, {"intervals", intervals}};
}

}  // namespace

bool FitArrivalsRequest::is_valid(std::string* why) const {
  std::string problem;
  const auto given = [this](Field field, auto value) {
    return field_given(caller, field, fmt::format("{}", value), false);
  };
  if (method != "moments" && method != "em")
    problem = fmt::format("{}: the methods are: moments, em",
                          field_given(caller, Field::kMethod, method));
  else if (regimes < 1 || regimes > 8)
    problem = fmt::format("{}: give 1 to 8", given(Field::kRegimes, regimes));
  else if (phases && (*phases < 1 || *phases > 400))
    problem = fmt::format("{}: give 1 to 400", given(Field::kPhases, *phases));
  else if (lags < 1 || lags > 1000)
    problem = fmt::format("{}: give 1 to 1000", given(Field::kLags, lags));
  else if (robots < 1)
    problem = fmt::format("{}: give 1 or more", given(Field::kRobots, robots));
  else if (bootstrap < 0 || bootstrap > kMostBootstrapRefits)
    problem =
        fmt::format("{}: give 0 to {}", given(Field::kBootstrap, bootstrap), kMostBootstrapRefits);
  for (const auto& [field, value] :
       {std::pair{Field::kBatchGap, batch_gap}, std::pair{Field::kCensorGap, censor_gap}})
    if (problem.empty() && value && !(*value >= 0 && std::isfinite(*value)))
      problem = fmt::format("{}: give a time >= 0", given(field, *value));
  if (!problem.empty() && why) *why = problem;
  return problem.empty();
}

nlohmann::json fit_arrivals(const FitArrivalsRequest& request) {
  if (std::string why; !request.is_valid(&why)) throw model::InputError(why);
  const std::vector<double>& times = request.times;
  const fit::BatchGapChoice chosen =
      request.batch_gap ? fit::BatchGapChoice{} : fit::choose_batch_gap(times);
  const double batch_gap = request.batch_gap.value_or(chosen.gap);
  const double censor_gap = request.censor_gap.value_or(fit::default_censor_gap(times, batch_gap));
  const fit::BatchedLog log = fit::split_batches(times, batch_gap, censor_gap);
  const fit::SampleStatistics sample = fit::sample_statistics(log.intervals, request.lags);
  if (log.batches < 2)
    throw model::InputError(fmt::format(
        "{}: the {} deliveries make one batch ({}): a fit needs at least three", request.source,
        log.units,
        times.front() == times.back()
            ? fmt::format("every timestamp is {}", times.front())
            : fmt::format("{} joins them all", field_given(request.caller, Field::kBatchGap,
                                                           fmt::format("{}", batch_gap), false))));
  if (sample.size < 2)
    throw model::InputError(fmt::format(
        "{}: {} time{} between batches: a fit needs at least two ({} joins "
        "nearly every delivery?)",
        request.source, sample.size, sample.size == 1 ? "" : "s",
        field_given(request.caller, Field::kBatchGap, fmt::format("{}", batch_gap), false)));
  const MapFit point = fit_batches(request, log, sample);
  const fit::RegimeMapFit& map = point.map;
  const std::optional<fit::RegimeMapEm>& em = point.em;
  const fit::MapStatistics fitted = fit::map_statistics(map.d0, map.d1, request.lags);
  nlohmann::json j{{"units", log.units},
                   {"batches", log.batches},
                   {"censored", log.censored},
                   {"batch_gap", batch_gap},
                   {"censor_gap", censor_gap},
                   {"size_probabilities", log.size_probabilities},
                   {"sample",
                    {{"size", sample.size},
                     {"mean", sample.mean},
                     {"variance", sample.variance},
                     {"scv", sample.scv},
                     {"lag_correlations", sample.lag_correlations},
                     {"lag_bands", sample.lag_bands}}},
                   {"fitted",
                    {{"method", request.method},
                     {"mean", fitted.mean},
                     {"variance", fitted.variance},
                     {"scv", fitted.scv},
                     {"lag_correlations", fitted.lag_correlations},
                     {"phases", map.d0.rows()},
                     {"log_likelihood", fit::map_log_likelihood(map.d0, map.d1, log.intervals)},
                     {"correlation_height", map.correlation_height},
                     {"correlation_decay", map.correlation_decay},
                     {"D0", matrix_json(map.d0)},
                     {"D1", matrix_json(map.d1)}}},
                   {"arrivals", arrivals_section(map, log.size_probabilities, request.robots)}};
  if (!map.note.empty()) j["fitted"]["note"] = map.note;
  if (const fit::LogOrder& order = request.order; order.lines_moved > 0)
    j["reordered"] = {{"lines", order.lines_moved},
                      {"largest_step_back", order.largest_step_back},
                      {"line", order.line_of_largest}};
  // The default found no split between the gaps inside batches and those between them: batching is
  // off, which a log of batches a millisecond apart needs said (its correlations hide in them).
  if (!request.batch_gap && chosen.rule == fit::BatchGapChoice::Rule::kNone)
    j["batch_gap_note"] = fmt::format(
        "no split of the gaps between deliveries 100 times wide and no tight cluster of small "
        "ones: the batch gap is 0, so only deliveries at equal times make a batch; if the robots "
        "deliver in batches, give {}",
        field_given(request.caller, Field::kBatchGap, "G", false));
  // A batch gap found as a cluster is a judgement the user should see and may overrule.
  if (!request.batch_gap && chosen.rule == fit::BatchGapChoice::Rule::kCluster)
    j["batch_gap_note"] = fmt::format(
        "{:.3g}% of the gaps between deliveries cluster tightly at {:.3g}, 20 times or more below "
        "the rest: taken for deliveries of one batch, with a batch gap of {:.3g}; {} chooses "
        "another",
        100 * chosen.cluster_share, chosen.cluster_median, batch_gap,
        field_given(request.caller, Field::kBatchGap, "G", false));
  if (em) {
    j["fitted"].erase("correlation_height");
    j["fitted"].erase("correlation_decay");
    j["fitted"]["iterations"] = em->log_likelihoods.size() - 1;
    j["fitted"]["converged"] = em->converged;
    // How far from converged: the last cycle's gain, a share of |log L| (1e-9 is converged).
    const std::vector<double>& trace = em->log_likelihoods;
    j["fitted"]["last_gain"] =
        trace.size() < 2 ? 0.0 : (trace.back() - trace[trace.size() - 2]) / std::abs(trace.back());
    j["fitted"]["regimes"] = em->means.size();
    j["fitted"]["shape"] = em->shape;
    j["fitted"]["regime_means"] = em->means;
    j["fitted"]["transitions"] = matrix_json(em->transitions);
    // How far the log pins them down: the likelihood's curvature at its top.
    const fit::RegimeMapStandardErrors errors = fit::regime_map_standard_errors(log.intervals, *em);
    if (errors.absent.empty()) {
      nlohmann::json& spread = j["fitted"]["standard_errors"];
      spread = {{"method", "observed information"}, {"regime_means", errors.means}};
      if (errors.transitions) spread["transitions"] = matrix_json(*errors.transitions);
    } else {
      j["fitted"]["standard_errors_absent"] = errors.absent;
    }
  }
  if (request.bootstrap > 0)
    j["bootstrap"] = bootstrap_spread(request, batch_gap, censor_gap,
                                      summary_of(map, log.size_probabilities, request.lags),
                                      point.map.correlation_decay);
  // Quantiles of the times between batches, the log's beside the fit's: a Q-Q plot's points.
  std::vector<double> all;
  for (const auto& run : log.intervals) all.insert(all.end(), run.begin(), run.end());
  std::sort(all.begin(), all.end());
  std::vector<double> probabilities, observed;
  for (int q = 1; q < 100; ++q) {
    probabilities.push_back(q / 100.0);
    observed.push_back(
        all[static_cast<std::size_t>(q / 100.0 * static_cast<double>(all.size() - 1))]);
  }
  j["quantiles"] = {{"probabilities", probabilities},
                    {"sample", observed},
                    {"fitted", fit::map_interval_quantiles(map.d0, map.d1, probabilities)}};
  return j;
}

namespace {

// Each mode's D_0 diagonal written as the loader recomputes it (model::d0_diagonal), so that a file
// crawlq wrote reads back with no repair notes.
void exact_diagonals(nlohmann::json& arrivals) {
  if (!arrivals.contains("modes")) return;
  for (nlohmann::json& mode : arrivals["modes"]) {
    if (!mode.contains("D") || mode["D"].empty()) continue;
    nlohmann::json& d = mode["D"];
    std::vector<model::Matrix> matrices;
    for (const nlohmann::json& rows : d) {
      model::Matrix m(static_cast<Eigen::Index>(rows.size()),
                      static_cast<Eigen::Index>(rows.at(0).size()));
      for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j)
          m(i, j) = rows.at(static_cast<std::size_t>(i)).at(static_cast<std::size_t>(j));
      matrices.push_back(std::move(m));
    }
    for (Eigen::Index i = 0; i < matrices[0].rows(); ++i)
      d[0][static_cast<std::size_t>(i)][static_cast<std::size_t>(i)] =
          model::d0_diagonal(matrices, i);
  }
}

}  // namespace

nlohmann::json with_fitted_arrivals(nlohmann::json scenario, const nlohmann::json& fitted,
                                    const std::string& log) {
  nlohmann::json arrivals = fitted.at("arrivals");
  exact_diagonals(arrivals);
  scenario["arrivals"] = std::move(arrivals);
  if (!log.empty()) {
    // The file is a fit of the log, not the base scenario: named and sourced as such.
    const std::string base = scenario.value("name", std::string());
    const std::string source = scenario.value("source", std::string());
    scenario["name"] = base.empty() ? std::string("fitted") : base + "-fitted";
    scenario["source"] =
        fmt::format("arrivals fitted to {} by crawlq fit arrivals{}", log,
                    source.empty() ? std::string() : fmt::format("; the rest as in {}", source));
  }
  return scenario;
}

nlohmann::json fit_law(const FitLawRequest& request) {
  if (request.method != "moments" && request.method != "em")
    throw model::InputError(
        fmt::format("{}: the methods are: moments, em",
                    field_given(request.caller, Field::kMethod, request.method)));
  if (request.method == "em" && request.sample.empty())
    throw model::InputError(fmt::format("{}: {} fits a sample: give the SAMPLE file",
                                        request.source,
                                        field_given(request.caller, Field::kMethod, "em")));
  if (request.mean && !(*request.mean > 0 && std::isfinite(*request.mean)))
    throw model::InputError(fmt::format(
        "{}: give a time > 0",
        field_given(request.caller, Field::kMean, fmt::format("{}", *request.mean), false)));
  const std::vector<double> moments =
      request.sample.empty() ? request.moments : fit::sample_moments(request.sample, 3);
  if (moments.size() != 3)
    throw model::InputError(fmt::format("{}: give three moments, m1,m2,m3", request.source));
  fit::PhaseTypeFit ph;
  std::optional<fit::EmFit> em;
  try {
    if (!request.sample.empty()) {
      const auto [least, most] = std::minmax_element(request.sample.begin(), request.sample.end());
      if (*least == *most)
        throw model::InputError(
            fmt::format("every value is {}: a constant time is no phase-type law", *least));
      // Values too large or too small for their moments in a double: said before any method runs.
      fit::require_time_scale(
          moments[0],
          std::isfinite(moments[2]) ? moments[1] : std::numeric_limits<double>::infinity(),
          "the sample");
    }
    if (request.method == "em") {
      em = fit::fit_hyperexponential_em(request.sample, request.phases);
      ph.beta = em->beta;
      ph.s = em->s;
      ph.third_moment_matched = false;
    } else {
      ph = fit::fit_three_moments(moments[0], moments[1], moments[2]);
    }
  } catch (const model::InputError& e) {
    throw model::InputError(fmt::format("{}: {}", request.source, e.what()));
  }
  // --mean T: the law's times scaled so that its mean is T (the paper knows the processing rate
  // only through the mean service time).
  if (request.mean) ph.s /= *request.mean / moments[0];
  const std::vector<double> fitted = fit::phase_type_moments(ph.beta, ph.s, 3);
  nlohmann::json j{
      {"sample", {{"mean", moments[0]}, {"scv", scv_of(moments)}, {"moments", moments}}},
      {"fitted",
       {{"mean", fitted[0]},
        {"scv", scv_of(fitted)},
        {"moments", fitted},
        {"phases", ph.s.rows()},
        {"method", request.method},
        {"third_moment_matched", ph.third_moment_matched}}},
      {"beta", std::vector<double>(ph.beta.data(), ph.beta.data() + ph.beta.size())},
      {"S", matrix_json(ph.s)}};
  if (!request.sample.empty()) j["sample"]["size"] = request.sample.size();
  // The law's order at the top as the contract names it (issue 32), beside `fitted.phases`.
  j["phases"] = ph.s.rows();
  // The likelihood of the sample under the law fitted to it (not under one rescaled away from it).
  j["fitted"]["log_likelihood"] =
      request.sample.empty() || request.mean
          ? nlohmann::json(nullptr)
          : nlohmann::json(fit::phase_type_log_likelihood(ph.beta, ph.s, request.sample));
  if (!ph.note.empty()) j["fitted"]["note"] = ph.note;
  if (em) {
    j["fitted"]["iterations"] = em->log_likelihoods.size() - 1;
    j["fitted"]["converged"] = em->converged;
    j["fitted"].erase("third_moment_matched");
  }
  return j;
}

}  // namespace crawlq::api
