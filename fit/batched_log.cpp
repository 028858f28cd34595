#include "fit/batched_log.hpp"

#include <algorithm>
#include <cmath>

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

}  // namespace

double default_batch_gap(const std::vector<double>& times) {
  std::vector<double> gaps;
  gaps.reserve(times.size());
  for (std::size_t i = 1; i < times.size(); ++i)
    if (times[i] > times[i - 1]) gaps.push_back(times[i] - times[i - 1]);
  if (gaps.empty()) return 0;  // every time equal
  std::sort(gaps.begin(), gaps.end());
  // The widest split of the sorted gaps, by ratio: deliveries of one batch come far closer together
  // than batches do. Only a split of 100 times or more is taken for one; else equal times alone
  // join. The widest 1% are left out of the search: there the crawler stopped, which is censoring's
  // business.
  double best_ratio = kClearSplit, gap = 0;
  const std::size_t searched = gaps.size() - std::max<std::size_t>(1, gaps.size() / 100);
  for (std::size_t i = 1; i < searched; ++i)
    if (gaps[i] / gaps[i - 1] >= best_ratio) {
      best_ratio = gaps[i] / gaps[i - 1];
      gap = std::sqrt(gaps[i] * gaps[i - 1]);
    }
  return gap;
}

double default_censor_gap(const std::vector<double>& times, double batch_gap) {
  std::vector<double> starts;
  std::vector<long> sizes;
  batch_starts(times, batch_gap, starts, sizes);
  if (starts.size() < 2) return 0;
  return 50 * (starts.back() - starts.front()) / static_cast<double>(starts.size() - 1);
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

}  // namespace crawlq::fit
