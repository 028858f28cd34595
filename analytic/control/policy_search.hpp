#pragma once
// Optimisation of the cost (2) over the threshold class: by enumeration (section 2: "easily solved
// on computer by enumeration") or, where C(K+N, N-1) solves are out of reach, by a local search.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analytic/control/policy_evaluation.hpp"
#include "analytic/control/search_kinds.hpp"
#include "analytic/control/work_meter.hpp"

namespace crawlq::analytic {

struct PolicyCost {
  model::Policy policy;
  double cost = 0;
};

struct ModeSetBest {
  std::vector<int> modes;       // from most robots to fewest
  std::vector<int> thresholds;  // among these modes: levels 0..t_1 use modes[0], and so on
  PolicyCost best;
};

struct ThresholdSearch {
  PolicyCost best;                    // over every non-decreasing threshold vector
  std::vector<double> constant;       // constant[r-1]: r robots at every level
  std::vector<ModeSetBest> by_modes;  // one per non-empty mode set, in the order of Table 1
  std::int64_t policies_solved = 0;
  std::int64_t solver_iterations = 0;  // summed over the stationary solves (StationarySummary)
};

// A local minimum of the threshold class: no neighbour (threshold_neighbours) at any step 1, 2, 4,
// ... up to K costs less. It is not proven global, and it knows nothing of the best policy per set
// of modes (Table 1's rows).
struct LocalThresholdSearch {
  PolicyCost best;
  PolicyCost start;                  // the best of the start grid (threshold_start_grid)
  std::vector<double> constant;      // constant[r-1]: the start grid holds every constant policy
  int descents = 0;                  // descents run (ThresholdSearchOptions::starts)
  int moves = 0;                     // improving moves taken, over all descents
  std::vector<PolicyCost> solved;    // every policy solved, once each, in the order solved
  std::int64_t policies_solved = 0;  // solved.size()
  std::int64_t solver_iterations = 0;
};

struct LevelSearch {
  PolicyCost best;                           // over every robots-per-level map
  std::optional<PolicyCost> best_threshold;  // the best map that is a threshold policy
  std::int64_t policies_solved = 0;
};

struct ThresholdSearchOptions {
  int threads = 0;  // policies solved at once (0: all cores); the answer does not depend on it
  // Each iterative solve starts from a neighbouring policy's stationary vector (the direct methods
  // ignore it). Off by default: it did not save iterations (benchmarks/optimize_at_scale: 2-6% more
  // BiCGSTAB iterations at K = 8..16 on the paper's example). A one-step threshold move shifts the
  // stationary vector by 8-50% in l1, and BiCGSTAB stops at a residual 1e-13 relative to the
  // right-hand side, so a warm start saves at most one decade of thirteen.
  bool warm_start = false;
  // Local search: descents from this many of the start grid's cheapest vectors (0: all of them).
  int starts = 1;
  // Charged with each batch of policies (search_work.hpp's policy_work each); nullptr: no bound.
  WorkMeter* meter = nullptr;
};

// With warm starts, the exhaustive search solves its enumeration in consecutive chunks of this many
// policies, each chunk in order on one thread, each solve warm-started from the one before it in
// its chunk (consecutive vectors differ at few levels). The chunks, hence every warm start, are the
// same for any thread count.
inline constexpr std::size_t kWarmStartChunk = 16;

// A policy costs 1-2 us a state on one core (the block recursion at K = 8, BiCGSTAB's 30-45
// iterations at K = 9..16 of the paper's example), plus the measures and sojourn means: about as
// much as this many more states (3 ms a policy on paper-real-data's 82 states).
inline constexpr double kPolicyOverheadStates = 1000;
// The work up to which `auto` enumerates, 10-20 s on one core: the paper's first example up to
// K = 12 (560 policies of 16,382 states: 9 s), and every shipped scenario.
inline constexpr double kExhaustiveWork = 1.0e7;

// What `auto` weighs: threshold_policy_count x (states of the chain + kPolicyOverheadStates).
double threshold_search_work(const model::Model& model);

const char* search_name(Search search);
// Throws std::invalid_argument naming the known searches.
Search parse_search(const std::string& name);
// kAuto resolved for this model; the others as given.
Search choose_search(Search search, const model::Model& model);

// Number of non-decreasing threshold vectors: C(K+N, N-1), INT64_MAX when it is more.
std::int64_t threshold_policy_count(int modes, int capacity);
// N^(K+1), or nothing beyond 2^62.
std::optional<std::int64_t> level_map_count(int modes, int capacity);

// Every non-decreasing threshold vector, in lexicographic order. Policies are solved on `threads`
// threads; every solve is single-threaded and the results are reduced in enumeration order, so the
// answer does not depend on the thread count.
ThresholdSearch optimize_thresholds(const PolicyEvaluator& evaluator,
                                    const ThresholdSearchOptions& options);
ThresholdSearch optimize_thresholds(const PolicyEvaluator& evaluator, int threads = 0);

// The neighbours of a threshold vector (j_1..j_{N-1}, -1 <= j_1 <= ... <= j_{N-1} <= K) at `step`,
// in the order the local search takes them: for q = 1..N-1, j_q `step` down, then `step` up. A move
// that would break the order pushes the thresholds it passes along (so a mode left unused between
// two others can be stepped over: (-1,2,2) has the neighbour (-1,3,3)); a move past -1 or K stops
// there.
std::vector<std::vector<int>> threshold_neighbours(const std::vector<int>& thresholds, int capacity,
                                                   int step = 1);
// Where the search looks once no neighbour at step 1 costs less: each j_q moved by 2, 4, ... and
// set to -1, 0, 1, 3, 7, ..., 2^k - 1 (up to K), the others pushed as above. In a long buffer the
// levels far up are seldom visited, so a threshold there can move a long way without changing the
// cost at all; one-level moves would stop the search on that plateau, far from the optimum.
// Up to this capacity one-level moves reach every threshold within a few dozen steps, and the
// search does without the jumps (their certificate would cost more solves than the class is worth).
inline constexpr int kPlateauCapacity = 32;
std::vector<std::vector<int>> threshold_jumps(const std::vector<int>& thresholds, int capacity);
// Where the local search starts: every non-decreasing vector over {-1, floor(K/2), K}, in
// lexicographic order: N(N+1)/2 policies, among them every constant one.
std::vector<std::vector<int>> threshold_start_grid(int modes, int capacity);

// Steepest descent: solve the start grid (threshold_start_grid); from its cheapest vector (the
// first on ties) solve every neighbour not solved before (in parallel; warm-started from the
// current policy when asked), move to the cheapest neighbour (the first on ties) while it costs
// strictly less, and stop where none does. With options.starts > 1 the next cheapest grid vectors
// are descended from in turn (a descent that meets an earlier one's path stops there) and the
// cheapest end is kept. Every vector is solved once (costs are kept), so policies_solved counts
// distinct policies. Deterministic and independent of the thread count.
LocalThresholdSearch optimize_thresholds_locally(const PolicyEvaluator& evaluator,
                                                 const ThresholdSearchOptions& options = {});

// Throws std::invalid_argument naming the count and `max_maps` when there are more maps than that.
// The threshold class's best, exhaustive or local as `search` (and the model's size) decides.
PolicyCost best_threshold(const PolicyEvaluator& evaluator, Search search, int threads,
                          int starts = 1, WorkMeter* meter = nullptr);

LevelSearch optimize_levels(const PolicyEvaluator& evaluator, std::int64_t max_maps,
                            int threads = 0);

}  // namespace crawlq::analytic
