// Beyond the paper: how far its optimal (threshold) policies are from the best possible control.
// For the paper's two examples and every row of Tables 3 and 4, the best policy of each class
// (analytic/control/class_comparison.hpp), computed exactly; the paper claims nothing here, so
// every row is computed only, and the remarks say what the table shows.
#include <fmt/format.h>

#include <algorithm>

#include "analytic/control/class_comparison.hpp"
#include "validation/paper_scenarios.hpp"
#include "validation/parameter_sweep.hpp"
#include "validation/reproduce_sections.hpp"

namespace crawlq::validation {

namespace {

struct Gap {
  std::string label;
  double relative = 0;  // threshold optimum over the best of all classes, minus 1
};

Gap compare(Reproduction& out, const std::string& label, const model::Model& model) {
  model::Model m = model;
  m.policy.reset();
  const analytic::PolicyEvaluator evaluator(m);
  const analytic::ClassComparison c =
      analytic::compare_classes(evaluator, {.threads = out.options.threads,
                                            .search = analytic::Search::kAuto,
                                            .starts = 1,
                                            .max_maps = 1'000'000,
                                            .progress = nullptr});
  const double optimum = c.optimum();
  double thresholds = optimum;
  for (const auto& row : c.rows) {
    ReproducedRow r;
    r.table = "control";
    r.label = fmt::format("{} {}", label, row.name);
    r.computed = row.cost;
    r.note = fmt::format(
        "{} ({}): {:.2f}% above the best of all classes", row.optimality,
        row.name == "markov" ? "every policy that sees the whole state" : "best of the class",
        optimum != 0 ? 100 * analytic::excess(row.cost, optimum) / optimum : 0.0);
    if (row.name == "thresholds") thresholds = row.cost;
    out.rows.push_back(std::move(r));
  }
  return {label, optimum != 0 ? analytic::excess(thresholds, optimum) / optimum : 0.0};
}

}  // namespace

void reproduce_control(Reproduction& out) {
  if (out.options.progress) out.options.progress("The price of the threshold class");
  std::vector<Gap> gaps;
  gaps.push_back(compare(out, "example", paper_example().model));
  gaps.push_back(compare(out, "real-data", paper_real_data().model));
  for (const auto& [table, parameter] : {std::pair{"T3", SweepParameter::kServiceScale},
                                         std::pair{"T4", SweepParameter::kObsolescenceScale}})
    for (const double s : kTables34Scales)
      gaps.push_back(compare(out, fmt::format("{} s={:g}", table, s),
                             with_parameter(paper_example().model, parameter, s)));
  const auto widest = std::max_element(
      gaps.begin(), gaps.end(), [](const Gap& a, const Gap& b) { return a.relative < b.relative; });
  out.remarks.push_back(fmt::format(
      "Beyond the paper (rows \"control\"): the paper optimises over threshold policies. Over every policy that sees "
      "the whole state, the best costs up to {:.1f}% less ({}); on the first example {:.1f}%, on the real data "
      "{:.1f}%. With the paper's sojourn weight the full-state row is the best of a heuristic search (the sojourn term "
      "is a ratio no Markov decision process carries), so these are lower estimates of the gap.",
      100 * widest->relative, widest->label, 100 * gaps[0].relative, 100 * gaps[1].relative));
}

}  // namespace crawlq::validation
