#include "scenarios/law_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "model/input_error.hpp"
#include "model/named_laws.hpp"

namespace crawlq::scenarios {

namespace {

model::PhaseType read_exponential(const YamlReader& r) {
  r.allow_only({"rate", "mean"});
  if (r.has("rate") == r.has("mean"))
    throw model::InputError(r.path(), "give exactly one of rate and mean");
  if (r.has("rate")) return model::exponential_law(r.at("rate").number(), r.path());
  const YamlReader mean = r.at("mean");
  const double m = mean.number();
  if (!(m > 0)) throw model::InputError(mean.path(), fmt::format("{}: a mean time must be > 0", m));
  // One phase of rate 1 / mean; erlang_law checks that rate in the mean's words.
  return model::erlang_law(1, m, r.path());
}

model::PhaseType read_erlang(const YamlReader& r) {
  r.allow_only({"phases", "mean"});
  const YamlReader phases = r.at("phases");
  const double n = phases.number();
  if (n < 1 || n > model::kMostNamedLawPhases || n != std::floor(n))
    throw model::InputError(phases.path(), fmt::format("{}: give a whole number of phases, 1 to {}",
                                                       phases.shown(), model::kMostNamedLawPhases));
  return model::erlang_law(static_cast<int>(n), r.at("mean").number(), r.path());
}

model::PhaseType read_hyperexponential(const YamlReader& r) {
  r.allow_only({"probabilities", "rates"});
  return model::hyperexponential_law(r.at("probabilities").numbers(), r.at("rates").numbers(),
                                     r.path());
}

struct NamedLaw {
  const char* name;
  const char* example;  // of its parameters
  model::PhaseType (*read)(const YamlReader&);
};

// The one list of laws by name: reading, messages and help all take it from here.
constexpr NamedLaw kNamedLaws[] = {
    {"exponential", "{rate: 2} or {mean: 0.5}", read_exponential},
    {"erlang", "{phases: 3, mean: 1.5}", read_erlang},
    {"hyperexponential", "{probabilities: [0.3, 0.7], rates: [0.5, 4]}", read_hyperexponential},
};

}  // namespace

std::vector<std::string> named_law_names() {
  std::vector<std::string> names;
  for (const NamedLaw& law : kNamedLaws) names.emplace_back(law.name);
  return names;
}

model::PhaseType read_phase_type(const YamlReader& r, const char* initial_key,
                                 const char* matrix_key) {
  const std::vector<std::string> keys = r.keys();
  const std::string choices = fmt::format("{} and {}, or one law by name ({})", initial_key,
                                          matrix_key, fmt::join(named_law_names(), ", "));
  for (const NamedLaw& law : kNamedLaws) {
    if (!r.has(law.name)) continue;
    if (keys.size() > 1) {
      std::vector<std::string> others;
      for (const std::string& key : keys)
        if (key != law.name) others.push_back(key);
      throw model::InputError(r.path(), fmt::format("{} beside {}: give {}, only one of them",
                                                    law.name, fmt::join(others, ", "), choices));
    }
    const YamlReader parameters = r.at(law.name);
    if (!parameters.node().IsMap())
      throw model::InputError(
          parameters.path(),
          fmt::format("give its parameters as a mapping, e.g. {}: {}", law.name, law.example));
    return law.read(parameters);
  }
  for (const std::string& key : keys)
    if (key != initial_key && key != matrix_key)
      throw model::InputError(r.path().empty() ? shortened(key) : r.path() + "." + shortened(key),
                              fmt::format("unknown key (known here: {})", choices));
  if (keys.empty()) throw model::InputError(r.path(), fmt::format("empty: give {}", choices));
  return model::PhaseType(r.at(initial_key).row_vector(), r.at(matrix_key).matrix(), r.path(),
                          initial_key, matrix_key);
}

model::Bmap read_poisson_batches(const YamlReader& r) {
  r.allow_only({"rate", "batch"});
  const std::vector<double> batch =
      r.has("batch") ? r.at("batch").numbers() : std::vector<double>{1.0};
  return model::poisson_batches(r.at("rate").number(), batch, r.path());
}

}  // namespace crawlq::scenarios
