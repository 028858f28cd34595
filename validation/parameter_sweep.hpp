#pragma once
// One parameter of a model varied, the threshold policy re-optimised at each value: the paper's
// Table 2 (capacity K), Table 3 (service rate) and Table 4 (obsolescence rate), generalised.
#include <optional>
#include <string>
#include <vector>

#include "analytic/control/class_comparison.hpp"
#include "analytic/control/policy_search.hpp"
#include "model/model.hpp"

namespace crawlq::validation {

enum class SweepParameter {
  kCapacity,           // K, a whole number >= 1
  kServiceScale,       // S -> s S: the mean service time divided by s (Table 3)
  kObsolescenceScale,  // Gamma -> s Gamma: the mean obsolescence time divided by s (Table 4)
  kArrivalScale,       // D_k^(r) -> s D_k^(r) for every k and mode: every rate times s
  // costs.KEY replaced by the value, one for each of model::cost_weights() in its order.
  kLossCost,
  kObsolescenceCost,
  kSojournCost,
  kRobotCost,
  kStarvationCost,
  kHoldingCost,
  // Under a rhythm, a: every scale s_i -> m + a (s_i - m), m the period's mean scale. 0 flattens
  // the rhythm to its mean, 1 is the file's, 2 doubles every swing; the mean arrivals stay.
  kRhythmAmplitude,
};

// The name used on the command line ("capacity", "service-scale", "costs.loss", ...).
std::string parameter_name(SweepParameter parameter);
// Every parameter, in the order of the enum.
const std::vector<SweepParameter>& sweep_parameters();
// Throws std::invalid_argument naming `name` and listing the known names.
SweepParameter parse_sweep_parameter(const std::string& name);

// Throws std::invalid_argument when `parameter` means nothing for `model` (obsolescence-scale of a
// model whose pages never expire, rhythm-amplitude of one without a rhythm).
void require_applicable(const model::Model& model, SweepParameter parameter);

// `model` with the parameter set to `value`, rebuilt through the validating constructors. A new
// capacity drops the model's own policy (a level map of the old K). Throws std::invalid_argument
// naming the parameter and the value when the value is out of range (capacity a whole number >= 1,
// scales finite and > 0, costs finite and >= 0, an amplitude finite, >= 0 and keeping every piece's
// scale > 0) or makes a model that breaks a rule.
model::Model with_parameter(const model::Model& model, SweepParameter parameter, double value);

// Under a rhythm, a sweep row's best vector per piece (SweepRow::by_piece). At namespace scope: a
// nested class's member initialisers are not yet usable inside its enclosing class, which clang
// then finds not default-constructible.
struct SweepByPiece {
  std::vector<std::vector<int>> thresholds;  // one vector per piece
  double cost = 0;
};

struct SweepRow {
  double value = 0;
  analytic::PolicyCost best;     // the best threshold policy of the transformed model
  std::vector<double> constant;  // C_r: r robots at every level
  double relative_profit = 0;    // R = 100 (1 - C* / min_r C_r), as in Table 2
  analytic::Measures measures;   // of the best policy, every one
  double mean_service_time = 0;  // b_1 of the transformed model
  std::optional<double> mean_obsolescence_time;  // g_1; nothing when pages never expire
  // With a class other than thresholds: that class's best at this value (analytic::best_of_class).
  std::optional<analytic::ClassRow> class_best;
  // Under a rhythm every cost is the periodic regime's over the period: `best` is then the best
  // single vector, `constant` the constant policies', and these the best vector per piece (the
  // coordinate search of analytic/control/periodic_search.hpp); `measures` and `relative_profit`
  // are the per-piece policy's.
  std::optional<SweepByPiece> by_piece = std::nullopt;
};

// One row per value, in the order given. Every value is checked (with_parameter) before anything
// is solved. The values are spread over `threads` threads (0: all cores), each optimisation on one
// thread, so the rows do not depend on the thread count. A failed solve throws std::runtime_error
// naming the parameter and the value.
// `policy_class` (one of analytic::policy_class_names()): besides the threshold optimum, each row's
// best of that class.
// `full_chain`: every phase of the clock kept where swept_chain_model would lump it.
std::vector<SweepRow> sweep(const model::Model& model, SweepParameter parameter,
                            const std::vector<double>& values, int threads = 0,
                            const std::string& policy_class = "thresholds",
                            bool full_chain = false);

// The model whose chains a value's searches solve: `model` with its clock lumped where each phase
// exits at one rate (analytic/stationary/clock_lumping.hpp), unless `full_chain` or the class is
// markov's, whose tables name clock phases.
model::Model swept_chain_model(const model::Model& model, const std::string& policy_class,
                               bool full_chain);

// As sweep, but a failed value stops nothing: each value's row, or why it failed (the message sweep
// would throw), in the order given. For a caller that merges several sweeps' values (crawlq's
// processes under mpirun) and must find the first failure over all of them.
struct SweepOutcomes {
  std::vector<std::optional<SweepRow>> rows;
  std::vector<std::optional<std::string>> failures;
};
SweepOutcomes sweep_outcomes(const model::Model& model, SweepParameter parameter,
                             const std::vector<double>& values, int threads = 0,
                             const std::string& policy_class = "thresholds",
                             bool full_chain = false);

}  // namespace crawlq::validation
