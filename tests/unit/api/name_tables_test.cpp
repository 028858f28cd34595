// Every enum the program names has one table (model/name_table.hpp): each name parses back to its
// value and none is given twice, and the request schema offers a choice field's names from it.
#include <catch2/catch.hpp>
#include <string>

#include "analytic/control/policy_search.hpp"
#include "analytic/control/table_search.hpp"
#include "analytic/sojourn/tagged_page_chain.hpp"
#include "api/optimize_request.hpp"
#include "api/request_schema.hpp"
#include "model/model.hpp"
#include "model/refresh_model.hpp"
#include "scenarios/shipped_files.hpp"
#include "tests/unit/model/name_table_checks.hpp"
#include "validation/engine_comparison.hpp"

using namespace crawlq;

namespace {}  // namespace

TEST_CASE("name tables: every table's names parse back to their values", "[api]") {
  testing::check_round_trip(model::kAdmissionNames);
  testing::check_round_trip(model::kRefreshPolicyNames);
  testing::check_round_trip(analytic::kSearchNames);
  testing::check_round_trip(analytic::kTableClassNames);
  testing::check_round_trip(analytic::kPageFateNames);
  testing::check_round_trip(validation::kVerdictNames);
  testing::check_round_trip(scenarios::kShippedKindNames);
  testing::check_round_trip(api::kPolicyClassNames);
  // The names the JSON and the refusals have always used.
  CHECK(model::kAdmissionNames.known() == "partial, reject-batch");
  CHECK(analytic::kSearchNames.known() == "exhaustive, local, auto");
  CHECK(validation::kVerdictNames.name(validation::Verdict::kSimulatedOnly) == "simulated only");
  CHECK(api::kPolicyClassNames.known() == "thresholds, levels, phase-aware, memory, markov, all");
}

TEST_CASE("name tables: the schema's choices are the tables' names", "[api]") {
  CHECK(api::choices_of(api::RequestKind::kOptimize, api::Field::kSearch) ==
        analytic::kSearchNames.names());
  CHECK(api::choices_of(api::RequestKind::kOptimize, api::Field::kClass) ==
        api::kPolicyClassNames.names());
  CHECK(api::choices_of(api::RequestKind::kSolve, api::Field::kSojourn).empty());
}
