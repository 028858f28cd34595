#include "tests/crosscheck/random_models.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <vector>

namespace crawlq::crosscheck {

namespace {

using model::Matrix;
using model::RowVector;

class Draw {
 public:
  explicit Draw(std::uint64_t seed) : engine_(seed) {}
  int integer(int low, int high) { return std::uniform_int_distribution<int>(low, high)(engine_); }
  double real(double low, double high) {
    return std::uniform_real_distribution<double>(low, high)(engine_);
  }
  bool chance(double p) { return real(0.0, 1.0) < p; }

 private:
  std::mt19937_64 engine_;
};

// A probability vector, sometimes with zero entries.
RowVector random_initial(Draw& draw, int phases) {
  RowVector v = RowVector::Zero(phases);
  for (int i = 0; i < phases; ++i)
    if (!draw.chance(0.3)) v(i) = draw.real(0.1, 1.0);
  if (v.sum() == 0) v(draw.integer(0, phases - 1)) = 1.0;
  return v / v.sum();
}

// A phase-type law whose every phase reaches absorption: each phase without an exit of its own
// gets a jump to one that has one.
model::PhaseType random_phase_type(Draw& draw, int phases, double scale) {
  Matrix t = Matrix::Zero(phases, phases);
  std::vector<double> exit(phases, 0.0);
  std::vector<int> exiting;
  for (int i = 0; i < phases; ++i)
    if (draw.chance(0.6)) exiting.push_back(i);
  if (exiting.empty()) exiting.push_back(draw.integer(0, phases - 1));
  for (int i : exiting) exit[i] = draw.real(0.2, 2.0) * scale;
  for (int i = 0; i < phases; ++i)
    for (int j = 0; j < phases; ++j)
      if (i != j && draw.chance(0.5)) t(i, j) = draw.real(0.1, 2.0) * scale;
  for (int i = 0; i < phases; ++i)
    if (exit[i] == 0) {
      const int target = exiting[draw.integer(0, static_cast<int>(exiting.size()) - 1)];
      t(i, target) += draw.real(0.2, 2.0) * scale;
    }
  for (int i = 0; i < phases; ++i) t(i, i) = -(t.row(i).sum() + exit[i]);
  return model::PhaseType(random_initial(draw, phases), t);
}

// Every phase exits at `exit`: the diagonal is each row's moves and that exit.
model::PhaseType random_common_exit_law(Draw& draw, int phases, double exit) {
  Matrix t = Matrix::Zero(phases, phases);
  for (int i = 0; i < phases; ++i)
    for (int j = 0; j < phases; ++j)
      if (i != j && draw.chance(0.7)) t(i, j) = draw.real(0.05, 2.5);
  for (int i = 0; i < phases; ++i) t(i, i) = -(t.row(i).sum() + exit);
  return model::PhaseType(random_initial(draw, phases), t);
}

// Rates on a grid of 2^-10: sums of a few of them are exact in floating point, so the rows of a
// generator built from them sum to exactly zero whatever the order of the additions.
double dyadic(double rate) { return std::max(1.0, std::round(rate * 1024.0)) / 1024.0; }

// D_0..D_kmax of one mode. A cycle through all phases, spread over random D_k, makes D(1)
// irreducible; the diagonal of D_0 is set last so that every row of D(1) sums to zero.
model::Bmap random_bmap(Draw& draw, int phases, int kmax, double scale) {
  std::vector<Matrix> d(kmax + 1, Matrix::Zero(phases, phases));
  for (int k = 0; k <= kmax; ++k)
    for (int i = 0; i < phases; ++i)
      for (int j = 0; j < phases; ++j)
        if ((k > 0 || i != j) && draw.chance(0.4))
          d[k](i, j) = dyadic(draw.real(0.05, 1.5) * scale / (k + 1));
  for (int i = 0; i < phases; ++i) {
    const int next = (i + 1) % phases;
    const int k = next == i ? draw.integer(1, kmax) : draw.integer(0, kmax);
    d[k](i, next) += dyadic(draw.real(0.1, 1.0) * scale);
  }
  // The largest batch really occurs, so max_batch() says what the model does.
  d[kmax](draw.integer(0, phases - 1), draw.integer(0, phases - 1)) +=
      dyadic(draw.real(0.1, 1.0) * scale);
  for (int i = 0; i < phases; ++i) {
    double others = 0;
    for (int k = 0; k <= kmax; ++k)
      for (int j = 0; j < phases; ++j)
        if (k > 0 || j != i) others += d[k](i, j);
    d[0](i, i) = -others;
  }
  return model::Bmap(std::move(d));
}

model::Policy random_policy(Draw& draw, int modes, int capacity) {
  if (draw.chance(0.3)) {
    std::vector<int> thresholds(modes - 1);
    for (int& j : thresholds) j = draw.integer(-1, capacity);
    std::sort(thresholds.begin(), thresholds.end());
    return model::Policy::from_thresholds(thresholds, modes, capacity);
  }
  std::vector<int> levels(capacity + 1);
  for (int& robots : levels) robots = draw.integer(1, modes);
  return model::Policy::from_levels(levels, modes, capacity);
}

double random_cost(Draw& draw) { return draw.chance(0.2) ? 0.0 : draw.real(0.0, 5.0); }

model::Model draw_model(Draw& draw, std::uint64_t seed, const RandomModelOptions& options) {
  const int w = draw.integer(1, 3);
  const int m = draw.integer(1, 3);
  const int r = draw.integer(options.clock_phases[0], options.clock_phases[1]);
  const int modes = draw.integer(1, 4);
  const int capacity = draw.integer(options.capacities[0], options.capacities[1]);
  const int max_batch = options.single_arrivals ? 1 : draw.integer(2, 4);
  const bool expires = !draw.chance(0.25) || options.always_expires;
  const auto admission =
      draw.chance(0.5) ? model::Admission::kPartial : model::Admission::kRejectBatch;

  std::vector<model::Bmap> bmaps;
  for (int mode = 0; mode < modes; ++mode) {
    // One mode always carries the largest batch, the others may stop earlier.
    const int kmax = mode == 0 ? max_batch : draw.integer(1, max_batch);
    bmaps.push_back(random_bmap(draw, w, kmax, draw.real(0.3, 2.0)));
  }
  model::PhaseType service = random_phase_type(draw, m, draw.real(0.5, 3.0));
  std::optional<model::PhaseType> obsolescence;
  if (expires) obsolescence = random_phase_type(draw, r, draw.real(0.2, 1.5));
  model::Costs costs{.loss = random_cost(draw),
                     .obsolescence = random_cost(draw),
                     .sojourn = random_cost(draw),
                     .robot = random_cost(draw),
                     .starvation = random_cost(draw),
                     .holding = 0};
  model::Policy policy = random_policy(draw, modes, capacity);
  // From a stream of its own, so that the other draws (and the seeds other tests list) stay as they
  // were.
  Draw holding_draw(seed * 2654435761u + 17);
  if (options.holding_cost) costs.holding = random_cost(holding_draw);
  return model::Model{.name = "random-" + std::to_string(seed),
                      .capacity = capacity,
                      .admission = admission,
                      .arrivals = model::ArrivalModes(std::move(bmaps)),
                      .service = std::move(service),
                      .obsolescence = std::move(obsolescence),
                      .costs = costs,
                      .policy = std::move(policy)};
}

}  // namespace

model::ControlPolicy random_control_policy(const model::Model& model, std::uint64_t seed,
                                           PolicyForm form) {
  Draw draw(seed * 7919 + static_cast<std::uint64_t>(form));
  const int n = model.modes(), k = model.capacity, w = model.arrivals.phases();
  const auto table = [&](int columns) {
    std::vector<std::vector<int>> rows(k + 1, std::vector<int>(columns));
    for (auto& row : rows)
      for (int& robots : row) robots = draw.integer(1, n);
    return rows;
  };
  switch (form) {
    case PolicyForm::kLevels:
      return random_policy(draw, n, k);
    case PolicyForm::kPhaseAware:
      return model::make_phase_aware(table(w), n, k, w, "policy.phase-aware");
    case PolicyForm::kMemory: {
      auto next = table(n);
      next[0].assign(n, draw.integer(1, n));
      return model::make_memory(std::move(next), n, k, "policy.memory");
    }
    case PolicyForm::kTable: {
      std::vector<int> robots(static_cast<std::size_t>(chain_size(model)));
      for (int& r : robots) r = draw.integer(1, n);
      return model::make_table(
          std::move(robots), k, model.arrivals.phases(), model.service.phases(),
          model.obsolescence ? model.obsolescence->phases() : 1, n, "random table", "policy.table");
    }
    case PolicyForm::kHysteresis: {
      if (n < 2) return random_policy(draw, n, k);
      const int off = draw.integer(1, k);
      return model::make_hysteresis(n, draw.integer(1, n - 1), off, draw.integer(0, off - 1), n, k,
                                    "policy.hysteresis");
    }
  }
  return random_policy(draw, n, k);
}

model::Model random_lumpable_model(std::uint64_t seed, long max_states) {
  model::Model lumpable = random_model(seed, {.single_arrivals = seed % 5 == 0,
                                              .max_states = max_states,
                                              .holding_cost = true,
                                              .capacities = {2, 5},
                                              .clock_phases = {2, 3},
                                              .always_expires = true});
  Draw draw(seed * 104729 + 7);
  lumpable.obsolescence =
      random_common_exit_law(draw, lumpable.obsolescence->phases(), draw.real(0.1, 1.8));
  return lumpable;
}

long chain_size(const model::Model& model) {
  const long r = model.obsolescence ? model.obsolescence->phases() : 1;
  long per_server_phase = 0, clocks = 1;
  for (int level = 1; level <= model.capacity; ++level, clocks *= r) per_server_phase += clocks;
  return model.arrivals.phases() * (1 + model.service.phases() * per_server_phase);
}

RandomModelOptions split_models() {
  return {
      .max_states = 20000, .capacities = {8, 13}, .clock_phases = {2, 3}, .always_expires = true};
}

model::Model random_model(std::uint64_t seed, const RandomModelOptions& options) {
  Draw draw(seed);
  while (true) {
    model::Model model = draw_model(draw, seed, options);
    if (chain_size(model) <= options.max_states) return model;
  }
}

std::string describe(const model::Model& model) {
  const Eigen::IOFormat format(Eigen::FullPrecision, 0, ", ", "; ", "", "", "[", "]");
  std::ostringstream out;
  out.precision(17);
  out << model.name << ": K=" << model.capacity << " admission="
      << (model.admission == model::Admission::kPartial ? "partial" : "reject-batch")
      << " W=" << model.arrivals.phases() << " M=" << model.service.phases()
      << " R=" << (model.obsolescence ? model.obsolescence->phases() : 0) << " N=" << model.modes()
      << " kmax=" << model.arrivals.max_batch() << " states=" << chain_size(model) << "\n  levels:";
  if (model.level_map())
    for (int robots : model.level_map()->levels()) out << ' ' << robots;
  for (int r = 1; r <= model.modes(); ++r) {
    const auto& bmap = model.arrivals.mode(r);
    for (int k = 0; k <= bmap.max_batch(); ++k)
      out << "\n  D" << k << "^(" << r << ") = " << bmap.d(k).format(format);
  }
  out << "\n  beta = " << model.service.initial().format(format)
      << "\n  S = " << model.service.subgenerator().format(format);
  if (model.obsolescence)
    out << "\n  gamma = " << model.obsolescence->initial().format(format)
        << "\n  Gamma = " << model.obsolescence->subgenerator().format(format);
  const auto& c = model.costs;
  out << "\n  costs: loss=" << c.loss << " obsolescence=" << c.obsolescence
      << " sojourn=" << c.sojourn << " robot=" << c.robot << " starvation=" << c.starvation
      << " holding=" << c.holding;
  return out.str();
}

model::Rhythm random_rhythm(std::uint64_t seed) {
  std::mt19937_64 random(seed * 7919 + 13);
  std::uniform_real_distribution<double> scale(0.25, 2.4), period(0.4, 10.0);
  model::Rhythm rhythm{.period = period(random), .scales = {}};
  const int pieces = 2 + static_cast<int>(random() % 4);
  for (int i = 0; i < pieces; ++i) rhythm.scales.push_back(scale(random));
  return rhythm;
}

}  // namespace crawlq::crosscheck
