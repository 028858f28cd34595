#include "app/measure_words.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/command_support.hpp"
#include "model/measure_list.hpp"
#include "model/number_text.hpp"
#include "model/time_unit.hpp"
#include "model/transient_keys.hpp"

namespace crawlq::app {

namespace {

// "level_probabilities[3]" -> 3 when `key` is `list`'s entry; -1 otherwise.
int entry_of(std::string_view key, std::string_view list) {
  if (!key.starts_with(list) || key.size() < list.size() + 3 || key[list.size()] != '[' ||
      key.back() != ']')
    return -1;
  int index = 0;
  for (char c : key.substr(list.size() + 1, key.size() - list.size() - 2)) {
    if (c < '0' || c > '9') return -1;
    index = 10 * index + (c - '0');
  }
  return index;
}

std::string rows_text(const std::vector<std::vector<int>>& rows) {
  std::vector<std::string> cells;
  for (const auto& row : rows) cells.push_back(fmt::format("{}", fmt::join(row, "/")));
  return fmt::format("{}", fmt::join(cells, " "));
}

}  // namespace

std::string measure_words(std::string_view key, std::string_view time_unit) {
  for (const auto& measure : model::scalar_measures<double>())
    if (measure.name.key == key) {
      std::string words(measure.name.description);
      if (measure.name.unit == model::MeasureUnit::kPagesPerTime)
        words = fmt::format("{} {}", words, model::per_time_unit(time_unit));
      if (measure.name.symbol.empty()) return words;
      return fmt::format("{} ({})", words, measure.name.symbol);
    }
  // A piece's fates, counted by the piece a page was offered in.
  if (key == "p_served_by_arrival") return "of the pages offered then, later served";
  if (key == "p_obsolete_by_arrival") return "of the pages offered then, later stale";
  if (const int level = entry_of(key, "level_probabilities"); level >= 0)
    return fmt::format("P(level {})", level);
  if (const int mode = entry_of(key, "mode_probabilities"); mode >= 0)
    return fmt::format("P({} active)", model::counted(mode + 1, "robot"));
  for (const auto& name : model::kTransientKeys)
    if (name.json == key) {
      if (!model::is_rate(name.key)) return std::string(name.words);
      std::string words(name.words);
      constexpr std::string_view kPer = "per unit time";
      if (const auto at = words.find(kPer); at != std::string::npos)
        words.replace(at, kPer.size(), model::per_time_unit(time_unit));
      return words;
    }
  return std::string(key);
}

std::string policy_words(const model::ControlPolicy& policy) {
  return std::visit(
      model::Overloaded{
          [](const model::Policy& levels) {
            std::string text = fmt::format("robots per level {}", levels_text(levels.levels()));
            if (const auto t = levels.thresholds(); t && !t->empty())
              text += fmt::format("  (thresholds {})", fmt::join(*t, ","));
            return text;
          },
          [](const model::PhaseAwarePolicy& table) {
            return fmt::format("phase-aware, robots by level (/ between arrival phases) {}",
                               rows_text(table.robots));
          },
          [](const model::HysteresisPolicy& h) {
            return fmt::format("hysteresis, {} robots until level {}, then {} until level {}",
                               h.high, h.switch_off, h.low, h.switch_on);
          },
          [](const model::MemoryPolicy& memory) {
            return fmt::format("memory, the next mode by level (/ between modes in force) {}",
                               rows_text(memory.next));
          },
          [](const model::TablePolicy& table) {
            return fmt::format("full-state table {}", table.source);
          }},
      policy);
}

std::string policy_words(const model::Model& model, const model::ControlPolicy& policy) {
  if (model.piece_policies.size() < 2) return policy_words(policy);
  std::string text = "by piece of the rhythm, repeated over its pieces:";
  for (std::size_t i = 0; i < model.piece_policies.size(); ++i)
    text += fmt::format("\n  {}: {}", i, policy_words(model.piece_policies[i]));
  return text;
}

}  // namespace crawlq::app
