// reproduce's "fit" section: the paper's service fit recovered from its printed moments, the lag-1
// correlation its MAP cannot reach, and a MAP that reaches it.
#include <catch2/catch.hpp>
#include <map>

#include "validation/paper_reproduction.hpp"

namespace crawlq {
namespace {

TEST_CASE(
    "reproduce fit: the service law from three moments, the MAP's correlation, Table 5 correlated",
    "[validation][fit]") {
  validation::ReproductionOptions options;
  options.sections = {"fit"};
  const validation::Reproduction r = validation::reproduce_paper(options);
  std::map<std::string, validation::ReproducedRow> rows;
  for (const auto& row : r.rows) rows[row.label] = row;
  // beta close to (0.0057, 0.9943), S close to diag(-0.0014, -0.2409): within 2% of the printed
  // values.
  CHECK(rows.at("service beta_1").computed == Approx(0.0057).epsilon(0.02));
  CHECK(rows.at("service beta_2").computed == Approx(0.9943).epsilon(0.02));
  CHECK(rows.at("service S_11").computed == Approx(-0.0014).epsilon(0.02));
  CHECK(rows.at("service S_22").computed == Approx(-0.2409).epsilon(0.02));
  CHECK(rows.at("paper's MAP lag-1").computed < 0.061);
  CHECK_FALSE(rows.at("paper's MAP lag-1").agrees);  // shown, not hidden
  CHECK(rows.at("fitted MAP lag-1").computed == Approx(0.622).epsilon(1e-9));
  CHECK(rows.at("fitted MAP mean").agrees);
  CHECK(rows.at("fitted MAP variance").agrees);
  const auto& best = rows.at("T5 best, correlated arrivals");
  CHECK(best.computed > 0);
  CHECK_FALSE(best.computed_policy.empty());
}

}  // namespace
}  // namespace crawlq
