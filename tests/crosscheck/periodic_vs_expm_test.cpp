// The periodic regime of a rhythm (analytic/transient/periodic_regime.hpp) against the brute force
// (brute_force_chain.hpp): each piece's map and integral from a dense matrix exponential, the
// period's fixed point from a dense linear solve, and every average, count and sojourn mean from
// the brute force's own rules (brute_force_sojourn.hpp started from each piece's occupancy). Small
// random models of every policy form, random rhythms of unequal pieces.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "analytic/sojourn/tagged_page_chain.hpp"
#include "analytic/transient/periodic_regime.hpp"
#include "analytic/transient/transient_chain.hpp"
#include "tests/crosscheck/brute_force_chain.hpp"
#include "tests/crosscheck/brute_force_sojourn.hpp"
#include "tests/crosscheck/expm_checks.hpp"
#include "tests/crosscheck/random_models.hpp"

namespace crawlq::crosscheck {
namespace {

std::vector<double> by_level(const BruteForceChain& chain, const Eigen::RowVectorXd& x) {
  std::vector<double> levels(static_cast<std::size_t>(chain.states().back().level) + 1, 0.0);
  for (Eigen::Index s = 0; s < x.size(); ++s)
    levels[static_cast<std::size_t>(chain.states()[static_cast<std::size_t>(s)].level)] += x(s);
  return levels;
}

void compare(const model::Model& model, const model::ControlPolicy& policy) {
  const model::Rhythm& rhythm = *model.rhythm;
  const analytic::TaggedPageChain tagged(model);
  // A poor start on purpose (the empty system): the iterations, not the guess, find the regime.
  const analytic::TransientChain first(analytic::piece_model(model, 0), policy);
  const analytic::PeriodicRegime engine =
      analytic::periodic_regime(model, {policy}, first.empty_start(), tagged, {});
  REQUIRE(engine.converged);
  CHECK(engine.residual <= 1e-11);
  REQUIRE(engine.pieces.size() == rhythm.pieces());

  std::vector<model::Model> pieces;
  for (std::size_t i = 0; i < rhythm.pieces(); ++i)
    pieces.push_back(analytic::piece_model(model, i));
  std::vector<std::unique_ptr<BruteForceChain>> chains;
  std::vector<Propagation> steps;
  for (const model::Model& piece : pieces) {
    chains.push_back(std::make_unique<BruteForceChain>(piece, policy, false));
    steps.push_back(propagate(chains.back()->generator(), rhythm.piece_length()));
  }
  const Eigen::Index n = chains.front()->size();
  Eigen::MatrixXd period = Eigen::MatrixXd::Identity(n, n);
  for (const Propagation& step : steps) period = period * step.at_end;
  // x (M - I) = 0 with sum x = 1: the last equation replaced by the normalisation.
  Eigen::MatrixXd system = (period - Eigen::MatrixXd::Identity(n, n)).transpose();
  system.row(n - 1).setOnes();
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(n);
  unit(n - 1) = 1;
  Eigen::RowVectorXd x = system.fullPivLu().solve(unit).transpose();

  double offered = 0, lost = 0, obsolete = 0, served = 0, pages = 0, robots = 0, empty = 0;
  double accepted = 0, served_time = 0, served_pages = 0;
  for (std::size_t i = 0; i < rhythm.pieces(); ++i) {
    const analytic::PeriodicPiece& e = engine.pieces[i];
    const BruteForceChain& chain = *chains[i];
    const Eigen::VectorXd area = (x * steps[i].area).transpose();
    const ChainMeasures m = chain.measures_of(area);
    const double h = rhythm.piece_length();
    INFO("piece " << i << " of " << rhythm.pieces() << ", scale " << rhythm.scales[i]);
    const std::vector<double> at_start = by_level(chain, x);
    for (std::size_t level = 0; level < at_start.size(); ++level)
      check_close("P(level " + std::to_string(level) + ") at the piece's start",
                  e.level_probabilities_at_start[level], at_start[level]);
    check_close("lambda", e.measures.lambda, m.lambda / h);
    check_close("offered", e.offered, m.lambda);
    check_close("lost", e.lost, m.lambda * m.p_loss);
    check_close("obsolete", e.obsolete, m.lambda * m.p_obsolete);
    check_close("served", e.served, m.lambda * m.p_served);
    check_close("p_loss", e.measures.p_loss, m.p_loss);
    check_close("p_obsolete", e.measures.p_obsolete, m.p_obsolete);
    check_close("mean_in_system", e.measures.mean_in_system, m.mean_in_system / h);
    check_close("mean_in_queue", e.measures.mean_in_queue, m.mean_in_queue / h);
    check_close("mean_active_robots", e.measures.mean_active_robots, m.mean_active_robots / h);
    check_close("p_starvation", e.measures.p_starvation, m.p_starvation / h);
    const BruteForceSojourn sojourn(pieces[i], chain, &area);
    check_close("p_served_by_arrival", e.served_by_arrival, sojourn.probability(Fate::kServed));
    check_close("p_obsolete_by_arrival", e.obsolete_by_arrival,
                sojourn.probability(Fate::kObsolete));
    check_close("mean_sojourn_served", e.measures.mean_sojourn_served, sojourn.mean(Fate::kServed));
    check_close("mean_sojourn_obsolete", e.measures.mean_sojourn_obsolete,
                sojourn.mean(Fate::kObsolete));
    offered += m.lambda;
    lost += m.lambda * m.p_loss;
    obsolete += m.lambda * m.p_obsolete;
    served += m.lambda * m.p_served;
    pages += m.mean_in_system;
    robots += m.mean_active_robots;
    empty += m.p_starvation;
    accepted += m.lambda * sojourn.probability(Fate::kAccepted);
    served_pages += m.lambda * sojourn.probability(Fate::kServed);
    served_time += m.lambda * sojourn.probability(Fate::kServed) * sojourn.mean(Fate::kServed);
    x = x * steps[i].at_end;
  }
  const analytic::Measures& p = engine.period;
  const double t = rhythm.period;
  check_close("period lambda", p.lambda, offered / t);
  check_close("period p_loss", p.p_loss, lost / offered);
  check_close("period p_obsolete", p.p_obsolete, obsolete / offered);
  check_close("period p_served", p.p_served, served / offered);
  check_close("period mean_in_system", p.mean_in_system, pages / t);
  check_close("period mean_active_robots", p.mean_active_robots, robots / t);
  check_close("period p_starvation", p.p_starvation, empty / t);
  // Little's law over a period of the periodic regime: the pages' time in the system over the
  // pages accepted.
  check_close("period mean_sojourn", p.mean_sojourn, pages / accepted);
  check_close("period mean_sojourn_served", p.mean_sojourn_served, served_time / served_pages);
  const model::Costs& c = model.costs;
  check_close("period cost", p.cost,
              (c.loss * lost + c.obsolescence * obsolete + c.robot * robots + c.starvation * empty +
               c.holding * pages) /
                      t +
                  c.sojourn * served_time / served_pages);
}

void compare_random(std::uint64_t first_seed, int count, PolicyForm form) {
  for (std::uint64_t seed = first_seed; seed < first_seed + count; ++seed) {
    model::Model model = random_model(
        seed, {.single_arrivals = seed % 5 == 0, .max_states = 200, .holding_cost = true});
    model.rhythm = random_rhythm(seed);
    const model::ControlPolicy policy = random_control_policy(model, seed, form);
    INFO("seed " << seed << ", policy " << model::policy_kind(policy) << ", period "
                 << model.rhythm->period << "\n"
                 << describe(model));
    compare(model, policy);
  }
}

}  // namespace

TEST_CASE("periodic regime vs matrix exponentials: level maps", "[crosscheck][periodic]") {
  compare_random(1201, 10, PolicyForm::kLevels);
}

TEST_CASE("periodic regime vs matrix exponentials: phase-aware, memory, hysteresis and tables",
          "[crosscheck][periodic]") {
  compare_random(1301, 4, PolicyForm::kPhaseAware);
  compare_random(1311, 4, PolicyForm::kMemory);
  compare_random(1321, 3, PolicyForm::kHysteresis);
  compare_random(1331, 4, PolicyForm::kTable);
}

}  // namespace crawlq::crosscheck
