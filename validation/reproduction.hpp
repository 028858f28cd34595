#pragma once
// What a reproduction of the paper reports: its rows beside the printed values, its figures and its
// remarks, and the rule by which a computed value agrees with a printed one. Apart from
// reproduce_paper, so that the sections that fill it need not include what runs them.
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "output/gnuplot_figure.hpp"
#include "sim/replications.hpp"

namespace crawlq::validation {

// The simulator's word on a flagged row.
struct SimulatorCheck {
  std::string what;        // what was simulated, e.g. "cost of levels 3 3 2 1 1 1"
  sim::Interval interval;  // 95%
  // For a value: the interval holds it. For a paired difference: its sign is settled that way.
  bool supports_computed = false;
  bool supports_printed = false;
  std::string verdict;  // one sentence
};

struct ReproducedRow {
  std::string table;    // "1" .. "5"
  std::string label;    // "3 or 1", "K=8 C_1", "s=0.5 C*"
  std::string printed;  // as printed; empty where the paper's value is not in our copy
  double computed = 0;
  double half_width = 0;         // > 0 when the computed value is a simulated estimate
  std::string source = "exact";  // or "simulated"
  bool agrees = true;
  std::string note;  // why a flagged row differs, or what a row is
  std::optional<SimulatorCheck> simulator;
  std::string printed_policy, computed_policy;  // thresholds or levels, where the row has a policy
};

struct ReproducedFigure {
  std::string id;       // file stem: "figure-1"
  std::string caption;  // what it shows and how it was computed
  output::Figure figure;
};

struct ReproductionOptions {
  std::uint64_t seed = 1;
  int threads = 0;
  // Shorter simulations (wider intervals) for previews and tests; the report says so.
  bool quick = false;
  // "tables", "figures", "sample-path"; empty: everything.
  std::set<std::string> sections;
  std::function<void(const std::string&)> progress;  // a line per step, for a terminal
};

struct Reproduction {
  std::vector<ReproducedRow> rows;
  std::vector<ReproducedFigure> figures;
  std::vector<std::string> remarks;  // what was computed how, said once
  ReproductionOptions options;
};

// One unit of the printed number's last digit, and the agreement rule used throughout.
bool agrees_with_printed(const std::string& printed, double computed, double half_width = 0);

}  // namespace crawlq::validation
