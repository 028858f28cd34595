#include "validation/engine_comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <chrono>
#include <cmath>
#include <limits>

#include "analytic/control/periodic_evaluation.hpp"
#include "analytic/control/policy_evaluation.hpp"
#include "model/elapsed.hpp"
#include "model/input_error.hpp"
#include "sim/run_length.hpp"

namespace crawlq::validation {

namespace {

struct NamedEstimate {
  std::string name;
  sim::Interval simulated;
  std::optional<double> exact;
  std::optional<std::size_t> piece = std::nullopt;
};

// Every measure of the list, both engines' value side by side, in the list's order.
std::vector<NamedEstimate> pair_measures(const sim::SimulationSummary& s,
                                         const analytic::PolicyEvaluation* e) {
  std::vector<NamedEstimate> out;
  const auto& simulated = model::scalar_measures<sim::Interval>();
  const auto& exact = model::scalar_measures<double>();
  for (std::size_t i = 0; i < exact.size(); ++i)
    out.push_back({std::string(exact[i].name.key), s.*(simulated[i].field),
                   e ? std::optional<double>(e->measures.*(exact[i].field)) : std::nullopt});
  const auto& simulated_lists = model::list_measures<sim::Interval>();
  const auto& exact_lists = model::list_measures<double>();
  for (std::size_t l = 0; l < exact_lists.size(); ++l) {
    const std::vector<sim::Interval>& intervals = s.*(simulated_lists[l].field);
    for (std::size_t i = 0; i < intervals.size(); ++i)
      out.push_back(
          {fmt::format("{}[{}]", exact_lists[l].name.key, i), intervals[i],
           e ? std::optional<double>((e->measures.*(exact_lists[l].field))[i]) : std::nullopt});
  }
  return out;
}

// Under a rhythm, each piece's scalar measures and the fates of its pages, both engines' values
// side by side (the exact ones when `regime` is there).
void pair_pieces(const sim::SimulationSummary& s, const analytic::PeriodicRegime* regime,
                 std::vector<NamedEstimate>& out) {
  const auto& simulated = model::scalar_measures<sim::Interval>();
  const auto& exact = model::scalar_measures<double>();
  for (std::size_t p = 0; p < s.pieces.size(); ++p) {
    const analytic::PeriodicPiece* piece = regime ? &regime->pieces.at(p) : nullptr;
    const auto exact_or_none = [&](double value) {
      return piece ? std::optional<double>(value) : std::nullopt;
    };
    for (std::size_t i = 0; i < exact.size(); ++i)
      out.push_back({std::string(exact[i].name.key), s.pieces[p].*(simulated[i].field),
                     exact_or_none(piece ? piece->measures.*(exact[i].field) : 0), p});
    out.push_back({"p_served_by_arrival", s.pieces[p].p_served_by_arrival,
                   exact_or_none(piece ? piece->served_by_arrival : 0), p});
    out.push_back({"p_obsolete_by_arrival", s.pieces[p].p_obsolete_by_arrival,
                   exact_or_none(piece ? piece->obsolete_by_arrival : 0), p});
  }
}

}  // namespace

bool EngineComparison::agrees() const {
  for (const auto& m : measures)
    if (m.verdict == Verdict::kDiffers) return false;
  return true;
}

const char* verdict_name(Verdict verdict) { return kVerdictNames.name(verdict).data(); }

EngineComparison compare_engines(const model::Model& exact_model,
                                 const std::optional<model::ControlPolicy>& exact_policy,
                                 const std::string& absent_reason,
                                 const model::Model& simulated_model,
                                 const sim::Policy& simulated_policy,
                                 const SimulationSettings& settings) {
  if (exact_model.capacity != simulated_model.capacity ||
      exact_model.modes() != simulated_model.modes())
    throw std::invalid_argument(fmt::format(
        "the simulated model has K = {} and {} modes, the exact one K = {} and {} modes: their measures do not pair",
        simulated_model.capacity, simulated_model.modes(), exact_model.capacity,
        exact_model.modes()));
  const auto start = std::chrono::steady_clock::now();
  std::optional<analytic::PolicyEvaluation> evaluation;
  std::optional<analytic::PeriodicRegime> regime;
  if (exact_policy && exact_model.rhythm) {
    // The long run is periodic: the exact side is the period's averages and each piece's.
    const model::Model averaged = analytic::averaged_over_period(exact_model);
    const analytic::PolicyEvaluator evaluator(averaged);
    analytic::PeriodicEvaluation periodic = analytic::evaluate_periodic(
        exact_model, analytic::piece_policies(exact_model, *exact_policy), evaluator);
    evaluation = std::move(periodic.evaluation);
    regime = std::move(periodic.regime);
  } else if (exact_policy) {
    evaluation = analytic::PolicyEvaluator(exact_model).evaluate(*exact_policy);
  }
  const double seconds_exact = model::seconds_since(start);

  const sim::RunLength length = sim::run_length(simulated_model, simulated_policy, settings.seed,
                                                settings.horizon, settings.warmup);
  const sim::ReplicationPlan plan{.seed = settings.seed,
                                  .replications = settings.replications,
                                  .warmup = length.warmup,
                                  .horizon = length.horizon,
                                  .threads = settings.threads};
  EngineComparison c;
  c.seconds_exact = seconds_exact;
  c.seconds_warmup = model::seconds_since(start) - seconds_exact;
  c.exact_engine_absent = exact_policy ? "" : absent_reason;
  const sim::SimulationSummary s = [&] {
    if (settings.precision <= 0) return sim::simulate(simulated_model, simulated_policy, plan);
    auto result = sim::simulate_to_precision(simulated_model, simulated_policy, plan,
                                             settings.precision, settings.time_limit);
    c.precise = result.precise;
    return std::move(result.summary);
  }();
  c.replications = static_cast<int>(s.replications.size());
  if (c.replications < 2)
    throw std::invalid_argument(fmt::format(
        "the time limit of {} s let {} replication{} of {:.6g} time units finish, and an interval needs 2; give "
        "a shorter horizon or a longer time limit",
        settings.time_limit, c.replications, c.replications == 1 ? "" : "s", plan.horizon));
  c.events = s.events;
  c.seconds_replications = s.seconds;

  std::vector<NamedEstimate> pairs = pair_measures(s, evaluation ? &*evaluation : nullptr);
  if (regime && regime->pieces.size() != s.pieces.size())
    throw std::invalid_argument(fmt::format(
        "the simulated model has {} pieces in its rhythm, the exact one {}: their pieces do not pair",
        s.pieces.size(), regime->pieces.size()));
  pair_pieces(s, regime ? &*regime : nullptr, pairs);
  const boost::math::students_t t(std::max(c.replications - 1, 1));
  // The 95% half-widths are t_{0.975} standard errors.
  const double t95 = boost::math::quantile(boost::math::complement(t, 0.025));
  c.z_bound =
      boost::math::quantile(boost::math::complement(t, kFamilyLevel / (2.0 * pairs.size())));
  double pages = 0;
  for (const sim::ReplicationEstimate& r : s.replications) pages += r.pages_offered;
  const double level = kFamilyLevel / static_cast<double>(pairs.size());
  for (const auto& p : pairs) {
    MeasureVerdict m{.name = p.name, .piece = p.piece, .exact = p.exact, .simulated = p.simulated};
    if (p.exact) {
      m.z = z_score(p.simulated.mean, *p.exact, p.simulated.half_width / t95);
      m.unseen = std::isinf(m.z) && unseen_is_likely(p.simulated.mean - *p.exact, pages, level);
      m.verdict = m.unseen ? Verdict::kAgrees : verdict_of(m.z, c.z_bound);
    }
    c.measures.push_back(m);
  }
  c.seconds = model::seconds_since(start);
  return c;
}

bool unseen_is_likely(double difference, double pages, double level) {
  const double d = std::min(std::abs(difference), 1.0);
  // log((1 - d)^n) = n log1p(-d), which is -inf at d = 1: never likely.
  return pages * std::log1p(-d) >= std::log(level);
}

double z_score(double simulated, double exact, double standard_error) {
  const double difference = simulated - exact;
  if (standard_error > 64 * std::numeric_limits<double>::epsilon() * (1 + std::abs(simulated)))
    return difference / standard_error;
  return std::abs(difference) <= 1e-9 * (1 + std::abs(exact)) ? 0.0
                                                              : std::copysign(HUGE_VAL, difference);
}

Verdict verdict_of(double z, double z_bound) {
  return std::abs(z) <= z_bound ? Verdict::kAgrees : Verdict::kDiffers;
}

}  // namespace crawlq::validation
