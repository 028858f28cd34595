#pragma once
// A crawler's own deliveries in place of the arrival law (simulate --arrivals-log): the log's
// batches in order, each the time since the batch before it and its pages, the gaps the fit
// censors (the crawler stopped) taken out with the batch after them. The log is one robot's
// deliveries, as fit arrivals reads it: r active robots replay it r times as fast, as the fitted
// scenario's mode r is r D. The simulator loops it, each replication from its own point, uniform
// over the log's length.
#include <string>
#include <vector>

namespace crawlq::model {

struct ArrivalTrace {
  std::vector<double> gaps;  // [i]: the time from the batch before to batch i, > 0
  std::vector<int> sizes;    // [i]: batch i's pages, >= 1
  std::string source;        // the log, as messages name it
};

}  // namespace crawlq::model
