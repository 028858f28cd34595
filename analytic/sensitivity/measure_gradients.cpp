#include "analytic/sensitivity/measure_gradients.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>

#include "analytic/stationary/kronecker_terms.hpp"
#include "model/admission.hpp"

namespace crawlq::analytic {

namespace {

// The per-state weights of the sums compute_measures adds up: sum = weights . p.
struct SumWeights {
  Eigen::VectorXd offered, lost, served, expired, robots, empty, in_system, in_queue;
};

SumWeights sum_weights(const model::Model& model, const ControlledArrivals& arrivals,
                       const StateSpace& space) {
  const Eigen::Index n = space.size(), w = space.arrival_phases();
  SumWeights s{.offered = Eigen::VectorXd::Zero(n),
               .lost = Eigen::VectorXd::Zero(n),
               .served = Eigen::VectorXd::Zero(n),
               .expired = Eigen::VectorXd::Zero(n),
               .robots = Eigen::VectorXd::Zero(n),
               .empty = Eigen::VectorXd::Zero(n),
               .in_system = Eigen::VectorXd::Zero(n),
               .in_queue = Eigen::VectorXd::Zero(n)};
  const KroneckerTerms terms(model.service, model.obsolescence ? &*model.obsolescence : nullptr);
  const Eigen::VectorXd s0 = Eigen::VectorXd(terms.s0());
  for (int level = 0; level <= model.capacity; ++level) {
    const Eigen::Index offset = space.level_offset(level), size = space.level_size(level);
    const Eigen::Index rest = size / w;
    s.in_system.segment(offset, size).setConstant(level);
    s.in_queue.segment(offset, size).setConstant(std::max(level - 1, 0));
    if (level == 0) s.empty.segment(offset, size).setOnes();
    const ArrivalRows& rows = arrivals.at_level(level);
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(rows.phases());
    Eigen::VectorXd offered = Eigen::VectorXd::Zero(w), lost = Eigen::VectorXd::Zero(w);
    for (int k = 1; k <= rows.max_batch(); ++k) {
      const Eigen::VectorXd batch_rate = rows.d_k(k) * ones;
      offered += k * batch_rate;
      lost += (k - model::accepted_pages(model.admission, level, model.capacity, k)) * batch_rate;
    }
    // Each rest (server, clocks) of a level >= 1: completions at the server's exit rate, expiries
    // at the waiting clocks' total rate.
    Eigen::VectorXd served = Eigen::VectorXd::Zero(rest), expired = Eigen::VectorXd::Zero(rest);
    if (level > 0) {
      const Eigen::Index clocks = rest / s0.size();
      const Eigen::VectorXd expiry =
          level > 1 ? terms.total_expiry_rate(level - 1) : Eigen::VectorXd::Zero(clocks);
      for (Eigen::Index c = 0; c < rest; ++c) {
        served(c) = s0(c / clocks);
        expired(c) = expiry(c % clocks);
      }
    }
    for (Eigen::Index a = 0; a < w; ++a) {
      const auto segment = [&](Eigen::VectorXd& v) { return v.segment(offset + a * rest, rest); };
      segment(s.offered).setConstant(offered(a));
      segment(s.lost).setConstant(lost(a));
      segment(s.robots).setConstant(arrivals.robots(level, static_cast<int>(a)));
      segment(s.served) = served;
      segment(s.expired) = expired;
    }
  }
  return s;
}

}  // namespace

std::vector<double> cost_partials(const model::Costs& costs, const Measures& at) {
  const double cost = model::cost_criterion(costs, at);
  std::vector<double> partials;
  for (const auto& measure : model::scalar_measures<double>()) {
    Measures stepped = at;
    stepped.*measure.field += 1;
    partials.push_back(
        measure.field == &Measures::cost ? 0.0 : model::cost_criterion(costs, stepped) - cost);
  }
  return partials;
}

std::vector<Eigen::VectorXd> measure_gradients(const model::Model& model,
                                               const ControlledArrivals& arrivals,
                                               const StateSpace& space,
                                               const TaggedPageChain& chain,
                                               const Eigen::VectorXd& p, const Measures& at) {
  const SumWeights s = sum_weights(model, arrivals, space);
  // A ratio of sums over the pages offered: (top - ratio x offered) / offered.
  const auto per_page = [&](const Eigen::VectorXd& top, double ratio) -> Eigen::VectorXd {
    return (top - ratio * s.offered) / at.lambda;
  };
  // A sojourn mean is the ratio of the arriving page's first two moment sums (the arrival weights'
  // normalisation cancels): (first - mean x zeroth) / (zeroth . p).
  const auto sojourn = [&](PageFate fate, double mean) -> Eigen::VectorXd {
    const Eigen::VectorXd zeroth =
        chain.arrival_gradient(model, arrivals, space, chain.moment_vector(fate, 0));
    const double reached = zeroth.dot(p);
    if (reached <= 0) return Eigen::VectorXd::Zero(p.size());  // mean() is 0 for a fate never met
    const Eigen::VectorXd first =
        chain.arrival_gradient(model, arrivals, space, chain.moment_vector(fate, 1));
    return (first - mean * zeroth) / reached;
  };
  std::vector<Eigen::VectorXd> gradients;
  for (const auto& measure : model::scalar_measures<double>()) {
    const std::string_view key = measure.name.key;
    if (key == "lambda")
      gradients.push_back(s.offered);
    else if (key == "p_loss")
      gradients.push_back(per_page(s.lost, at.p_loss));
    else if (key == "p_obsolete")
      gradients.push_back(per_page(s.expired, at.p_obsolete));
    else if (key == "p_served")
      gradients.push_back(per_page(s.served, at.p_served));
    else if (key == "p_starvation")
      gradients.push_back(s.empty);
    else if (key == "mean_active_robots")
      gradients.push_back(s.robots);
    else if (key == "mean_in_system")
      gradients.push_back(s.in_system);
    else if (key == "mean_in_queue")
      gradients.push_back(s.in_queue);
    else if (key == "mean_sojourn")
      gradients.push_back(sojourn(PageFate::kAccepted, at.mean_sojourn));
    else if (key == "mean_sojourn_served")
      gradients.push_back(sojourn(PageFate::kServed, at.mean_sojourn_served));
    else if (key == "mean_sojourn_obsolete")
      gradients.push_back(sojourn(PageFate::kObsolete, at.mean_sojourn_obsolete));
    else if (key == "cost")
      gradients.emplace_back();  // the others' by cost_partials
    else
      throw std::logic_error("measure_gradients: no gradient for " + std::string(key));
  }
  return gradients;
}

}  // namespace crawlq::analytic
