// libFuzzer harness of a crawler's log and a sample, read from text and fitted by the fit part as
// `crawlq fit arrivals|service` runs it (api/fit_request.cpp, whose analytic dependencies clang
// cannot build here): any text goes in; a fit comes out whose numbers are finite, or a
// model::InputError (refusal_check.hpp). Anything else fails the run: another exception
// (std::terminate), a crash, a failed assertion or a sanitizer report. The first byte picks the
// file form (plain or a CSV column), the number of lags and whether EM runs.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fit/batched_log.hpp"
#include "fit/hyperexponential_em.hpp"
#include "fit/map_statistics.hpp"
#include "fit/ph_moment_fit.hpp"
#include "fit/regime_map_em.hpp"
#include "fit/regime_map_fit.hpp"
#include "fit/sample_statistics.hpp"
#include "fit/timestamp_log.hpp"
#include "model/input_error.hpp"
#include "tests/fuzz/refusal_check.hpp"

namespace {

constexpr const char* kLabel = "fuzz.log";

void require_finite(double value, const char* what) {
  if (!std::isfinite(value)) {
    std::fprintf(stderr, "%s is %g\n", what, value);
    std::abort();
  }
}

void fit_log(const std::vector<double>& times, int lags, bool em) {
  const double batch_gap = crawlq::fit::default_batch_gap(times);
  const double censor_gap = crawlq::fit::default_censor_gap(times, batch_gap);
  const crawlq::fit::BatchedLog log = crawlq::fit::split_batches(times, batch_gap, censor_gap);
  // The batches a replay takes (simulate --arrivals-log): every gap > 0 and every batch a page or
  // more, else the log is refused.
  try {
    const crawlq::model::ArrivalTrace trace =
        crawlq::fit::batch_trace(times, batch_gap, censor_gap, kLabel);
    for (std::size_t i = 0; i < trace.gaps.size(); ++i)
      if (!(trace.gaps[i] > 0) || !std::isfinite(trace.gaps[i]) || trace.sizes[i] < 1) {
        std::fprintf(stderr, "replayed batch %zu: gap %g, %d pages\n", i, trace.gaps[i],
                     trace.sizes[i]);
        std::abort();
      }
  } catch (const crawlq::model::InputError&) {
  }
  const crawlq::fit::SampleStatistics sample = crawlq::fit::sample_statistics(log.intervals, lags);
  if (sample.size < 2) return;  // refused by the request, naming the log
  crawlq::fit::RegimeMapFit map = crawlq::fit::fit_regime_map(
      sample.mean, sample.variance, sample.lag_correlations, sample.lag_bands);
  if (em) {
    const int shape = static_cast<int>(std::lround(std::clamp(1 / map.regime_scv, 1.0, 50.0)));
    const std::vector<double> means = map.regime_means.size() == 2
                                          ? map.regime_means
                                          : std::vector<double>{sample.mean / 2, sample.mean * 2};
    const crawlq::model::Matrix transitions = crawlq::model::Matrix::Constant(2, 2, 0.5);
    const crawlq::fit::RegimeMapEm fitted =
        crawlq::fit::fit_regime_map_em(log.intervals, shape, means, transitions, 20);
    map.d0 = fitted.d0;
    map.d1 = fitted.d1;
  }
  const crawlq::fit::MapStatistics fitted = crawlq::fit::map_statistics(map.d0, map.d1, lags);
  require_finite(fitted.mean, "the fitted MAP's mean");
  require_finite(fitted.scv, "the fitted MAP's scv");
  (void)crawlq::fit::map_log_likelihood(map.d0, map.d1, log.intervals);
  for (const double q : crawlq::fit::map_interval_quantiles(map.d0, map.d1, {0.01, 0.5, 0.99}))
    require_finite(q, "a quantile of the fitted MAP");
}

void fit_sample(const std::vector<double>& sample, bool em) {
  if (*std::min_element(sample.begin(), sample.end()) ==
      *std::max_element(sample.begin(), sample.end()))
    return;  // refused by the request: a constant time
  const std::vector<double> m = crawlq::fit::sample_moments(sample, 3);
  crawlq::fit::PhaseTypeFit ph;
  if (em) {
    const crawlq::fit::EmFit fitted = crawlq::fit::fit_hyperexponential_em(sample, 2, 50);
    ph.beta = fitted.beta;
    ph.s = fitted.s;
  } else {
    ph = crawlq::fit::fit_three_moments(m[0], m[1], m[2]);
  }
  for (const double moment : crawlq::fit::phase_type_moments(ph.beta, ph.s, 3))
    require_finite(moment, "a fitted moment");
  (void)crawlq::fit::phase_type_log_likelihood(ph.beta, ph.s, sample);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t choice = data[0];
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string column = choice & 1 ? "time" : "";
  const bool em = choice & 2;
  std::vector<double> values;
  try {
    values = crawlq::fit::parse_timestamps(text, kLabel, column);
  } catch (const crawlq::model::InputError& e) {
    crawlq::fuzz::check_refusal(e, {kLabel});
  }
  try {
    if (!values.empty()) fit_log(values, 1 + choice % 8, em);
  } catch (const crawlq::model::InputError& e) {
    crawlq::fuzz::check_refusal(e, {});
  }
  values.clear();
  try {
    values = crawlq::fit::parse_sample(text, kLabel, column);
  } catch (const crawlq::model::InputError& e) {
    crawlq::fuzz::check_refusal(e, {kLabel});
  }
  try {
    if (!values.empty()) fit_sample(values, em);
  } catch (const crawlq::model::InputError& e) {
    crawlq::fuzz::check_refusal(e, {});
  }
  return 0;
}
