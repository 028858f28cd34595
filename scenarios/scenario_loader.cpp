#include "scenarios/scenario_loader.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <variant>

#include "model/bmap.hpp"
#include "model/input_error.hpp"
#include "model/rate_checks.hpp"
#include "scenarios/law_reader.hpp"
#include "scenarios/policy_section.hpp"
#include "scenarios/policy_table.hpp"
#include "scenarios/shipped_files.hpp"
#include "scenarios/time_unit_key.hpp"
#include "scenarios/yaml_document.hpp"
#include "scenarios/yaml_reader.hpp"

namespace crawlq::scenarios {

namespace {

using model::Matrix;

// Files print rates to a few digits, so D_0's diagonal may not cancel the other entries exactly
// (ERRATA.md, the real-data example). With `repair-diagonal: true` it is recomputed and reported.
// S and Gamma are left alone: their diagonals carry the exit rates, which no other entry implies.
void repair_d0(std::vector<Matrix>& d, const std::string& key, std::vector<std::string>& repairs) {
  Matrix& d0 = d[0];
  for (Eigen::Index i = 0; i < d0.rows(); ++i) {
    const double repaired = model::d0_diagonal(d, i);
    if (std::abs(repaired - d0(i, i)) > 1e-15 * std::max(1.0, std::abs(repaired))) {
      repairs.push_back(fmt::format("{}[0] row {}: diagonal {} replaced by {} (minus the row sums)",
                                    key, i, d0(i, i), repaired));
      d0(i, i) = repaired;
    }
  }
}

// q scales the base's batch rates, so a q too small makes a mode whose least batch rate is below
// kSmallestRate (or vanishes). A probability has no time unit to change: say the least q.
void check_acceptance_size(const model::Bmap& base, double q, const std::string& key) {
  double least = model::kLargestRate;
  for (std::size_t k = 1; k < base.matrices().size(); ++k)
    for (const double rate : base.matrices()[k].reshaped())
      if (rate > 0) least = std::min(least, rate);
  if (q * least >= model::kSmallestRate) return;
  double least_q = model::kSmallestRate / least;
  if (least_q * least < model::kSmallestRate) least_q = std::nextafter(least_q, 1.0);
  throw model::InputError(
      key, fmt::format("{}: makes the base's least batch rate, {}, a rate of {}, below {:g}: q is "
                       "a probability, so the least usable here is {}",
                       q, least, q * least, model::kSmallestRate, least_q));
}

class Loader {
 public:
  explicit Loader(bool repair) : repair_(repair) {}

  // A mode's or a robot's arrivals: {D: [D0, D1, ...]} or Poisson batches {rate: r, batch: [...]}.
  model::Bmap bmap(const YamlReader& holder) {
    holder.require_map();
    if (!holder.has("D")) {
      if (holder.has("rate")) return read_poisson_batches(holder);
      throw model::InputError(
          holder.path(),
          "give D: [D0, D1, ...] or Poisson batches {rate: r, batch: [d_1, d_2, ...]}");
    }
    holder.allow_only({"D"});
    const YamlReader d = holder.at("D");
    std::vector<Matrix> matrices = d.matrices();
    if (repair_) {
      model::check_bmap_shapes(matrices, d.path());  // the repair reads every D_k beside D_0
      repair_d0(matrices, d.path(), repairs_);
    }
    return model::Bmap(std::move(matrices), d.path());
  }

  model::ArrivalModes arrivals(const YamlReader& a) {
    a.require_map();
    const std::string kind = a.at("kind").text();
    if (kind == "per-mode") {
      a.allow_only({"kind", "modes"});
      const YamlReader modes = a.at("modes");
      std::vector<model::Bmap> bmaps;
      for (std::size_t r = 0; r < modes.size(); ++r) bmaps.push_back(bmap(modes.at(r)));
      if (bmaps.empty()) throw model::InputError(modes.path(), "no modes: need at least one");
      return model::ArrivalModes(std::move(bmaps), modes.path());
    }
    if (kind == "poisson") {
      a.allow_only({"kind", "modes"});
      const YamlReader modes = a.at("modes");
      std::vector<model::Bmap> bmaps;
      for (std::size_t r = 0; r < modes.size(); ++r) {
        const YamlReader mode = modes.at(r);
        mode.require_map();
        if (mode.has("D"))
          throw model::InputError(
              mode.path() + ".D",
              "kind poisson takes {rate, batch}; for matrices use kind: per-mode");
        bmaps.push_back(read_poisson_batches(mode));
      }
      if (bmaps.empty()) throw model::InputError(modes.path(), "no modes: need at least one");
      return model::ArrivalModes(std::move(bmaps), modes.path());
    }
    if (kind == "independent") {
      a.allow_only({"kind", "robots"});
      const YamlReader robots = a.at("robots");
      std::vector<model::Bmap> bmaps;
      for (std::size_t r = 0; r < robots.size(); ++r) bmaps.push_back(bmap(robots.at(r)));
      if (bmaps.empty()) throw model::InputError(robots.path(), "no robots: need at least one");
      return model::independent_robots(bmaps);
    }
    if (kind == "thinning") {
      a.allow_only({"kind", "base", "accept"});
      const model::Bmap base = bmap(a.at("base"));
      const YamlReader accept = a.at("accept");
      const auto q = accept.numbers();
      if (q.empty()) throw model::InputError(accept.path(), "empty: need q_1 .. q_N");
      for (std::size_t r = 0; r < q.size(); ++r) {
        const std::string key = fmt::format("{}[{}]", accept.path(), r);
        if (q[r] <= 0 || q[r] > 1)
          throw model::InputError(key, fmt::format("{} outside (0, 1]", q[r]));
        check_acceptance_size(base, q[r], key);
        if (r > 0 && q[r] <= q[r - 1])
          throw model::InputError(
              key,
              fmt::format("{} not above q_{} = {}: need 0 < q_1 < ... < q_N", q[r], r, q[r - 1]));
      }
      if (q.back() != 1.0)
        throw model::InputError(
            fmt::format("{}[{}]", accept.path(), q.size() - 1),
            fmt::format("{}: q_N must be 1 (all robots accept every batch)", q.back()));
      return model::thinned(base, q);
    }
    if (kind == "marked") {
      a.allow_only({"kind", "D0", "robots"});
      const YamlReader d0_reader = a.at("D0");
      Matrix d0 = d0_reader.matrix();
      const YamlReader robots = a.at("robots");
      std::vector<std::vector<Matrix>> marked;
      for (std::size_t r = 0; r < robots.size(); ++r) {
        const YamlReader robot = robots.at(r);
        robot.allow_only({"D"});
        const YamlReader d = robot.at("D");
        marked.push_back(d.matrices());
        for (std::size_t k = 0; k < marked.back().size(); ++k) {
          const Matrix& m = marked.back()[k];
          const std::string key = fmt::format("{}[{}]", d.path(), k);
          if (m.rows() != d0.rows() || m.cols() != d0.cols())
            throw model::InputError(key, fmt::format("{}x{} but D0 is {}x{}", m.rows(), m.cols(),
                                                     d0.rows(), d0.cols()));
          model::check_nonnegative_entries(m, key);
        }
      }
      if (marked.empty()) throw model::InputError(robots.path(), "no robots: need at least one");
      if (d0.rows() != d0.cols())
        throw model::InputError(d0_reader.path(),
                                fmt::format("{}x{}: not square", d0.rows(), d0.cols()));
      if (repair_) {
        std::vector<Matrix> all{d0};
        for (const auto& robot : marked) all.insert(all.end(), robot.begin(), robot.end());
        repair_d0(all, d0_reader.path(), repairs_);
        d0 = all[0];
      }
      // The rules on D0 under its own key: the modes built from it would otherwise report them.
      model::check_offdiagonal_nonnegative(d0, d0_reader.path());
      std::vector<Matrix> all_rates{d0};
      for (const auto& robot : marked)
        all_rates.insert(all_rates.end(), robot.begin(), robot.end());
      model::check_conservative(all_rates, d0_reader.path() + " (with every robot's D)");
      return model::marked(d0, marked);
    }
    if (kind == "scaled") {
      a.allow_only({"kind", "base", "factors"});
      const model::Bmap base = bmap(a.at("base"));
      const YamlReader factors = a.at("factors");
      const auto f = factors.numbers();
      if (f.empty()) throw model::InputError(factors.path(), "empty: need f_1 .. f_N");
      for (std::size_t r = 0; r < f.size(); ++r)
        if (f[r] <= 0)
          throw model::InputError(fmt::format("{}[{}]", factors.path(), r),
                                  fmt::format("{}: a factor must be positive", f[r]));
      return model::scaled(base, f);
    }
    throw model::InputError(a.path() + ".kind",
                            fmt::format("unknown kind {} (known: per-mode, poisson, independent, "
                                        "thinning, marked, scaled)",
                                        a.at("kind").shown()));
  }

  std::vector<std::string> take_repairs() { return std::move(repairs_); }

 private:
  bool repair_;
  std::vector<std::string> repairs_;
};

model::Costs costs(const YamlReader& r) {
  std::vector<std::string> keys;
  for (const auto& w : model::cost_weights()) keys.emplace_back(w.key);
  r.allow_only(keys);
  model::Costs c;
  const auto read = [&](const std::string& key, double& into) {
    if (!r.has(key)) return;
    const YamlReader v = r.at(key);
    into = v.number();
    if (into < 0) throw model::InputError(v.path(), fmt::format("negative cost {}", into));
    // A weight times a rate times the intervals' spread must stay a double (1e308: an inf cost).
    if (into > model::kLargestRate)
      throw model::InputError(v.path(), fmt::format("{}: a cost weight may be at most {:g}", into,
                                                    model::kLargestRate));
  };
  for (const auto& w : model::cost_weights()) read(std::string(w.key), c.*w.weight);
  return c;
}

// rhythm: {period: T, scales: [s_1, ..., s_n]}, each piece's arrivals checked as a model's.
model::Rhythm read_rhythm(const YamlReader& r, const model::Model& model) {
  r.require_map();
  r.allow_only({"period", "scales"});
  model::Rhythm rhythm;
  const YamlReader period = r.at("period");
  rhythm.period = period.number();
  if (!(rhythm.period > 0) || !std::isfinite(rhythm.period) || rhythm.period > model::kLargestRate)
    throw model::InputError(period.path(),
                            fmt::format("{}: the period must be a positive time, at most {:g}",
                                        rhythm.period, model::kLargestRate));
  const YamlReader scales = r.at("scales");
  scales.require_sequence();
  if (scales.size() == 0)
    throw model::InputError(scales.path(), "empty: give one arrival scale per piece of the period");
  if (scales.size() > model::kMostRhythmPieces)
    throw model::InputError(scales.path(), fmt::format("{} pieces: a rhythm may have at most {}",
                                                       scales.size(), model::kMostRhythmPieces));
  for (std::size_t i = 0; i < scales.size(); ++i) {
    const YamlReader scale = scales.at(i);
    const double s = scale.number();
    if (!(s > 0) || !std::isfinite(s))
      throw model::InputError(
          scale.path(),
          fmt::format("{}: an arrival scale must be finite and greater than 0 (a piece without "
                      "arrivals is a scale near 0, such as 1e-6)",
                      s));
    try {
      (void)model::scaled_arrivals(model.arrivals, s);
    } catch (const model::InputError& e) {
      throw model::InputError(
          scale.path(), fmt::format("{}: the piece's arrivals break a rule: {}", s, e.what()));
    }
    rhythm.scales.push_back(s);
  }
  return rhythm;
}

// policy: {by_piece: [<policy>, ...]}: a policy per piece of the rhythm, a shorter list repeated.
std::vector<model::ControlPolicy> read_piece_policies(const YamlReader& section,
                                                      const YamlReader& root,
                                                      const PolicyDimensions& dimensions) {
  section.allow_only({"by_piece"});
  const YamlReader list = section.at("by_piece");
  list.require_sequence();
  if (!root.has("rhythm"))
    throw model::InputError(list.path(),
                            "a policy per piece needs a rhythm: add rhythm: {period: T, scales: "
                            "[...]}, one scale per piece");
  const std::size_t pieces =
      root.at("rhythm").has("scales") ? root.at("rhythm").at("scales").size() : 0;
  if (list.size() == 0)
    throw model::InputError(list.path(), "empty: give a policy per piece of the rhythm");
  if (pieces > 0 && list.size() > pieces)
    throw model::InputError(list.path(),
                            fmt::format("{} policies for {} pieces: give one per piece, or fewer "
                                        "to repeat them",
                                        list.size(), pieces));
  std::vector<model::ControlPolicy> policies;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YamlReader entry = list.at(i);
    if (entry.node().IsMap() && entry.has("by_piece"))
      throw model::InputError(entry.path(), "a piece's policy cannot itself be by piece");
    policies.push_back(read_policy_section(entry, dimensions));
  }
  // One chain runs every piece: the forms that add the mode in force to the state must agree.
  const auto remembers = [](const model::ControlPolicy& p) {
    return std::holds_alternative<model::MemoryPolicy>(p) ||
           std::holds_alternative<model::HysteresisPolicy>(p);
  };
  for (std::size_t i = 1; i < policies.size(); ++i)
    if (remembers(policies[i]) != remembers(policies[0]) ||
        std::holds_alternative<model::TablePolicy>(policies[i]) !=
            std::holds_alternative<model::TablePolicy>(policies[0]))
      throw model::InputError(
          fmt::format("{}[{}]", list.path(), i),
          fmt::format("a {} policy beside a {} one: the pieces' policies must run on the same "
                      "states (memory and hysteresis add the mode in force, a table is over the "
                      "whole state)",
                      model::policy_kind(policies[i]), model::policy_kind(policies[0])));
  return policies;
}

// The dimensions a `policy:` section of `model`'s sizes is read against.
PolicyDimensions dimensions_of(int modes, int capacity, int phases, int service_phases,
                               int clock_phases, const std::filesystem::path& directory) {
  return {.modes = modes,
          .capacity = capacity,
          .arrival_phases = phases,
          .service_phases = service_phases,
          .clock_phases = clock_phases,
          .directory = directory};
}

Scenario build(const YamlReader& root, const std::filesystem::path& directory) {
  root.require_map();
  if (root.has("refresh") && !root.has("arrivals"))
    throw model::InputError(
        "refresh", "a page refresh scenario: run `crawlq refresh` on it, not a queue command");
  root.allow_only({"name", "source", "time_unit", "capacity", "admission", "arrivals", "service",
                   "obsolescence", "costs", "policy", "rhythm", "repair-diagonal"});
  const bool repair = root.has("repair-diagonal") && root.at("repair-diagonal").boolean();

  const YamlReader capacity_reader = root.at("capacity");
  const int capacity = capacity_reader.integer();
  if (capacity < 1)
    throw model::InputError(capacity_reader.path(),
                            fmt::format("{}: K must be at least 1", capacity));
  if (capacity > model::kMostCapacity)
    throw model::InputError(
        capacity_reader.path(),
        fmt::format("{}: K may be at most {} (a policy holds an entry per level)", capacity,
                    model::kMostCapacity));

  model::Admission admission = model::Admission::kPartial;
  if (root.has("admission")) {
    const YamlReader a = root.at("admission");
    if (!model::kAdmissionNames.contains(a.text()))
      throw model::InputError(a.path(), fmt::format("unknown rule {} (known: {})", a.shown(),
                                                    model::kAdmissionNames.known()));
    admission = model::kAdmissionNames.parse(a.text());
  }

  Loader loader(repair);
  model::ArrivalModes arrivals = loader.arrivals(root.at("arrivals"));
  model::PhaseType service = read_phase_type(root.at("service"), "beta", "S");
  std::optional<model::PhaseType> obsolescence;
  if (root.has("obsolescence"))
    obsolescence = read_phase_type(root.at("obsolescence"), "gamma", "Gamma");
  const model::Costs c = root.has("costs") ? costs(root.at("costs")) : model::Costs{};
  std::optional<model::ControlPolicy> p;
  std::vector<model::ControlPolicy> by_piece;
  const PolicyDimensions dimensions =
      dimensions_of(arrivals.modes(), capacity, arrivals.phases(), service.phases(),
                    obsolescence ? obsolescence->phases() : 1, directory);
  if (root.has("policy")) {
    const YamlReader section = root.at("policy");
    if (section.node().IsMap() && section.has("by_piece")) {
      by_piece = read_piece_policies(section, root, dimensions);
      p = by_piece.front();
    } else {
      p = read_policy_section(section, dimensions);
    }
  }

  Scenario scenario{model::Model{.name = root.has("name") ? root.at("name").text() : "",
                                 .capacity = capacity,
                                 .admission = admission,
                                 .arrivals = std::move(arrivals),
                                 .service = std::move(service),
                                 .obsolescence = std::move(obsolescence),
                                 .costs = c,
                                 .policy = std::move(p),
                                 .piece_policies = std::move(by_piece),
                                 .time_unit = time_unit_key(root),
                                 .rhythm = std::nullopt},
                    loader.take_repairs(), root.has("source") ? root.at("source").text() : ""};
  if (root.has("rhythm")) scenario.model.rhythm = read_rhythm(root.at("rhythm"), scenario.model);
  return scenario;
}

}  // namespace

Scenario parse_scenario(const std::string& text, const std::string& label,
                        const std::filesystem::path& directory) {
  return parse_yaml_document<Scenario>(
      text, label, [&](const YamlReader& root) { return build(root, directory); });
}

model::ControlPolicy load_policy(const std::filesystem::path& file, const model::Model& model) {
  const int clock_phases = model.obsolescence ? model.obsolescence->phases() : 1;
  if (file.extension() == ".csv")
    return model::make_table(read_policy_table(file), model.capacity, model.arrivals.phases(),
                             model.service.phases(), clock_phases, model.modes(), file.string(),
                             file.string());
  return parse_policy(read_file(file), file.string(), model, file.parent_path());
}

model::ControlPolicy parse_policy(const std::string& text, const std::string& label,
                                  const model::Model& model,
                                  const std::filesystem::path& directory) {
  const int clock_phases = model.obsolescence ? model.obsolescence->phases() : 1;
  return parse_yaml_document<model::ControlPolicy>(text, label, [&](const YamlReader& root) {
    return read_policy_section(root.has("policy") ? root.at("policy") : root,
                               dimensions_of(model.modes(), model.capacity, model.arrivals.phases(),
                                             model.service.phases(), clock_phases, directory));
  });
}

bool holds_scenario(const std::filesystem::path& file) {
  try {
    const YAML::Node root = YAML::Load(read_file(file));
    return root.IsMap() && root["arrivals"];
  } catch (const std::exception&) {
    return false;
  }
}

Scenario load_scenario(const std::filesystem::path& as_written) {
  const std::filesystem::path file = locate_scenario(as_written.string());
  return parse_scenario(read_file(file), file.string(), file.parent_path());
}

}  // namespace crawlq::scenarios
