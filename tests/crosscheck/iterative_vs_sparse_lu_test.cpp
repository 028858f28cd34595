// The iterative solver against the direct one on the paper's example at K = 12 (16,382 states),
// where UMFPACK takes about 15 s and 2 GB (labelled slow). K = 13 takes it 2 minutes and 9.5 GB;
// K = 14 would need 7e13 flops and over 30 GB (sparse_lu_solver.hpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <iomanip>

#include "analytic/stationary/measures.hpp"
#include "analytic/stationary/stationary_solver.hpp"
#include "scenarios/scenario_loader.hpp"

using namespace crawlq;

namespace {
constexpr int kCapacity = 12;
constexpr double kTolerance = 1e-9;

void check_same(double iterative, double direct, const char* name) {
  INFO(name << ": iterative " << std::setprecision(17) << iterative << ", sparse-lu " << direct
            << ", relative " << std::abs(iterative - direct) / std::abs(direct));
  CHECK(iterative == Approx(direct).epsilon(kTolerance));
}

void check_same(const std::vector<double>& iterative, const std::vector<double>& direct,
                const char* name) {
  REQUIRE(iterative.size() == direct.size());
  for (std::size_t i = 0; i < iterative.size(); ++i) {
    INFO(name << " entry " << i);
    check_same(iterative[i], direct[i], name);
  }
}
}  // namespace

TEST_CASE("iterative solver equals sparse-lu at K = 12: vector and measures to 1e-9",
          "[crosscheck][slow][heavy]") {
  model::Model m = scenarios::load_scenario(std::string(CRAWLQ_SOURCE_DIR) +
                                            "/scenarios/data/paper-example-1.yaml")
                       .model;
  m.capacity = kCapacity;
  m.policy = model::Policy::from_thresholds({-1, 2, 2}, 4, kCapacity);
  const analytic::GeneratorBlocks blocks(m, *m.level_map());
  REQUIRE(blocks.space().size() == 16382);
  const auto direct = analytic::solve_stationary(blocks, analytic::Method::kSparseLu);
  const auto iterative = analytic::solve_stationary(blocks, analytic::Method::kIterative);
  REQUIRE(direct.summary.status == analytic::SolverStatus::kConverged);
  REQUIRE(iterative.summary.status == analytic::SolverStatus::kConverged);
  CHECK(direct.summary.residual < 1e-12);
  const double distance = (iterative.probabilities - direct.probabilities).lpNorm<1>();
  CHECK(distance < kTolerance);

  const auto a =
      analytic::compute_measures(m, blocks.arrivals(), blocks.space(), iterative.probabilities);
  const auto b =
      analytic::compute_measures(m, blocks.arrivals(), blocks.space(), direct.probabilities);
  check_same(a.lambda, b.lambda, "lambda");
  check_same(a.p_loss, b.p_loss, "p_loss");
  check_same(a.p_obsolete, b.p_obsolete, "p_obsolete");
  check_same(a.p_served, b.p_served, "p_served");
  check_same(a.p_starvation, b.p_starvation, "p_starvation");
  check_same(a.mean_active_robots, b.mean_active_robots, "mean_active_robots");
  check_same(a.mean_in_system, b.mean_in_system, "mean_in_system");
  check_same(a.mean_in_queue, b.mean_in_queue, "mean_in_queue");
  check_same(a.level_probabilities, b.level_probabilities, "level_probabilities");
  check_same(a.mode_probabilities, b.mode_probabilities, "mode_probabilities");
}
