#pragma once
// The papers' examples, built into the binary from scenarios/data/ at compile time, so that
// `crawlq reproduce` runs from any directory and always on the files the repository ships.
#include <vector>

#include "scenarios/refresh_loader.hpp"
#include "scenarios/scenario_loader.hpp"

namespace crawlq::validation {

scenarios::Scenario paper_example();    // scenarios/data/paper-example-1.yaml (N = 4, K = 5)
scenarios::Scenario paper_real_data();  // scenarios/data/paper-real-data.yaml (K = 20)
scenarios::RefreshScenario refresh_paper_example();  // scenarios/data/refresh-paper-example.yaml

// The scales of the service and obsolescence times in the rows of Tables 3 and 4.
inline const std::vector<double> kTables34Scales{0.1, 0.2, 0.5, 1, 2, 5, 10, 15};

}  // namespace crawlq::validation
