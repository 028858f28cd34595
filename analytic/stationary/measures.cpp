#include "analytic/stationary/measures.hpp"

#include "analytic/stationary/kronecker_terms.hpp"
#include "model/admission.hpp"

namespace crawlq::analytic {

namespace {
using RowMajorMap =
    Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

// p_i as a matrix: one row per arrival phase, one column per (service phase, clocks).
RowMajorMap level_view(const StateSpace& space, const Eigen::VectorXd& p, int level) {
  const Eigen::Index w = space.arrival_phases();
  return RowMajorMap(p.data() + space.level_offset(level), w, space.level_size(level) / w);
}
}  // namespace

Measures compute_measures(const model::Model& model, const ControlledArrivals& arrivals,
                          const StateSpace& space, const Eigen::VectorXd& p) {
  const int capacity = model.capacity;
  const KroneckerTerms terms(model.service, model.obsolescence ? &*model.obsolescence : nullptr);
  Measures m;
  m.level_probabilities.assign(capacity + 1, 0.0);
  m.mode_probabilities.assign(model.modes(), 0.0);
  double offered = 0, lost = 0, expired = 0, served = 0;
  for (int level = 0; level <= capacity; ++level) {
    const RowMajorMap view = level_view(space, p, level);
    const double probability = view.sum();
    const Eigen::RowVectorXd by_arrival_phase = view.rowwise().sum().transpose();
    m.level_probabilities[level] = probability;
    if (const auto robots = arrivals.robots_at_level(level)) {
      m.mode_probabilities[*robots - 1] += probability;
      m.mean_active_robots += *robots * probability;
    } else {
      for (Eigen::Index phase = 0; phase < by_arrival_phase.size(); ++phase) {
        const int robots = arrivals.robots(level, static_cast<int>(phase));
        m.mode_probabilities[robots - 1] += by_arrival_phase(phase);
        m.mean_active_robots += robots * by_arrival_phase(phase);
      }
    }
    m.mean_in_system += level * probability;
    m.mean_in_queue += std::max(level - 1, 0) * probability;

    // (9) and the loss rate: batches of the modes in force, by the arrival phase they leave.
    const ArrivalRows& rows = arrivals.at_level(level);
    for (int k = 1; k <= rows.max_batch(); ++k) {
      const double batch_rate =
          by_arrival_phase * rows.d_k(k) * Eigen::VectorXd::Ones(rows.phases());
      offered += k * batch_rate;
      lost += (k - model::accepted_pages(model.admission, level, capacity, k)) * batch_rate;
    }
    if (level == 0) continue;
    // (15) and (14): completions of the server, expiries of the waiting pages' clocks.
    const Eigen::RowVectorXd by_rest = view.colwise().sum();
    const int waiting = level - 1;
    const Eigen::VectorXd s0 = Eigen::VectorXd(terms.s0());
    // by_rest as (service phase) x (clocks): completions weigh each row by S_0, expiries each
    // column by the clocks' total rate.
    const Eigen::Index clocks = by_rest.size() / s0.size();
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>
        by_server(by_rest.data(), s0.size(), clocks);
    served += (by_server.rowwise().sum()).dot(s0);
    if (waiting > 0)
      expired += (by_server.colwise().sum()).dot(terms.total_expiry_rate(waiting).transpose());
  }
  m.lambda = offered;
  m.p_loss = lost / offered;
  m.p_obsolete = expired / offered;
  m.p_served = served / offered;
  m.p_starvation = m.level_probabilities[0];
  return m;
}

}  // namespace crawlq::analytic
