#include "analytic/transient/periodic_regime.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "analytic/sojourn/sojourn_times.hpp"
#include "analytic/transient/stretch_runner.hpp"
#include "analytic/transient/transient_chain.hpp"

namespace crawlq::analytic {

model::Model piece_model(const model::Model& model, std::size_t piece) {
  model::Model m = model;
  m.rhythm.reset();
  m.arrivals = model::scaled_arrivals(model.arrivals, model.rhythm->scales.at(piece));
  return m;
}

namespace {

// The chains of the pieces, one per distinct (scale, policy) pair, and x -> x M through them.
class PeriodMap {
 public:
  PeriodMap(const model::Model& model, const std::vector<model::ControlPolicy>& policies,
            const PeriodicOptions& options)
      : rhythm_(*model.rhythm) {
    if (policies.empty()) throw std::invalid_argument("periodic_regime: give a policy");
    std::map<std::pair<double, std::size_t>, std::size_t> made;
    for (std::size_t i = 0; i < rhythm_.pieces(); ++i) {
      // Pieces under the same scale and the same policy share a chain.
      const std::size_t policy = i % policies.size();
      const auto key = std::pair{rhythm_.scales[i], policy};
      if (const auto found = made.find(key); found != made.end()) {
        chain_of_piece_.push_back(found->second);
        continue;
      }
      chains_.push_back(
          std::make_unique<const TransientChain>(piece_model(model, i), policies[policy]));
      if (chains_.back()->size() != chains_.front()->size())
        throw std::invalid_argument(
            "periodic_regime: the pieces' policies must run on the same states (one form)");
      made.emplace(key, chains_.size() - 1);
      chain_of_piece_.push_back(chains_.size() - 1);
    }
    stretch_options_ = TransientOptions{
        .times = {},
        .threads = options.threads,
        // The Poisson sums of a period together leave out a tenth of the residual asked for.
        .tolerance = std::clamp(
            options.residual_target / (10.0 * static_cast<double>(rhythm_.pieces())), 1e-16, 1e-13),
        .stop = options.stop,
        .most_products = options.most_products,
        .method = options.method};
  }

  const TransientChain& chain(std::size_t piece) const { return *chains_[chain_of_piece_[piece]]; }
  Eigen::Index size() const { return chains_.front()->size(); }

  using EachPiece = std::function<void(std::size_t piece, const Eigen::VectorXd& at_start,
                                       const Eigen::VectorXd& area)>;
  // x becomes x M; with `each_piece`, told each piece, x at its start and the integral of x over
  // it.
  void apply(Eigen::VectorXd& x, TransientResult& counted, double& truncation,
             const EachPiece& each_piece) const {
    StretchRunner runner(stretch_options_, counted);
    Eigen::VectorXd area;
    for (std::size_t i = 0; i < rhythm_.pieces(); ++i) {
      const Eigen::VectorXd at_start = x;
      const Stretch s =
          runner.run(chain(i), x, {}, rhythm_.piece_length(), each_piece ? &area : nullptr);
      truncation += s.truncation_error;
      if (each_piece) each_piece(i, at_start, area);
    }
  }
  void apply(Eigen::VectorXd& x, TransientResult& counted) const {
    double unused = 0;
    apply(x, counted, unused, EachPiece{});
  }

 private:
  model::Rhythm rhythm_;
  std::vector<std::unique_ptr<const TransientChain>> chains_;
  std::vector<std::size_t> chain_of_piece_;
  TransientOptions stretch_options_;
};

// Reduced rank extrapolation of iterates x_0..x_m of a linear fixed-point map: the combination
// sum g_j x_j (sum g_j = 1) whose next step, sum g_j (x_{j+1} - x_j), is least in the 2-norm. For
// a linear map this is GMRES on x (I - M) = 0. Gives nothing when the steps are too alike to weigh.
std::optional<Eigen::VectorXd> extrapolated(const std::vector<Eigen::VectorXd>& all_iterates) {
  // Steps of a chain with n states lie in an (n - 1)-dimensional space, so a small chain weighs
  // only its last n iterates (more steps than rows would also leave QR's R short of rows).
  const auto states = all_iterates.front().size();
  const auto m = std::min(static_cast<Eigen::Index>(all_iterates.size()) - 1, states - 1);
  if (m < 1) return std::nullopt;
  const std::vector<Eigen::VectorXd> iterates(all_iterates.end() - m - 1, all_iterates.end());
  Eigen::MatrixXd steps(states, m);
  for (Eigen::Index j = 0; j < m; ++j)
    steps.col(j) =
        iterates[static_cast<std::size_t>(j) + 1] - iterates[static_cast<std::size_t>(j)];
  // min ||steps g|| with sum g = 1: g = y / sum y, steps^T steps y = 1. The QR's R gives the Gram
  // matrix without squaring the steps' condition twice.
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(steps);
  const Eigen::MatrixXd r = qr.matrixQR().topRows(m).triangularView<Eigen::Upper>();
  const double largest = r.diagonal().cwiseAbs().maxCoeff();
  if (!(largest > 0) || r.diagonal().cwiseAbs().minCoeff() <= 1e-13 * largest) return std::nullopt;
  const Eigen::VectorXd z =
      r.transpose().triangularView<Eigen::Lower>().solve(Eigen::VectorXd::Ones(m));
  const Eigen::VectorXd y = r.triangularView<Eigen::Upper>().solve(z);
  const double total = y.sum();
  if (!std::isfinite(total) || total == 0) return std::nullopt;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(iterates.front().size());
  for (Eigen::Index j = 0; j < m; ++j) x += (y(j) / total) * iterates[static_cast<std::size_t>(j)];
  // A distribution again: the combination may dip below zero where the iterates are tiny.
  x = x.cwiseMax(0.0);
  if (!(x.sum() > 0)) return std::nullopt;
  return x / x.sum();
}

// The piece's averages from the integral of x over it: `counts` is the chain's measures of that
// integral (lambda the pages offered, the level probabilities the time at each level, and so on).
Measures averaged(const Measures& counts, double length) {
  Measures m = counts;
  m.lambda /= length;
  m.p_starvation /= length;
  m.mean_active_robots /= length;
  m.mean_in_system /= length;
  m.mean_in_queue /= length;
  for (double& p : m.level_probabilities) p /= length;
  for (double& p : m.mode_probabilities) p /= length;
  if (counts.lambda <= 0) m.p_loss = m.p_obsolete = m.p_served = 0;
  return m;
}

// The sojourn means of pages starting in the tagged chain as `start` says; gives the fates'
// probabilities (served, obsolete).
std::pair<double, double> add_sojourn_means(Measures& m, const TaggedPageChain& tagged,
                                            const Eigen::RowVectorXd& start) {
  const SojournTimes sojourn(tagged, start);
  m.mean_sojourn = sojourn.mean(PageFate::kAccepted);
  m.mean_sojourn_served = sojourn.mean(PageFate::kServed);
  m.mean_sojourn_obsolete = sojourn.mean(PageFate::kObsolete);
  return {sojourn.probability(PageFate::kServed), sojourn.probability(PageFate::kObsolete)};
}

}  // namespace

PeriodicRegime periodic_regime(const model::Model& model,
                               const std::vector<model::ControlPolicy>& policies,
                               const Eigen::VectorXd& guess, const TaggedPageChain& tagged,
                               const PeriodicOptions& options) {
  if (!model.rhythm) throw std::invalid_argument("periodic_regime: the model has no rhythm");
  const model::Rhythm& rhythm = *model.rhythm;
  const PeriodMap map(model, policies, options);
  if (guess.size() != map.size())
    throw std::invalid_argument("periodic_regime: the guess is not over the chain's states");
  PeriodicRegime regime;
  TransientResult counted;
  Eigen::VectorXd x = guess.cwiseMax(0.0);
  x /= x.sum();
  std::vector<Eigen::VectorXd> iterates{x};
  // The plain iterate an extrapolation replaced, and the residual before it: an extrapolation that
  // made things worse is dropped for it.
  std::optional<Eigen::VectorXd> before_extrapolation;
  double last_residual = INFINITY;
  for (;;) {
    if (regime.periods >= options.most_periods) break;
    Eigen::VectorXd y = x;
    map.apply(y, counted);
    ++regime.periods;
    const double residual = (y - x).lpNorm<1>();
    if (residual <= options.residual_target) {
      regime.converged = true;
      break;
    }
    if (before_extrapolation && residual > last_residual) {
      x = std::move(*before_extrapolation);
      before_extrapolation.reset();
      iterates = {x};
      continue;
    }
    before_extrapolation.reset();
    last_residual = residual;
    x = std::move(y);
    iterates.push_back(x);
    if (options.extrapolate_every > 0 &&
        static_cast<int>(iterates.size()) > options.extrapolate_every) {
      if (std::optional<Eigen::VectorXd> jumped = extrapolated(iterates)) {
        before_extrapolation = x;
        x = std::move(*jumped);
        ++regime.extrapolations;
      }
      iterates = {x};
    }
  }

  // The final period from x: each piece's averages, and the pages' starts in the tagged chain.
  regime.start = x;
  Eigen::RowVectorXd period_start = Eigen::RowVectorXd::Zero(tagged.size());
  Measures total;
  total.level_probabilities.assign(static_cast<std::size_t>(model.capacity) + 1, 0.0);
  total.mode_probabilities.assign(static_cast<std::size_t>(model.modes()), 0.0);
  double lost = 0, obsolete = 0, served = 0;
  const auto each_piece = [&](std::size_t i, const Eigen::VectorXd& at_start,
                              const Eigen::VectorXd& area) {
    const TransientChain& chain = map.chain(i);
    const Measures counts = chain.measures(area);
    PeriodicPiece piece{
        .start = rhythm.piece_start(i),
        .length = rhythm.piece_length(),
        .scale = rhythm.scales[i],
        .measures = averaged(counts, rhythm.piece_length()),
        .level_probabilities_at_start = chain.sums(at_start, options.threads).levels,
        .offered = counts.lambda,
        .lost = counts.lambda * counts.p_loss,
        .obsolete = counts.lambda * counts.p_obsolete,
        .served = counts.lambda * counts.p_served};
    if (counts.lambda > 0) {
      const Eigen::RowVectorXd start = chain.arrival_start(tagged, area);
      std::tie(piece.served_by_arrival, piece.obsolete_by_arrival) =
          add_sojourn_means(piece.measures, tagged, start);
      period_start += counts.lambda * start;
    }
    piece.measures.cost = model::cost_criterion(model.costs, piece.measures);
    const double piece_lost = piece.lost, piece_obsolete = piece.obsolete,
                 piece_served = piece.served;
    regime.pieces.push_back(std::move(piece));
    total.lambda += counts.lambda;
    lost += piece_lost;
    obsolete += piece_obsolete;
    served += piece_served;
    total.mean_active_robots += counts.mean_active_robots;
    total.mean_in_system += counts.mean_in_system;
    total.mean_in_queue += counts.mean_in_queue;
    for (std::size_t l = 0; l < total.level_probabilities.size(); ++l)
      total.level_probabilities[l] += counts.level_probabilities[l];
    for (std::size_t r = 0; r < total.mode_probabilities.size(); ++r)
      total.mode_probabilities[r] += counts.mode_probabilities[r];
  };
  Eigen::VectorXd y = x;
  map.apply(y, counted, regime.truncation_error, each_piece);
  ++regime.periods;
  regime.residual = (y - x).lpNorm<1>();
  regime.converged = regime.residual <= options.residual_target;
  if (total.lambda > 0) {
    total.p_loss = lost / total.lambda;
    total.p_obsolete = obsolete / total.lambda;
    total.p_served = served / total.lambda;
    regime.arrival_start = period_start / total.lambda;
  } else {
    regime.arrival_start = period_start;
  }
  total.p_starvation = total.level_probabilities.front();
  regime.period = averaged(total, rhythm.period);
  if (total.lambda > 0) add_sojourn_means(regime.period, tagged, regime.arrival_start);
  regime.period.cost = model::cost_criterion(model.costs, regime.period);
  regime.products = counted.products;
  regime.method = counted.method;
  return regime;
}

}  // namespace crawlq::analytic
