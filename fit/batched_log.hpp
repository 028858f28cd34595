#pragma once
// A delivery log cut into batches and inter-batch times, as section 7 of the paper prepares its
// data: deliveries closer than `batch_gap` are one batch; a gap between batches longer than
// `censor_gap` is the crawler stopped, so it is left out, and no lag correlation is taken across
// it.
#include <vector>

namespace crawlq::fit {

struct BatchedLog {
  long units = 0;  // timestamps read
  long batches = 0;
  long censored = 0;  // gaps between batches left out
  double batch_gap = 0, censor_gap = 0;
  std::vector<double> size_probabilities;  // [k-1]: the share of batches of k pages
  std::vector<std::vector<double>>
      intervals;  // times between batch starts, in runs between censored gaps
};

// The cut-offs when none is given, from the data: the batch gap at the widest split of the sorted
// gaps between deliveries (the geometric middle of two neighbours 100 times or more apart, the
// widest 1% of gaps aside; 0 when there is none, so that only equal timestamps are one batch), and
// a censor gap of 50 times the mean time between batches.
double default_batch_gap(const std::vector<double>& times);
double default_censor_gap(const std::vector<double>& times, double batch_gap);

// `times` in order (timestamp_log.hpp); gaps >= 0.
BatchedLog split_batches(const std::vector<double>& times, double batch_gap, double censor_gap);

}  // namespace crawlq::fit
