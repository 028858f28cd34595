#include "fit/batched_log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "model/input_error.hpp"

namespace crawlq::fit {

namespace {

// How much wider the gaps between batches must be than those inside them for a default batch gap.
constexpr double kClearSplit = 100;

// Batch start times and sizes: a delivery within `batch_gap` of the one before joins its batch.
void batch_starts(const std::vector<double>& times, double batch_gap, std::vector<double>& starts,
                  std::vector<long>& sizes) {
  for (std::size_t i = 0; i < times.size(); ++i) {
    // Equal times are one batch whatever the gap: a time of 0 between batches is no MAP's.
    if (i > 0 && (times[i] - times[i - 1] < batch_gap || times[i] == times[i - 1])) {
      ++sizes.back();
    } else {
      starts.push_back(times[i]);
      sizes.push_back(1);
    }
  }
}

// The gaps inside batches as a tight cluster at the bottom of the sorted gaps' first `searched`
// (batched_log.hpp says when one counts).
std::optional<BatchGapChoice> tight_cluster(const std::vector<double>& gaps, std::size_t searched) {
  if (searched < 20) return std::nullopt;
  std::vector<double> logs(searched);
  for (std::size_t i = 0; i < searched; ++i) logs[i] = std::log(gaps[i]);
  // Otsu: the split into [0, i) and [i, searched) of the largest between-class variance, w0 w1
  // (mu0 - mu1)^2, from prefix sums.
  const double total = std::accumulate(logs.begin(), logs.end(), 0.0);
  double below = 0, best = -1;
  std::size_t split = 0;
  const double n = static_cast<double>(searched);
  for (std::size_t i = 1; i < searched; ++i) {
    below += logs[i - 1];
    const double w0 = i / n, w1 = 1 - w0;
    const double mu0 = below / i, mu1 = (total - below) / (n - i);
    const double between = w0 * w1 * (mu0 - mu1) * (mu0 - mu1);
    if (between > best) {
      best = between;
      split = i;
    }
  }
  if (split < 1 || split < 0.05 * n) return std::nullopt;
  const auto median_of = [](std::vector<double> values) {
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    return values[values.size() / 2];
  };
  const std::vector<double> lower(logs.begin(), logs.begin() + split);
  const double centre = median_of(lower);
  std::vector<double> deviations(lower.size());
  for (std::size_t i = 0; i < lower.size(); ++i) deviations[i] = std::abs(lower[i] - centre);
  const double spread = 1.4826 * median_of(deviations);
  const double upper_centre = median_of({logs.begin() + split, logs.end()});
  if (!(spread <= 0.3) || upper_centre - centre < std::log(20.0)) return std::nullopt;
  BatchGapChoice choice;
  choice.rule = BatchGapChoice::Rule::kCluster;
  choice.cluster_median = std::exp(centre);
  choice.cluster_share = split / n;
  choice.gap = std::min(std::exp(centre) * std::max(2.0, std::exp(4 * spread)),
                        std::sqrt(gaps[split - 1] * gaps[split]));
  return choice;
}

}  // namespace

BatchGapChoice choose_batch_gap(const std::vector<double>& times) {
  BatchGapChoice choice;
  std::vector<double> gaps;
  gaps.reserve(times.size());
  for (std::size_t i = 1; i < times.size(); ++i)
    if (times[i] > times[i - 1]) gaps.push_back(times[i] - times[i - 1]);
  if (gaps.empty()) return choice;  // every time equal
  std::sort(gaps.begin(), gaps.end());
  // The widest split of the sorted gaps, by ratio: deliveries of one batch come far closer together
  // than batches do. Only a split of 100 times or more is taken for one. The widest 1% are left out
  // of the search: there the crawler stopped, which is censoring's business.
  double best_ratio = kClearSplit;
  const std::size_t searched = gaps.size() - std::max<std::size_t>(1, gaps.size() / 100);
  for (std::size_t i = 1; i < searched; ++i)
    if (gaps[i] / gaps[i - 1] >= best_ratio) {
      best_ratio = gaps[i] / gaps[i - 1];
      choice.gap = std::sqrt(gaps[i] * gaps[i - 1]);
      choice.rule = BatchGapChoice::Rule::kSplit;
    }
  if (choice.rule == BatchGapChoice::Rule::kSplit) return choice;
  if (const auto cluster = tight_cluster(gaps, searched)) choice = *cluster;
  return choice;
}

double default_batch_gap(const std::vector<double>& times) { return choose_batch_gap(times).gap; }

double default_censor_gap(const std::vector<double>& times, double batch_gap) {
  std::vector<double> starts;
  std::vector<long> sizes;
  batch_starts(times, batch_gap, starts, sizes);
  if (starts.size() < 2) return 0;
  const double n = static_cast<double>(starts.size() - 1);
  const double fifty_means = 50 * (starts.back() - starts.front()) / n;
  if (starts.size() < 101) return fifty_means;
  // A bursty log's own tail reaches past 50 means (scv 9: 0.03% of its gaps, a tenth of its
  // variance). Its tail as an exponential one of the spacing of the 90th and 99th percentiles,
  // which a few stops do not move: a gap past the 99th percentile plus ln(n) of those spacings is
  // one in a hundred logs of n gaps, the stops' business.
  std::vector<double> between(starts.size() - 1);
  for (std::size_t i = 1; i < starts.size(); ++i) between[i - 1] = starts[i] - starts[i - 1];
  std::sort(between.begin(), between.end());
  const double q90 = between[static_cast<std::size_t>(0.90 * n)];
  const double q99 = between[static_cast<std::size_t>(0.99 * n)];
  const double spacing = (q99 - q90) / std::log(10.0);
  return std::max(fifty_means, q99 + spacing * std::log(n));
}

BatchedLog split_batches(const std::vector<double>& times, double batch_gap, double censor_gap) {
  BatchedLog log;
  log.units = static_cast<long>(times.size());
  log.batch_gap = batch_gap;
  log.censor_gap = censor_gap;
  std::vector<double> starts;
  std::vector<long> sizes;
  batch_starts(times, batch_gap, starts, sizes);
  log.batches = static_cast<long>(starts.size());
  const long largest = *std::max_element(sizes.begin(), sizes.end());
  log.size_probabilities.assign(static_cast<std::size_t>(largest), 0.0);
  for (const long size : sizes)
    log.size_probabilities[static_cast<std::size_t>(size - 1)] +=
        1.0 / static_cast<double>(sizes.size());
  log.intervals.emplace_back();
  for (std::size_t i = 1; i < starts.size(); ++i) {
    const double gap = starts[i] - starts[i - 1];
    if (censor_gap > 0 && gap > censor_gap) {
      ++log.censored;
      if (!log.intervals.back().empty()) log.intervals.emplace_back();
      continue;
    }
    log.intervals.back().push_back(gap);
  }
  if (log.intervals.back().empty()) log.intervals.pop_back();
  return log;
}

model::ArrivalTrace batch_trace(const std::vector<double>& times, double batch_gap,
                                double censor_gap, const std::string& source) {
  std::vector<double> starts;
  std::vector<long> sizes;
  batch_starts(times, batch_gap, starts, sizes);
  model::ArrivalTrace trace;
  trace.source = source;
  for (std::size_t i = 1; i < starts.size(); ++i) {
    const double gap = starts[i] - starts[i - 1];
    if (censor_gap > 0 && gap > censor_gap) continue;
    trace.gaps.push_back(gap);
    trace.sizes.push_back(static_cast<int>(std::min<long>(sizes[i], 1'000'000'000)));
  }
  if (trace.gaps.empty())
    throw model::InputError(
        fmt::format("{}: {} deliveries in {} batch{} leave no time between two batches to replay",
                    source, times.size(), starts.size(), starts.size() == 1 ? "" : "es"));
  return trace;
}

}  // namespace crawlq::fit
