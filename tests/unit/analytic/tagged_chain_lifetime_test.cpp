// When the tagged page's chain holds memory, and what it keeps: built on first use, after the
// stationary solve has freed its vectors (at K = 24 the two together took 8.4 GB where either alone
// takes 5), once for every policy; only the served and obsolete moment vectors, the accepted ones
// being their sum; and the third moments only once a standard deviation is asked for.
#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/sojourn/tagged_page_chain.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq::analytic {
namespace {

// Two robots' modes, generic rates (no symmetry), a two-phase service and clock.
model::Model two_mode_model() {
  const std::string text = R"(
name: tagged-lifetime
capacity: 7
admission: partial
arrivals:
  kind: poisson
  modes:
    - {rate: 1.7, batch: [0.6, 0.3, 0.1]}
    - {rate: 3.1, batch: [0.45, 0.35, 0.2]}
service: {beta: [0.35, 0.65], S: [[-2.9, 1.1], [1.7, -3.3]]}
obsolescence: {gamma: [0.3, 0.7], Gamma: [[-0.65, 0.35], [0.12, -0.31]]}
costs: {loss: 2, obsolescence: 3, sojourn: 1.5, robot: 0.7, starvation: 4}
)";
  return scenarios::parse_scenario(text, "tagged-lifetime").model;
}

TEST_CASE("policy evaluator: the tagged page's chain is built after the first solve, and once",
          "[analytic][sojourn]") {
  const model::Model m = two_mode_model();
  const PolicyEvaluator evaluator(m, Method::kIterative, 2);
  CHECK(evaluator.chain_seconds() == 0);  // not at construction, beside the solve to come
  const PolicyEvaluation first = evaluator.evaluate(model::Policy::constant(2, 2, m.capacity));
  REQUIRE(first.stationary.summary.status == SolverStatus::kConverged);
  const double built = evaluator.chain_seconds();
  CHECK(built > 0);
  const TaggedPageChain* chain = &evaluator.tagged_chain();
  const PolicyEvaluation second =
      evaluator.evaluate(model::Policy::from_thresholds({3}, 2, m.capacity));
  REQUIRE(second.stationary.summary.status == SolverStatus::kConverged);
  CHECK(&evaluator.tagged_chain() == chain);
  CHECK(evaluator.chain_seconds() == built);
  // The means need two moments; the third (the standard deviations) waits to be asked for.
  CHECK(chain->solved_moments() == 2);
  // The means come from the chain all the same: an accepted page is served or goes stale.
  for (const PolicyEvaluation* e : {&first, &second}) {
    const Measures& measures = e->measures;
    const SojournTimes sojourn = evaluator.sojourn_times(*e);
    const double served = sojourn.probability(PageFate::kServed),
                 obsolete = sojourn.probability(PageFate::kObsolete);
    CHECK(measures.mean_sojourn == Approx((served * measures.mean_sojourn_served +
                                           obsolete * measures.mean_sojourn_obsolete) /
                                          (served + obsolete))
                                       .epsilon(1e-12));
  }
  const SojournTimes laws = evaluator.sojourn_times(first);
  CHECK(chain->solved_moments() == 2);
  CHECK(laws.standard_deviation(PageFate::kServed) > 0);
  CHECK(chain->solved_moments() == 3);
}

TEST_CASE("tagged page's chain: the accepted moments are the two fates' sums",
          "[analytic][sojourn]") {
  const model::Model m = two_mode_model();
  const TaggedPageChain chain(m, 2);
  CHECK(chain.solved_moments() == 2);
  std::mt19937_64 engine(17);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  Eigen::RowVectorXd start(chain.size());
  for (double& v : start) v = uniform(engine);
  start /= start.sum();
  const Eigen::VectorXd exits = chain.exit(PageFate::kAccepted);
  CHECK((exits - (chain.served_exit() + chain.obsolete_exit())).cwiseAbs().maxCoeff() == 0);
  for (int k = 0; k < 3; ++k) {
    INFO("moment " << k);
    const Eigen::VectorXd served = chain.moment_vector(PageFate::kServed, k),
                          obsolete = chain.moment_vector(PageFate::kObsolete, k),
                          accepted = chain.moment_vector(PageFate::kAccepted, k);
    CHECK((accepted - (served + obsolete)).cwiseAbs().maxCoeff() == 0);
    CHECK(served.minCoeff() > 0);
    // A page in service no longer goes stale; one waiting may.
    CHECK(obsolete.head(chain.waiting_offset(0)).cwiseAbs().maxCoeff() == 0);
    CHECK(obsolete.tail(chain.size() - chain.waiting_offset(0)).minCoeff() > 0);
    for (const PageFate fate : {PageFate::kAccepted, PageFate::kServed, PageFate::kObsolete})
      CHECK(chain.moment_from(start, fate, k) ==
            Approx(start.dot(chain.moment_vector(fate, k))).epsilon(1e-14));
  }
  // From any state the page is served or goes stale: the zeroth moments sum to 1.
  const Eigen::VectorXd reached = chain.moment_vector(PageFate::kAccepted, 0);
  CHECK((reached.array() - 1).abs().maxCoeff() < 1e-12);
}

}  // namespace
}  // namespace crawlq::analytic

namespace crawlq::analytic {
namespace {

TEST_CASE("policy evaluator: an evaluation keeps the laws its means came from, when asked",
          "[analytic][sojourn]") {
  const model::Model m = two_mode_model();
  PolicyEvaluator evaluator(m, Method::kIterative, 2);
  const model::ControlPolicy policy = model::Policy::from_thresholds({3}, 2, m.capacity);
  CHECK_FALSE(evaluator.evaluate(policy).sojourn_laws);  // a search's evaluations keep none
  evaluator.keep_sojourn_laws(true);
  const PolicyEvaluation kept = evaluator.evaluate(policy);
  REQUIRE(kept.sojourn_laws);
  CHECK(kept.sojourn_laws->mean(PageFate::kServed) == kept.measures.mean_sojourn_served);
  // The same laws as made afresh from the stationary vector, to the last bit.
  const SojournTimes fresh = evaluator.sojourn_times(kept);
  for (PageFate fate : {PageFate::kAccepted, PageFate::kServed, PageFate::kObsolete})
    CHECK(kept.sojourn_laws->quantile(fate, 0.9) == fresh.quantile(fate, 0.9));
}

}  // namespace
}  // namespace crawlq::analytic
