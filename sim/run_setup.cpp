#include "sim/run_setup.hpp"

#include <stdexcept>
#include <variant>

#include "model/linear_algebra.hpp"
#include "model/memory_start.hpp"
#include "model/simulation_policy.hpp"

namespace crawlq::sim {

namespace {

// The stationary law of the phase process whose row nu is that of mode robots_by_phase[nu].
std::vector<double> mixed_rows_law(const model::Model& model,
                                   const std::vector<int>& robots_by_phase) {
  const int w = model.arrivals.phases();
  model::Matrix generator = model::Matrix::Zero(w, w);
  for (int nu = 0; nu < w; ++nu)
    generator.row(nu) =
        model.arrivals.mode(robots_by_phase[static_cast<std::size_t>(nu)]).generator().row(nu);
  const model::RowVector law = model::stationary_distribution(generator);
  return {law.data(), law.data() + law.size()};
}

RunSetup memory_start(const model::Model& model, const model::MemoryPolicy& memory, int level) {
  const int empty_mode = model::recurrent_empty_mode(model, memory);
  RunSetup setup{.level = level};
  setup.robots =
      level == 0
          ? empty_mode
          : memory.next[static_cast<std::size_t>(level)][static_cast<std::size_t>(empty_mode - 1)];
  return setup;
}

}  // namespace

RunSetup fresh_start(const model::Model& model, const model::ControlPolicy& policy, int level) {
  const std::size_t at = static_cast<std::size_t>(level);
  return std::visit(
      model::Overloaded{
          [&](const model::Policy&) { return RunSetup{.level = level}; },
          [&](const model::PhaseAwarePolicy& table) {
            return RunSetup{.level = level, .arrival_law = mixed_rows_law(model, table.robots[at])};
          },
          [&](const model::HysteresisPolicy& h) {
            return memory_start(model, model::as_memory(h, model.modes(), model.capacity), level);
          },
          [&](const model::MemoryPolicy& memory) { return memory_start(model, memory, level); },
          [&](const model::TablePolicy& table) {
            if (level > 0)
              throw std::invalid_argument(
                  "full: under a table that reads the phases, the mode at the start depends on "
                  "every page's phase, not on the level; the simulator starts such a table empty "
                  "or in its long run (the exact engine, solve, starts it full)");
            std::vector<int> robots_by_phase;
            for (int nu = 0; nu < model.arrivals.phases(); ++nu)
              robots_by_phase.push_back(table.robots[table.index(0, nu, 0, {})]);
            return RunSetup{.level = 0, .arrival_law = mixed_rows_law(model, robots_by_phase)};
          }},
      policy);
}

int draw_from(const std::vector<double>& law, RandomStream& random) {
  double u = random.uniform(), sum = 0;
  for (std::size_t i = 0; i < law.size(); ++i) {
    sum += law[i];
    if (u < sum) return static_cast<int>(i);
  }
  return static_cast<int>(law.size()) - 1;
}

}  // namespace crawlq::sim
