#pragma once
namespace crawlq::testing {
// Optimises the paper's example at each capacity K in [from, to] of Table 2, reports printed vs
// computed, and checks that exactly the documented rows differ, each for its documented reason.
void check_table2(int from, int to);
}  // namespace crawlq::testing
