#include "analytic/transient/transient_chain.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <variant>

#include "analytic/transient/transient_sums.hpp"

namespace crawlq::analytic {

namespace {

// A law theta with theta G = 0, theta e = 1 for the generator G. Where the phase process has
// several closed classes the least-norm solution weighs each class's own law by a positive factor,
// which is still a law of the process.
Eigen::VectorXd long_run_law(const Eigen::MatrixXd& g) {
  const Eigen::Index n = g.rows();
  Eigen::MatrixXd system(n + 1, n);
  system.topRows(n) = g.transpose();
  system.row(n).setOnes();
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n + 1);
  rhs(n) = 1;
  Eigen::VectorXd law = system.completeOrthogonalDecomposition().solve(rhs);
  law = law.cwiseMax(0.0);
  return law / law.sum();
}

}  // namespace

TransientChain::TransientChain(const model::Model& model, const model::ControlPolicy& policy)
    : model_(std::make_unique<const model::Model>(model)) {
  if (const auto* table = std::get_if<model::TablePolicy>(&policy)) {
    full_ = std::make_unique<const FullStateChain>(*model_);
    robots_ = table->robots;
    generator_ = full_->generator(robots_);
    diagonal_ = generator_.diagonal();
  } else {
    arrivals_ = std::make_unique<const ControlledArrivals>(*model_, policy);
    operator_ = std::make_unique<const GeneratorOperator>(*model_, *arrivals_);
    kernel_ = std::make_unique<const TransientSumsKernel>(*model_, *arrivals_, operator_->space());
    diagonal_ = operator_->diagonal();
  }
  uniform_rate_ = std::max(-diagonal_.minCoeff(), 0.0);
}

TransientChain::~TransientChain() = default;

TransientSums TransientChain::sums(const Eigen::VectorXd& p, int threads) const {
  if (kernel_) return kernel_->sums(p, threads);
  const Measures m = measures(p);
  TransientSums out;
  out.levels = m.level_probabilities;
  out.in_system = m.mean_in_system;
  out.in_queue = m.mean_in_queue;
  out.robots = m.mean_active_robots;
  out.offered = m.lambda;
  if (m.lambda > 0) {
    out.lost = m.lambda * m.p_loss;
    out.obsolete = m.lambda * m.p_obsolete;
    out.served = m.lambda * m.p_served;
  }
  return out;
}

const StateSpace& TransientChain::space() const {
  return full_ ? full_->space() : operator_->space();
}

void TransientChain::apply(const Eigen::VectorXd& x, Eigen::VectorXd& y, int threads) const {
  y.resize(x.size());
  if (full_)
    y.noalias() = generator_.transpose() * x;
  else
    operator_->apply(x.data(), y.data(), threads);
}

const Eigen::VectorXd& TransientChain::diagonal() const { return diagonal_; }

Measures TransientChain::measures(const Eigen::VectorXd& p) const {
  return full_ ? full_->measures(robots_, p) : compute_measures(*model_, *arrivals_, space(), p);
}

Eigen::RowVectorXd TransientChain::arrival_start(const TaggedPageChain& tagged,
                                                 const Eigen::VectorXd& p) const {
  return full_ ? tagged.arrival_distribution(*model_, robots_, space(), p)
               : tagged.arrival_distribution(*model_, *arrivals_, space(), p);
}

Eigen::VectorXd TransientChain::page_law(int level) const {
  const StateSpace& s = space();
  Eigen::VectorXd law(s.level_size(level));
  const model::PhaseType* clock = model_->obsolescence ? &*model_->obsolescence : nullptr;
  for (Eigen::Index i = 0; i < law.size(); ++i) {
    const StateSpace::State state = s.state(s.level_offset(level) + i);
    double weight = level == 0 ? 1.0 : model_->service.initial()(state.service_phase);
    for (const int c : state.clock_phases) weight *= clock ? clock->initial()(c) : 1.0;
    law(i) = weight;
  }
  return law;
}

Eigen::VectorXd TransientChain::environment_law(int level,
                                                const Eigen::VectorXd& rest_weight) const {
  const StateSpace& s = space();
  const int w = model_->arrivals.phases();
  if (full_) {
    // Each state's own robots: row nu of the phase process is the rows of the modes its states run,
    // weighed by how the rest of the state is distributed.
    Eigen::MatrixXd g = Eigen::MatrixXd::Zero(w, w);
    for (Eigen::Index i = 0; i < rest_weight.size(); ++i) {
      const Eigen::Index x = s.level_offset(level) + i;
      const int nu = s.state(x).arrival_phase;
      const model::Matrix mode =
          model_->arrivals.mode(robots_[static_cast<std::size_t>(x)]).generator();
      g.row(nu) += rest_weight(i) * mode.row(nu);
    }
    return long_run_law(g);
  }
  const ArrivalRows& rows = arrivals_->at_level(level);
  Eigen::MatrixXd g = Eigen::MatrixXd::Zero(rows.phases(), rows.phases());
  for (const model::Matrix& d : rows.d) g += d;
  if (!arrivals_->remembers()) return long_run_law(g);
  // Within a level the mode in force does not change: its block of the phase process is closed.
  int phase = arrivals_->recurrent_empty_phase();
  if (level > 0) phase = arrivals_->entered_phase(level, phase);
  const int mode_start = phase / w * w;
  Eigen::VectorXd law = Eigen::VectorXd::Zero(rows.phases());
  law.segment(mode_start, w) = long_run_law(g.block(mode_start, mode_start, w, w));
  return law;
}

Eigen::VectorXd TransientChain::empty_start() const {
  const StateSpace& s = space();
  Eigen::VectorXd p = Eigen::VectorXd::Zero(s.size());
  p.segment(s.level_offset(0), s.level_size(0)) = environment_law(0, page_law(0));
  return p;
}

Eigen::VectorXd TransientChain::full_start() const {
  const StateSpace& s = space();
  const int level = model_->capacity;
  const Eigen::VectorXd pages = page_law(level);
  // The page law repeats once per environment phase: each phase's share of it sums to one.
  const Eigen::Index per_phase = s.level_size(level) / s.level_size(0);
  const Eigen::VectorXd environment = environment_law(level, pages / pages.head(per_phase).sum());
  Eigen::VectorXd p = Eigen::VectorXd::Zero(s.size());
  for (Eigen::Index i = 0; i < pages.size(); ++i)
    p(s.level_offset(level) + i) = environment(i / per_phase) * pages(i);
  return p;
}

}  // namespace crawlq::analytic
