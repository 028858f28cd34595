#pragma once
// The parts of reproduce_paper, one per table or figure group (paper_reproduction.cpp runs them).
#include "validation/policy_simulation.hpp"
#include "validation/reproduction.hpp"

namespace crawlq::validation {

void reproduce_table1(Reproduction& out, const PolicySimulation& simulation);
void reproduce_table2(Reproduction& out, const PolicySimulation& simulation);
void reproduce_tables3and4(Reproduction& out);
void reproduce_table5(Reproduction& out, const PolicySimulation& simulation);
void reproduce_figures(Reproduction& out, const PolicySimulation& simulation);
void reproduce_sample_path(Reproduction& out);
void reproduce_refresh(Reproduction& out);  // the second paper (Coffman, Liu, Weber)
void reproduce_control(
    Reproduction& out);  // beyond the paper: every class of policies against the best
void reproduce_fit(Reproduction& out);  // section 7's data pipeline from the printed statistics

// `high` robots at levels 0..j, `low` above, in the paper's four-mode example: the two-mode
// threshold policies of Table 2 ("3 or 1", threshold j*) and of Figures 1 to 4.
model::Policy two_mode_policy(int high, int low, int j, int capacity);

// The simulator's verdict on a value: which of computed and printed its interval holds.
SimulatorCheck check_value(const std::string& what, const sim::Interval& interval, double computed,
                           double printed);

}  // namespace crawlq::validation
