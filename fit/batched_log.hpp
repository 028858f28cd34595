#pragma once
// A delivery log cut into batches and inter-batch times, as section 7 of the paper prepares its
// data: deliveries closer than `batch_gap` are one batch; a gap between batches longer than
// `censor_gap` is the crawler stopped, so it is left out, and no lag correlation is taken across
// it.
#include <string>
#include <vector>

#include "model/arrival_trace.hpp"

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

// How the default batch gap was found.
struct BatchGapChoice {
  enum class Rule {
    kSplit,    // two neighbours of the sorted gaps 100 times or more apart
    kCluster,  // the gaps inside batches, a tight cluster far below the rest
    kNone,     // neither: 0, so that only equal timestamps are one batch
  };
  double gap = 0;
  Rule rule = Rule::kNone;
  double cluster_median = 0;  // kCluster: the cluster's median gap
  double cluster_share = 0;   // kCluster: its share of the gaps between deliveries
};

// The cut-offs when none is given, from the data. The batch gap: at the widest split of the sorted
// gaps between deliveries (the geometric middle of two neighbours 100 times or more apart, the
// widest 1% of gaps aside). Failing that, concurrent robots' deliveries a millisecond apart still
// stand out on a logarithmic scale: the two classes of the log gaps that explain most of their
// variance (Otsu's split), taken when the lower holds 5% of the gaps or more, has a robust spread
// (1.4826 times the median absolute deviation of the log gaps) of 0.3 or less, where an
// exponential's gaps have 1.28 whatever the rate, and sits 20 times or more below the upper's
// median; the gap is then the cluster's median times the larger of 2 and exp(4 spread). Else 0.
// The censor gap: 50 times the mean time between batches, or further where the log's own tail
// reaches further (fewer than 100 times between batches: 50 means), the 99th percentile of the
// times between batches plus ln(n) times (q99 - q90) / ln 10: an exponential tail of that spacing
// passes it once in a hundred logs of n times.
BatchGapChoice choose_batch_gap(const std::vector<double>& times);
double default_batch_gap(const std::vector<double>& times);
double default_censor_gap(const std::vector<double>& times, double batch_gap);

// `times` in order (timestamp_log.hpp); gaps >= 0.
BatchedLog split_batches(const std::vector<double>& times, double batch_gap, double censor_gap);

// The batches as a replay takes them: each with the time since the one before, the first and
// those after a censored gap left out. InputError when none is left.
model::ArrivalTrace batch_trace(const std::vector<double>& times, double batch_gap,
                                double censor_gap, const std::string& source);

}  // namespace crawlq::fit
