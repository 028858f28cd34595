// The tagged page's subgenerator T applied from its factors: shared among threads (blocks past the
// parallel grain cut into pieces and clock passes) it gives the same bits as on one thread, and on
// any count its rows keep T 1 = -(t_served + t_obsolete), the rates out of the chain.
#include "analytic/sojourn/tagged_page_operator.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "analytic/sojourn/tagged_page_chain.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq::analytic {
namespace {

// Generic rates (no symmetry): two-phase laws take ClockKernel's paired path, three-phase ones
// its general path.
model::Model tagged_model(int capacity, bool three_phases) {
  const std::string service = three_phases
                                  ? "{beta: [0.5, 0.3, 0.2], S: [[-3.1, 1.2, 0.4], [0.3, -2.2, "
                                    "0.9], [0.6, 0.2, -4.3]]}"
                                  : "{beta: [0.35, 0.65], S: [[-2.9, 1.1], [1.7, -3.3]]}";
  const std::string clock = three_phases
                                ? "{gamma: [0.2, 0.5, 0.3], Gamma: [[-0.7, 0.3, 0.1], [0.05, "
                                  "-0.45, 0.2], [0.15, 0.1, -0.9]]}"
                                : "{gamma: [0.3, 0.7], Gamma: [[-0.65, 0.35], [0.12, -0.31]]}";
  const std::string text = "name: tagged\ncapacity: " + std::to_string(capacity) +
                           "\nadmission: partial\narrivals:\n  kind: poisson\n  modes:\n    - "
                           "{rate: 2.3, batch: [0.5, 0.3, 0.2]}\nservice: " +
                           service + "\nobsolescence: " + clock +
                           "\ncosts: {loss: 1, obsolescence: 1, sojourn: 1, robot: 1, starvation: "
                           "1}\n";
  return scenarios::parse_scenario(text, "tagged").model;
}

TEST_CASE("tagged-page operator: the same bits on 1, 2 and 3 threads, and T 1 = -t",
          "[analytic][sojourn]") {
  // K = 16 with two phases: blocks up to 2 x 2^15 states; K = 11 with three: up to 3 x 3^10.
  for (const auto& [capacity, three] : {std::pair{16, false}, {11, true}}) {
    INFO("capacity " << capacity << (three ? ", three phases" : ", two phases"));
    const model::Model m = tagged_model(capacity, three);
    const TaggedPageChain chain(m);
    const TaggedPageOperator& t = chain.subgenerator();
    std::mt19937_64 engine(capacity);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    Eigen::VectorXd x(t.size());
    for (double& v : x) v = uniform(engine);
    // Below the top block too: the product stops at the last block x reaches.
    for (const int most_ahead : {t.max_pages_ahead(), t.max_pages_ahead() - 2}) {
      INFO("most ahead " << most_ahead);
      const Eigen::Index reach = t.offset(most_ahead + 1);
      Eigen::VectorXd within = Eigen::VectorXd::Zero(t.size());
      within.head(reach) = x.head(reach);
      Eigen::VectorXd one = Eigen::VectorXd::Zero(t.size());
      t.left_multiply(within.data(), one.data(), most_ahead, 1);
      for (const int threads : {2, 3}) {
        Eigen::VectorXd shared = Eigen::VectorXd::Zero(t.size());
        t.left_multiply(within.data(), shared.data(), most_ahead, threads);
        CHECK(shared == one);
      }
      const double out = within.dot(chain.exit(PageFate::kAccepted));
      CHECK(one.sum() == Approx(-out).epsilon(1e-12));
    }
  }
}

}  // namespace
}  // namespace crawlq::analytic
