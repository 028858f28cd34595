// Files written with short decimals: accepted although their rows cancel only up to rounding in
// binary, solved to the same numbers as the same model with exact diagonals, and a row that is
// really wrong (by 1e-6 of its entries) still refused.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/stationary/solver_registry.hpp"
#include "model/input_error.hpp"
#include "model/rate_checks.hpp"
#include "scenarios/scenario_loader.hpp"
#include "tests/crosscheck/decimal_models.hpp"

namespace crawlq::crosscheck {
namespace {

using model::Matrix;

constexpr int kModels = 300;

bool some_row_misses_zero(const model::Model& m) {
  for (int r = 1; r <= m.modes(); ++r)
    for (int i = 0; i < m.arrivals.phases(); ++i) {
      double sum = 0;
      for (const Matrix& d : m.arrivals.mode(r).matrices()) sum += d.row(i).sum();
      if (sum != 0) return true;
    }
  return false;
}

// D_0's diagonal minus the rest of the row in floating point; a phase-type row without an exit
// likewise. What the file says, with the rounding of its decimals taken out of the diagonal.
model::Model with_recomputed_diagonals(const model::Model& m) {
  std::vector<model::Bmap> modes;
  for (int r = 1; r <= m.modes(); ++r) {
    std::vector<Matrix> d = m.arrivals.mode(r).matrices();
    for (Eigen::Index i = 0; i < d[0].rows(); ++i) {
      double others = -d[0](i, i);
      for (const Matrix& dk : d) others += dk.row(i).sum();
      d[0](i, i) = -others;
    }
    modes.emplace_back(std::move(d));
  }
  const auto recompute = [](const model::PhaseType& ph) {
    Matrix t = ph.subgenerator();
    for (Eigen::Index i = 0; i < t.rows(); ++i)
      if (ph.exit_rates()(i) == 0) t(i, i) = -(t.row(i).sum() - t(i, i));
    return model::PhaseType(ph.initial(), t);
  };
  model::Model exact = m;
  exact.arrivals = model::ArrivalModes(std::move(modes));
  exact.service = recompute(m.service);
  if (m.obsolescence) exact.obsolescence = recompute(*m.obsolescence);
  return exact;
}

std::vector<std::pair<std::string, double>> measures(const analytic::PolicyEvaluation& e) {
  std::vector<std::pair<std::string, double>> all;
  for (const auto& measure : model::scalar_measures<double>())
    all.emplace_back(std::string(measure.name.key), e.measures.*measure.field);
  for (const auto& measure : model::list_measures<double>())
    for (std::size_t i = 0; i < (e.measures.*measure.field).size(); ++i)
      all.emplace_back(fmt::format("{}[{}]", measure.name.key, i), (e.measures.*measure.field)[i]);
  return all;
}

TEST_CASE("files written with one-, two- and three-decimal rates are accepted", "[decimals]") {
  int missing_zero = 0;
  for (int seed = 1; seed <= kModels; ++seed) {
    const DecimalModel file = decimal_model(seed);
    INFO("seed " << seed << "\n" << file.yaml);
    REQUIRE_NOTHROW(scenarios::parse_scenario(file.yaml, fmt::format("decimal-{}.yaml", seed)));
    missing_zero +=
        some_row_misses_zero(scenarios::parse_scenario(file.yaml, "decimal.yaml").model) ? 1 : 0;
  }
  // The trap is really there: many of these files have a generator row that sums to a few ulps.
  CHECK(missing_zero >= kModels / 5);
}

TEST_CASE("a model written with decimals solves to the numbers of its exact-diagonal twin",
          "[decimals]") {
  // Every registered solver, on the models it takes (qbd: those with single arrivals).
  const auto& solver = analytic::registered_solvers()[GENERATE(
      range(std::size_t{0}, analytic::registered_solvers().size()))];
  const analytic::Method method = solver.method;
  int solved = 0;
  for (int seed = 1; seed <= kModels; ++seed) {
    const DecimalModel file = decimal_model(seed);
    const model::Model written = scenarios::parse_scenario(file.yaml, "decimal.yaml").model;
    if (!solver.refusal(written).empty()) continue;
    ++solved;
    const model::Model exact = with_recomputed_diagonals(written);
    const auto a = analytic::PolicyEvaluator(written, method).evaluate(*written.level_map());
    const auto b = analytic::PolicyEvaluator(exact, method).evaluate(*exact.level_map());
    const auto x = measures(a), y = measures(b);
    for (std::size_t i = 0; i < x.size(); ++i) {
      INFO("seed " << seed << ", method " << analytic::method_name(method) << ", " << x[i].first
                   << "\n"
                   << file.yaml);
      CHECK(std::abs(x[i].second - y[i].second) <= 1e-12 * std::max(1.0, std::abs(y[i].second)));
    }
  }
  INFO(analytic::method_name(method));
  CHECK(solved >= kModels / 10);
}

TEST_CASE("a row off by 1e-6 of its entries is still refused, naming the row", "[decimals]") {
  for (int seed = 1; seed <= 100; ++seed) {
    const model::Model m =
        scenarios::parse_scenario(decimal_model(seed).yaml, "decimal.yaml").model;
    INFO("seed " << seed);
    const int mode = 1 + seed % m.modes();
    std::vector<Matrix> d = m.arrivals.mode(mode).matrices();
    const Eigen::Index row = seed % d[0].rows();
    const std::size_t k = 1 + static_cast<std::size_t>(seed) % (d.size() - 1);
    double largest = 0;
    for (const Matrix& dk : d) largest = std::max(largest, dk.row(row).cwiseAbs().maxCoeff());
    d[k](row, seed % d[0].cols()) += (seed % 2 == 0 ? 1e-6 : 1.5e-6) * largest;
    CHECK_THROWS_WITH(model::Bmap(d, "arrivals.modes[0].D"),
                      Catch::Contains(fmt::format("arrivals.modes[0].D row {}: sum", row)) &&
                          Catch::Contains("!= 0"));

    Matrix s = m.service.subgenerator();
    const Eigen::Index s_row = seed % s.rows();
    s(s_row, s_row) += 1e-6 * s.row(s_row).cwiseAbs().maxCoeff() -
                       s.row(s_row).sum();  // exits at -1e-6 of its size
    CHECK_THROWS_WITH(
        model::PhaseType(m.service.initial(), s, "service", "beta", "S"),
        Catch::Contains(fmt::format("service.S row {}: sum", s_row)) && Catch::Contains("> 0"));

    model::RowVector beta = m.service.initial();
    beta(seed % beta.size()) += 1e-6;
    CHECK_THROWS_WITH(model::PhaseType(beta, m.service.subgenerator(), "service", "beta", "S"),
                      Catch::Contains("service.beta: sum") && Catch::Contains("!= 1"));
  }
}

}  // namespace
}  // namespace crawlq::crosscheck
