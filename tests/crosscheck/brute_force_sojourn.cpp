#include "tests/crosscheck/brute_force_sojourn.hpp"

#include <algorithm>
#include <unsupported/Eigen/MatrixFunctions>

namespace crawlq::crosscheck {

BruteForceSojourn::BruteForceSojourn(const model::Model& model, const BruteForceChain& chain,
                                     const Eigen::VectorXd* occupancy)
    : laws_(model) {
  enumerate_states(model.capacity);
  build_subgenerator();
  build_start(model, chain, occupancy ? *occupancy : chain.probabilities());
  fundamental_ = (-t_).fullPivLu().inverse();
}

void BruteForceSojourn::enumerate_states(int capacity) {
  const int m = laws_.service_phases();
  const Eigen::RowVectorXd any_clock = Eigen::RowVectorXd::Ones(laws_.clock_phases());
  for (int phase = 0; phase < m; ++phase) states_.push_back(TaggedState{false, phase, {}, 0});
  // At most K-1 pages wait, the tagged one included.
  for (int ahead = 0; ahead <= capacity - 2; ++ahead)
    for (int phase = 0; phase < m; ++phase)
      for (const auto& draw : phase_draws(any_clock, ahead + 1)) {
        std::vector<int> clocks = draw.first;
        const int own = clocks.back();
        clocks.pop_back();
        states_.push_back(TaggedState{true, phase, std::move(clocks), own});
      }
  for (std::size_t i = 0; i < states_.size(); ++i)
    index_.emplace(states_[i], static_cast<Eigen::Index>(i));
}

void BruteForceSojourn::add_rate(Eigen::Index from, const TaggedState& to, double rate) {
  const Eigen::Index target = index_.at(to);
  if (target != from) t_(from, target) += rate;
}

void BruteForceSojourn::build_subgenerator() {
  const Eigen::Index n = size();
  t_ = Eigen::MatrixXd::Zero(n, n);
  served_exit_ = Eigen::VectorXd::Zero(n);
  obsolete_exit_ = Eigen::VectorXd::Zero(n);
  const int phases = laws_.service_phases();
  for (Eigen::Index from = 0; from < n; ++from) {
    const TaggedState state = states_[from];
    const int m = state.service_phase;
    for (int next = 0; next < phases; ++next) {
      if (next == m || laws_.s(m, next) <= 0) continue;
      TaggedState to = state;
      to.service_phase = next;
      add_rate(from, to, laws_.s(m, next));
    }
    const double completion = laws_.service_exit(m);
    if (!state.waiting) {
      served_exit_(from) = completion;
    } else if (completion > 0) {
      // The head of the queue, or the tagged page itself, enters service with phase ~ beta.
      for (int next = 0; next < phases; ++next) {
        if (laws_.beta(next) <= 0) continue;
        TaggedState to = state;
        to.service_phase = next;
        if (to.ahead.empty()) {
          to.waiting = false;
          to.own_clock = 0;
        } else {
          to.ahead.erase(to.ahead.begin());
        }
        add_rate(from, to, completion * laws_.beta(next));
      }
    }
    if (!state.waiting) continue;
    for (std::size_t page = 0; page < state.ahead.size(); ++page) {
      const int r = state.ahead[page];
      for (int next = 0; next < laws_.clock_phases(); ++next) {
        if (next == r || laws_.clock(r, next) <= 0) continue;
        TaggedState to = state;
        to.ahead[page] = next;
        add_rate(from, to, laws_.clock(r, next));
      }
      if (laws_.clock_exit(r) > 0) {
        TaggedState to = state;
        to.ahead.erase(to.ahead.begin() + static_cast<std::ptrdiff_t>(page));
        add_rate(from, to, laws_.clock_exit(r));
      }
    }
    const int own = state.own_clock;
    for (int next = 0; next < laws_.clock_phases(); ++next) {
      if (next == own || laws_.clock(own, next) <= 0) continue;
      TaggedState to = state;
      to.own_clock = next;
      add_rate(from, to, laws_.clock(own, next));
    }
    obsolete_exit_(from) = laws_.clock_exit(own);
  }
  // Diagonal: minus every rate out, absorption included.
  for (Eigen::Index from = 0; from < n; ++from)
    t_(from, from) = -(t_.row(from).sum() + served_exit_(from) + obsolete_exit_(from));
}

void BruteForceSojourn::build_start(const model::Model& model, const BruteForceChain& chain,
                                    const Eigen::VectorXd& occupancy) {
  start_ = Eigen::RowVectorXd::Zero(size());
  const double lambda = chain.measures_of(occupancy).lambda;
  for (Eigen::Index s = 0; s < chain.size(); ++s) {
    const ChainState& state = chain.states()[s];
    const double p = occupancy(s);
    const model::Bmap& bmap = model.arrivals.mode(state.robots);
    const int free_places = model.capacity - state.level;
    for (int k = 1; k <= bmap.max_batch(); ++k) {
      const double batch_rate = bmap.d(k).row(state.arrival_phase).sum();
      if (batch_rate <= 0) continue;
      // Arrival-Palm: a page is in a batch of k with weight p k D_k e / lambda, each of the k
      // positions with probability 1/k.
      const double weight = p * batch_rate / lambda;
      if (model.admission == model::Admission::kRejectBatch && k > free_places) continue;
      for (int position = 1; position <= std::min(k, free_places); ++position)
        add_start(state, position, weight);
    }
  }
}

void BruteForceSojourn::add_start(const ChainState& state, int position, double weight) {
  if (state.level == 0) {
    // The first page of the batch is served at once; the others queue behind it in batch order.
    for (const auto& [service, service_probability] : phase_draws(laws_.beta, 1)) {
      if (position == 1) {
        start_(index_.at(TaggedState{false, service.front(), {}, 0})) +=
            weight * service_probability;
        continue;
      }
      for (const auto& [clocks, clock_probability] : phase_draws(laws_.gamma, position - 1)) {
        std::vector<int> ahead(clocks.begin(), clocks.end() - 1);
        start_(index_.at(TaggedState{true, service.front(), ahead, clocks.back()})) +=
            weight * service_probability * clock_probability;
      }
    }
    return;
  }
  // Behind the pages already waiting and the batch pages before it, each with a fresh clock.
  for (const auto& [clocks, clock_probability] : phase_draws(laws_.gamma, position)) {
    std::vector<int> ahead = state.clocks;
    ahead.insert(ahead.end(), clocks.begin(), clocks.end() - 1);
    start_(index_.at(TaggedState{true, state.service_phase, ahead, clocks.back()})) +=
        weight * clock_probability;
  }
}

Eigen::VectorXd BruteForceSojourn::exit(Fate fate) const {
  switch (fate) {
    case Fate::kServed:
      return served_exit_;
    case Fate::kObsolete:
      return obsolete_exit_;
    case Fate::kAccepted:
      break;
  }
  return served_exit_ + obsolete_exit_;
}

double BruteForceSojourn::probability(Fate fate) const {
  return start_.dot(fundamental_ * exit(fate));
}

double BruteForceSojourn::mean(Fate fate) const {
  const double probability_of_fate = probability(fate);
  if (probability_of_fate <= 0) return 0.0;
  // E[tau; fate] = alpha (-T)^{-2} t_fate.
  return start_.dot(fundamental_ * (fundamental_ * exit(fate))) / probability_of_fate;
}

double BruteForceSojourn::cdf(Fate fate, double x) const {
  const double probability_of_fate = probability(fate);
  if (probability_of_fate <= 0) return 0.0;
  // P(tau <= x; fate) = alpha (I - e^{T x}) (-T)^{-1} t_fate.
  const Eigen::MatrixXd survival = (t_ * x).exp();
  const Eigen::VectorXd absorbed = fundamental_ * exit(fate);
  const double joint = start_.dot(absorbed) - start_.dot(survival * absorbed);
  return joint / probability_of_fate;
}

double BruteForceSojourn::standard_deviation(Fate fate) const {
  const double probability_of_fate = probability(fate);
  if (probability_of_fate <= 0) return 0.0;
  const Eigen::VectorXd first = fundamental_ * (fundamental_ * exit(fate));
  const double second = 2 * start_.dot(fundamental_ * first) / probability_of_fate;
  const double m = start_.dot(first) / probability_of_fate;
  return std::sqrt(std::max(second - m * m, 0.0));
}

double BruteForceSojourn::transform(Fate fate, double u) const {
  const double probability_of_fate = probability(fate);
  if (probability_of_fate <= 0) return 1.0;
  const Eigen::MatrixXd shifted = u * Eigen::MatrixXd::Identity(size(), size()) - t_;
  return start_.dot(shifted.partialPivLu().solve(exit(fate))) / probability_of_fate;
}

std::map<std::string, double> brute_force_scalar_measures(const model::Model& model,
                                                          const BruteForceChain& chain) {
  const ChainMeasures& m = chain.measures();
  const BruteForceSojourn sojourn(model, chain);
  const double served = sojourn.mean(Fate::kServed);
  return {{"mean_sojourn", sojourn.mean(Fate::kAccepted)},
          {"mean_sojourn_served", served},
          {"mean_sojourn_obsolete", sojourn.mean(Fate::kObsolete)},
          {"cost", brute_force_cost(model.costs, m, served)},
          {"lambda", m.lambda},
          {"p_loss", m.p_loss},
          {"p_obsolete", m.p_obsolete},
          {"p_served", m.p_served},
          {"p_starvation", m.p_starvation},
          {"mean_active_robots", m.mean_active_robots},
          {"mean_in_system", m.mean_in_system},
          {"mean_in_queue", m.mean_in_queue}};
}

}  // namespace crawlq::crosscheck
