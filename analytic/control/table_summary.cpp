#include "analytic/control/table_summary.hpp"

#include <algorithm>

namespace crawlq::analytic {

bool TableSummary::phase_aware() const {
  for (const auto& row : share)
    for (const double s : row)
      if (s < 1) return false;
  return true;
}

TableSummary summarize_table(const StateSpace& space, const std::vector<int>& robots, int modes,
                             const Eigen::VectorXd* probabilities) {
  TableSummary summary;
  const Eigen::Index w = space.arrival_phases();
  for (int level = 0; level <= space.capacity(); ++level) {
    const Eigen::Index per_phase = space.level_size(level) / w;
    std::vector<int> row;
    std::vector<double> shares;
    for (Eigen::Index nu = 0; nu < w; ++nu) {
      const Eigen::Index first = space.level_offset(level) + nu * per_phase;
      std::vector<double> weight(static_cast<std::size_t>(modes), 0.0);
      // States the chain never visits still say what the table does: fall back to counting them.
      double total = 0;
      if (probabilities)
        for (Eigen::Index x = first; x < first + per_phase; ++x) total += (*probabilities)(x);
      const bool by_probability = probabilities && total > 0;
      for (Eigen::Index x = first; x < first + per_phase; ++x)
        weight[static_cast<std::size_t>(robots[static_cast<std::size_t>(x)] - 1)] +=
            by_probability ? (*probabilities)(x) : 1.0;
      const auto most = std::max_element(weight.begin(), weight.end());
      row.push_back(static_cast<int>(most - weight.begin()) + 1);
      shares.push_back(*most / (by_probability ? total : static_cast<double>(per_phase)));
    }
    summary.robots.push_back(std::move(row));
    summary.share.push_back(std::move(shares));
  }
  return summary;
}

}  // namespace crawlq::analytic
