// Every enum the program names has one table (model/name_table.hpp): each name parses back to its
// value and none is given twice, and the request schema offers a choice field's names from it.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "analytic/policy_search.hpp"
#include "analytic/table_search.hpp"
#include "analytic/tagged_page_chain.hpp"
#include "api/optimize_request.hpp"
#include "api/request_schema.hpp"
#include "model/model.hpp"
#include "model/refresh_model.hpp"
#include "scenarios/shipped_files.hpp"
#include "validation/engine_comparison.hpp"

using namespace crawlq;

namespace {

template <class Table>
void check_round_trip(const Table& table) {
  const auto names = table.names();
  CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
  const auto values = table.values();
  REQUIRE(values.size() == names.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    INFO(names[i]);
    CHECK(table.name(values[i]) == names[i]);
    CHECK(table.parse(names[i]) == values[i]);
  }
}

}  // namespace

TEST_CASE("name tables: every table's names parse back to their values", "[api]") {
  check_round_trip(model::kAdmissionNames);
  check_round_trip(model::kRefreshPolicyNames);
  check_round_trip(analytic::kSearchNames);
  check_round_trip(analytic::kTableClassNames);
  check_round_trip(analytic::kPageFateNames);
  check_round_trip(validation::kVerdictNames);
  check_round_trip(scenarios::kShippedKindNames);
  check_round_trip(api::kPolicyClassNames);
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
