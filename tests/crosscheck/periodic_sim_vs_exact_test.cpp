// The simulator under a rhythm against the exact periodic regime: the two share only model/, so
// their agreement on the period's averages is evidence for both the piece boundaries of the event
// loop (the pending move run at the new speed, the controller asked again) and the period map.
// validate's own verdict (Student t, Bonferroni over the measures at 1%) judges each model, the
// period's averages and each piece's (the observer binning by the clock against the regime's
// pieces); the seeds are fixed, so a pass repeats.
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/policy.hpp"
#include "tests/crosscheck/random_models.hpp"
#include "validation/engine_comparison.hpp"

namespace crawlq::crosscheck {
namespace {

// `horizon`: each replication's observed time (default: about a million pages at the pace the
// policy keeps).
void check_agreement(const model::Model& model, const model::ControlPolicy& policy,
                     std::uint64_t seed, std::optional<double> horizon = std::nullopt) {
  const std::unique_ptr<sim::Policy> simulated = sim::make_policy(model, policy);
  const validation::EngineComparison c = validation::compare_engines(
      model, policy, "", model, *simulated,
      {.seed = seed, .replications = 12, .horizon = horizon, .precision = 0});
  // Every piece is judged too: each scalar measure and the two fates, with an exact value.
  std::size_t piece_values = 0;
  for (const validation::MeasureVerdict& m : c.measures)
    piece_values += m.piece && m.exact && *m.piece < model.rhythm->pieces();
  CHECK(piece_values == model.rhythm->pieces() * (model::scalar_measures<double>().size() + 2));
  for (const validation::MeasureVerdict& m : c.measures) {
    INFO(m.name << (m.piece ? " in piece " + std::to_string(*m.piece) : "") << ": exact "
                << m.exact.value_or(-1) << ", simulated " << m.simulated.mean << " +- "
                << m.simulated.half_width << ", z " << m.z << " (bound " << c.z_bound << ")");
    CHECK(m.verdict != validation::Verdict::kDiffers);
  }
}

void check_random(std::uint64_t first_seed, int count, PolicyForm form, long max_states = 300,
                  std::optional<double> horizon = std::nullopt) {
  for (std::uint64_t seed = first_seed; seed < first_seed + count; ++seed) {
    model::Model model = random_model(seed, {.max_states = max_states, .holding_cost = true});
    model.rhythm = random_rhythm(seed);
    const model::ControlPolicy policy = random_control_policy(model, seed, form);
    INFO("seed " << seed << ", policy " << model::policy_kind(policy) << ", period "
                 << model.rhythm->period << "\n"
                 << describe(model));
    check_agreement(model, policy, seed, horizon);
  }
}

}  // namespace

TEST_CASE("simulated rhythms vs the exact periodic regime: level maps and the other forms",
          "[crosscheck][periodic][sim][heavy]") {
  check_random(1401, 5, PolicyForm::kLevels);
  check_random(1411, 2, PolicyForm::kPhaseAware);
  check_random(1421, 2, PolicyForm::kMemory);
  check_random(1431, 2, PolicyForm::kHysteresis);
}

TEST_CASE(
    "simulated rhythms vs the exact periodic regime: tables over the whole state, in the "
    "simulator's loop over phases",
    "[crosscheck][periodic][sim]") {
  // Small chains: the loop over phases is the simulator's slow one, and this case runs under the
  // sanitizers too.
  check_random(1451, 3, PolicyForm::kTable, 60, 2e4);
}

TEST_CASE("simulated rhythms vs the exact periodic regime: a level map per piece",
          "[crosscheck][periodic][sim]") {
  for (std::uint64_t seed = 1441; seed < 1445; ++seed) {
    model::Model model = random_model(seed, {.max_states = 300, .holding_cost = true});
    model.rhythm = random_rhythm(seed);
    for (std::size_t i = 0; i < model.rhythm->pieces() - (seed % 2); ++i)
      model.piece_policies.push_back(
          random_control_policy(model, seed * 31 + i, PolicyForm::kLevels));
    model.policy = model.piece_policies.front();
    INFO("seed " << seed << ", " << model.piece_policies.size() << " policies for "
                 << model.rhythm->pieces() << " pieces\n"
                 << describe(model));
    check_agreement(model, *model.policy, seed);
  }
}

}  // namespace crawlq::crosscheck
