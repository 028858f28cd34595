#include "tests/crosscheck/brute_force_chain.hpp"

#include <algorithm>
#include <stdexcept>

namespace crawlq::crosscheck {

PageLaws::PageLaws(const model::Model& model)
    : beta(model.service.initial()), s(model.service.subgenerator()) {
  service_exit = -(s.rowwise().sum());
  if (model.obsolescence) {
    gamma = model.obsolescence->initial();
    clock = model.obsolescence->subgenerator();
    clock_exit = -(clock.rowwise().sum());
  } else {
    // A clock that never moves and never expires: the page waits as long as it must.
    gamma = Eigen::RowVectorXd::Ones(1);
    clock = Eigen::MatrixXd::Zero(1, 1);
    clock_exit = Eigen::VectorXd::Zero(1);
  }
}

std::vector<std::pair<std::vector<int>, double>> phase_draws(const Eigen::RowVectorXd& initial,
                                                             int count) {
  std::vector<std::pair<std::vector<int>, double>> draws{{{}, 1.0}};
  for (int page = 0; page < count; ++page) {
    std::vector<std::pair<std::vector<int>, double>> longer;
    for (const auto& [phases, probability] : draws)
      for (Eigen::Index r = 0; r < initial.size(); ++r) {
        if (initial(r) <= 0) continue;
        std::vector<int> next = phases;
        next.push_back(static_cast<int>(r));
        longer.emplace_back(std::move(next), probability * initial(r));
      }
    draws = std::move(longer);
  }
  return draws;
}

Controller controller_for(const model::ControlPolicy& policy) {
  return std::visit(
      model::Overloaded{
          [](const model::Policy& levels) {
            return Controller{[levels](const ChainState& reached, const ChainState&) {
              return levels.robots(reached.level);
            }};
          },
          [](const model::PhaseAwarePolicy& table) {
            return Controller{[table](const ChainState& reached, const ChainState&) {
              return table.robots[reached.level][reached.arrival_phase];
            }};
          },
          // Its rule after every move, at the same level too.
          [](const model::HysteresisPolicy& h) {
            return Controller{[h](const ChainState& reached, const ChainState& left) {
                                if (left.robots == h.high)
                                  return reached.level >= h.switch_off ? h.low : h.high;
                                if (left.robots == h.low)
                                  return reached.level <= h.switch_on ? h.high : h.low;
                                return reached.level < h.switch_off ? h.high : h.low;
                              },
                              true};
          },
          [](const model::MemoryPolicy& memory) {
            return Controller{[memory](const ChainState& reached, const ChainState& left) {
                                if (reached.level == left.level) return left.robots;
                                return memory.next[reached.level][left.robots - 1];
                              },
                              true};
          },
          [](const model::TablePolicy& table) {
            return Controller{nullptr, false, table.robots};
          }},
      policy);
}

BruteForceChain::BruteForceChain(const model::Model& model, const model::ControlPolicy& policy,
                                 bool stationary)
    : model_(model), controller_(controller_for(policy)), laws_(model) {
  enumerate_states();
  const Eigen::Index n = size();
  q_ = Eigen::MatrixXd::Zero(n, n);
  flows_.resize(static_cast<std::size_t>(n));
  for (Eigen::Index from = 0; from < n; ++from) {
    const ChainState state = states_[from];
    add_arrivals(from, state, flows_);
    add_service(from, state, flows_);
    add_clocks(from, state, flows_);
  }
  // The diagonal last, from the off-diagonal rates actually entered.
  for (Eigen::Index from = 0; from < n; ++from) q_(from, from) = -q_.row(from).sum();
  if (!stationary) return;
  solve();
  measures_ = measures_of(p_);
}

void BruteForceChain::enumerate_states() {
  const int w = model_.arrivals.phases();
  const int m = laws_.service_phases();
  for (int level = 0; level <= model_.capacity; ++level) {
    const int waiting = std::max(level - 1, 0);
    // All clock vectors of the waiting pages, as an odometer over clock phases.
    std::vector<std::vector<int>> clock_vectors;
    for (const auto& draw : phase_draws(Eigen::RowVectorXd::Ones(laws_.clock_phases()), waiting))
      clock_vectors.push_back(draw.first);
    for (int nu = 0; nu < w; ++nu)
      for (int phase = 0; phase < (level == 0 ? 1 : m); ++phase)
        for (const auto& clocks : clock_vectors) {
          ChainState state{level, nu, phase, clocks};
          const std::size_t ordinal = ordinal_.size();
          ordinal_.emplace(state, ordinal);
          // Without memory the robots follow from the rest of the state.
          std::vector<int> robots;
          if (!controller_.table.empty())
            robots.push_back(controller_.table.at(ordinal));
          else if (controller_.remembers)
            for (int r = 1; r <= model_.modes(); ++r) robots.push_back(r);
          else
            robots.push_back(controller_.decide(state, state));
          for (const int r : robots) {
            state.robots = r;
            index_.emplace(state, static_cast<Eigen::Index>(states_.size()));
            states_.push_back(state);
          }
        }
  }
}

void BruteForceChain::add_rate(Eigen::Index from, const ChainState& reached, double rate) {
  ChainState to = reached;
  if (controller_.table.empty()) {
    to.robots = controller_.decide(reached, states_[from]);
  } else {
    ChainState bare = reached;
    bare.robots = 0;
    to.robots = controller_.table.at(ordinal_.at(bare));
  }
  const Eigen::Index target = index(to);
  // A jump onto itself changes nothing in the chain (it still counts in the flows).
  if (target != from) q_(from, target) += rate;
}

void BruteForceChain::add_arrivals(Eigen::Index from, const ChainState& state,
                                   std::vector<Flows>& flows) {
  const model::Bmap& bmap = model_.arrivals.mode(state.robots);
  const int capacity = model_.capacity;
  const int free_places = capacity - state.level;
  const Eigen::MatrixXd d0 = bmap.d(0);
  for (int nu = 0; nu < d0.cols(); ++nu) {
    if (nu == state.arrival_phase || d0(state.arrival_phase, nu) <= 0) continue;
    ChainState to = state;
    to.arrival_phase = nu;
    add_rate(from, to, d0(state.arrival_phase, nu));
  }
  for (int k = 1; k <= bmap.max_batch(); ++k) {
    const Eigen::MatrixXd dk = bmap.d(k);
    for (int nu = 0; nu < dk.cols(); ++nu) {
      const double rate = dk(state.arrival_phase, nu);
      if (rate <= 0) continue;
      int accepted = std::min(k, free_places);
      if (model_.admission == model::Admission::kRejectBatch && k > free_places) accepted = 0;
      flows[from].offered += rate * k;
      flows[from].lost += rate * (k - accepted);

      ChainState to = state;
      to.arrival_phase = nu;
      to.level = state.level + accepted;
      if (accepted == 0) {
        add_rate(from, to, rate);
        continue;
      }
      // An empty system puts the first accepted page into service; the others wait with clocks.
      const bool starts_service = state.level == 0;
      const int new_clocks = starts_service ? accepted - 1 : accepted;
      const auto services =
          starts_service
              ? phase_draws(laws_.beta, 1)
              : std::vector<std::pair<std::vector<int>, double>>{{{state.service_phase}, 1.0}};
      for (const auto& [service, service_probability] : services)
        for (const auto& [clocks, clock_probability] : phase_draws(laws_.gamma, new_clocks)) {
          ChainState target = to;
          target.service_phase = service.front();
          target.clocks.insert(target.clocks.end(), clocks.begin(), clocks.end());
          add_rate(from, target, rate * service_probability * clock_probability);
        }
    }
  }
}

void BruteForceChain::add_service(Eigen::Index from, const ChainState& state,
                                  std::vector<Flows>& flows) {
  if (state.level == 0) return;
  const int m = state.service_phase;
  for (int next = 0; next < laws_.service_phases(); ++next) {
    if (next == m || laws_.s(m, next) <= 0) continue;
    ChainState to = state;
    to.service_phase = next;
    add_rate(from, to, laws_.s(m, next));
  }
  const double completion = laws_.service_exit(m);
  if (completion <= 0) return;
  flows[from].served += completion;
  ChainState to = state;
  to.level = state.level - 1;
  if (to.level == 0) {
    to.service_phase = 0;
    add_rate(from, to, completion);
    return;
  }
  // The head of the queue enters service; its clock is thrown away.
  to.clocks.erase(to.clocks.begin());
  for (int next = 0; next < laws_.service_phases(); ++next) {
    if (laws_.beta(next) <= 0) continue;
    to.service_phase = next;
    add_rate(from, to, completion * laws_.beta(next));
  }
}

void BruteForceChain::add_clocks(Eigen::Index from, const ChainState& state,
                                 std::vector<Flows>& flows) {
  for (std::size_t page = 0; page < state.clocks.size(); ++page) {
    const int r = state.clocks[page];
    for (int next = 0; next < laws_.clock_phases(); ++next) {
      if (next == r || laws_.clock(r, next) <= 0) continue;
      ChainState to = state;
      to.clocks[page] = next;
      add_rate(from, to, laws_.clock(r, next));
    }
    const double expiry = laws_.clock_exit(r);
    if (expiry <= 0) continue;
    flows[from].expired += expiry;
    // The obsolete page leaves; the others keep their places and clocks.
    ChainState to = state;
    to.level = state.level - 1;
    to.clocks.erase(to.clocks.begin() + static_cast<std::ptrdiff_t>(page));
    add_rate(from, to, expiry);
  }
}

void BruteForceChain::solve() {
  const Eigen::Index n = size();
  // p Q = 0 with the last balance equation replaced by p e = 1.
  Eigen::MatrixXd system = q_.transpose();
  system.row(n - 1).setOnes();
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n);
  rhs(n - 1) = 1.0;
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(system);
  if (!lu.isInvertible())
    throw std::runtime_error("brute force: the stationary system is singular");
  p_ = lu.solve(rhs);
}

double BruteForceChain::residual() const { return (p_.transpose() * q_).cwiseAbs().sum(); }

ChainMeasures BruteForceChain::measures_of(const Eigen::VectorXd& p_of) const {
  ChainMeasures out;
  const std::vector<Flows>& flows = flows_;
  out.level_probabilities.assign(model_.capacity + 1, 0.0);
  out.mode_probabilities.assign(model_.modes(), 0.0);
  double lost = 0, served = 0, expired = 0;
  for (Eigen::Index s = 0; s < size(); ++s) {
    const double p = p_of(s);
    const int level = states_[s].level;
    const int robots = states_[s].robots;
    out.lambda += p * flows[s].offered;
    lost += p * flows[s].lost;
    served += p * flows[s].served;
    expired += p * flows[s].expired;
    out.level_probabilities[level] += p;
    out.mode_probabilities[robots - 1] += p;
    out.mean_active_robots += p * robots;
    out.mean_in_system += p * level;
    out.mean_in_queue += p * std::max(level - 1, 0);
  }
  out.p_starvation = out.level_probabilities[0];
  out.p_loss = lost / out.lambda;
  out.p_served = served / out.lambda;
  out.p_obsolete = expired / out.lambda;
  return out;
}

double brute_force_cost(const model::Costs& costs, const ChainMeasures& measures,
                        double mean_sojourn_served) {
  return measures.lambda *
             (costs.loss * measures.p_loss + costs.obsolescence * measures.p_obsolete) +
         costs.sojourn * mean_sojourn_served + costs.robot * measures.mean_active_robots +
         costs.starvation * measures.p_starvation + costs.holding * measures.mean_in_system;
}

}  // namespace crawlq::crosscheck
