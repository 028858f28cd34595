#include "scenarios/policy_section.hpp"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "model/input_error.hpp"
#include "scenarios/policy_table.hpp"

namespace crawlq::scenarios {

namespace {

// A form's keys in a section. Left undefined for a form nobody gave keys to, so that form fails to
// compile here rather than be refused at run time as an unknown key.
template <class Form>
struct FormKeys;
template <>
struct FormKeys<model::Policy> {
  static constexpr std::array<std::string_view, 2> keys{"thresholds", "levels"};
};
template <>
struct FormKeys<model::HysteresisPolicy> {
  static constexpr std::array<std::string_view, 1> keys{"hysteresis"};
};
template <>
struct FormKeys<model::PhaseAwarePolicy> {
  static constexpr std::array<std::string_view, 1> keys{"phase-aware"};
};
template <>
struct FormKeys<model::MemoryPolicy> {
  static constexpr std::array<std::string_view, 1> keys{"memory"};
};
template <>
struct FormKeys<model::TablePolicy> {
  static constexpr std::array<std::string_view, 1> keys{"table"};
};

std::vector<std::vector<int>> rows(const YamlReader& table) {
  std::vector<std::vector<int>> robots;
  for (std::size_t level = 0; level < table.size(); ++level)
    robots.push_back(table.at(level).integers());
  return robots;
}

// One reader per form, chosen by its type: a form without one does not compile.
model::ControlPolicy read(std::type_identity<model::Policy>, const YamlReader& value,
                          std::string_view key, const PolicyDimensions& d) {
  if (key == "thresholds")
    return model::Policy::from_thresholds(value.integers(), d.modes, d.capacity, value.path());
  return model::Policy::from_levels(value.integers(), d.modes, d.capacity, value.path());
}

model::ControlPolicy read(std::type_identity<model::HysteresisPolicy>, const YamlReader& value,
                          std::string_view, const PolicyDimensions& d) {
  value.allow_only({"high", "low", "switch_off", "switch_on"});
  return model::make_hysteresis(value.at("high").integer(), value.at("low").integer(),
                                value.at("switch_off").integer(), value.at("switch_on").integer(),
                                d.modes, d.capacity, value.path());
}

model::ControlPolicy read(std::type_identity<model::PhaseAwarePolicy>, const YamlReader& value,
                          std::string_view, const PolicyDimensions& d) {
  return model::make_phase_aware(rows(value), d.modes, d.capacity, d.arrival_phases, value.path());
}

model::ControlPolicy read(std::type_identity<model::MemoryPolicy>, const YamlReader& value,
                          std::string_view, const PolicyDimensions& d) {
  return model::make_memory(rows(value), d.modes, d.capacity, value.path());
}

model::ControlPolicy read(std::type_identity<model::TablePolicy>, const YamlReader& value,
                          std::string_view, const PolicyDimensions& d) {
  if (model::chain_states(d.capacity, d.arrival_phases, d.service_phases, d.clock_phases) == 0)
    throw model::InputError(value.path(),
                            "the chain has more than 2^40 states: no table can list them");
  // The robots column itself, for callers that hold a table as data (the lab reads no file a
  // request names).
  if (value.is_sequence())
    return model::make_table(value.integers(), d.capacity, d.arrival_phases, d.service_phases,
                             d.clock_phases, d.modes, value.path(), value.path());
  const std::filesystem::path file = d.directory / value.text();
  return model::make_table(read_policy_table(file), d.capacity, d.arrival_phases, d.service_phases,
                           d.clock_phases, d.modes, file.string(), value.path());
}

template <std::size_t... Form>
std::vector<std::string> keys_of(std::index_sequence<Form...>) {
  std::vector<std::string> keys;
  (
      [&] {
        for (std::string_view key :
             FormKeys<std::variant_alternative_t<Form, model::ControlPolicy>>::keys)
          keys.emplace_back(key);
      }(),
      ...);
  return keys;
}

constexpr auto kForms = std::make_index_sequence<std::variant_size_v<model::ControlPolicy>>();

template <std::size_t... Form>
model::ControlPolicy read_given(const YamlReader& section, const PolicyDimensions& d,
                                std::index_sequence<Form...>) {
  std::optional<model::ControlPolicy> policy;
  (
      [&] {
        using Kind = std::variant_alternative_t<Form, model::ControlPolicy>;
        for (std::string_view key : FormKeys<Kind>::keys)
          if (!policy && section.has(std::string(key)))
            policy = read(std::type_identity<Kind>(), section.at(std::string(key)), key, d);
      }(),
      ...);
  return *policy;
}

std::string one_of(const std::vector<std::string>& keys) {
  std::string list;
  for (std::size_t i = 0; i < keys.size(); ++i)
    list += (i == 0 ? "" : i + 1 == keys.size() ? " or " : ", ") + keys[i];
  return list;
}

}  // namespace

const std::vector<std::string>& policy_keys() {
  static const std::vector<std::string> keys = keys_of(kForms);
  return keys;
}

model::ControlPolicy read_policy_section(const YamlReader& section,
                                         const PolicyDimensions& dimensions) {
  const std::vector<std::string>& keys = policy_keys();
  section.allow_only(keys);
  int given = 0;
  for (const std::string& key : keys) given += section.has(key) ? 1 : 0;
  if (given != 1)
    throw model::InputError(section.path(), fmt::format("give exactly one of {}", one_of(keys)));
  return read_given(section, dimensions, kForms);
}

nlohmann::json policy_section(const model::ControlPolicy& policy) {
  return std::visit(model::Overloaded{[](const model::Policy& levels) {
                                        if (const auto t = levels.thresholds())
                                          return nlohmann::json{{"thresholds", *t}};
                                        return nlohmann::json{{"levels", levels.levels()}};
                                      },
                                      [](const model::PhaseAwarePolicy& table) {
                                        return nlohmann::json{{"phase-aware", table.robots}};
                                      },
                                      [](const model::HysteresisPolicy& h) {
                                        return nlohmann::json{{"hysteresis",
                                                               {{"high", h.high},
                                                                {"low", h.low},
                                                                {"switch_off", h.switch_off},
                                                                {"switch_on", h.switch_on}}}};
                                      },
                                      [](const model::MemoryPolicy& memory) {
                                        return nlohmann::json{{"memory", memory.next}};
                                      },
                                      [](const model::TablePolicy& table) {
                                        return nlohmann::json{{"table", table.robots}};
                                      }},
                    policy);
}

}  // namespace crawlq::scenarios
