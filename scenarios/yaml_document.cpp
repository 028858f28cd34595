#include "scenarios/yaml_document.hpp"

#include <algorithm>
#include <optional>

#include "model/text_file.hpp"

namespace crawlq::scenarios {

namespace {

// Flow collections nested deeper than this are refused before the (recursive) parser sees them.
constexpr int kMostNesting = 64;

struct Place {
  int line = 1, column = 1;
};

// Where [ or { first opens a level deeper than kMostNesting, outside quotes and comments.
std::optional<Place> too_deep(const std::string& text) {
  int depth = 0;
  Place at;
  char quote = 0;
  bool comment = false;
  for (const char c : text) {
    if (c == '\n') {
      ++at.line, at.column = 1, comment = false;
      continue;
    }
    if (!comment) {
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '#') {
        comment = true;
      } else if (c == '[' || c == '{') {
        if (++depth > kMostNesting) return at;
      } else if ((c == ']' || c == '}') && depth > 0) {
        --depth;
      }
    }
    ++at.column;
  }
  return std::nullopt;
}

// Aliases let a short text name a graph whose expansion is exponential (a "billion laughs": nine
// lists of nine aliases to the list before hold 10^9 numbers in 2 KB) or endless (an alias inside
// the list it names). Every reader of a document walks its expansion (a scenario's keys, its JSON
// form), so each document is walked once here under a budget: as many nodes as a text without
// aliases could hold (fewer than two a byte: `{a,b}` is five), a million at least, nested no deeper
// than flow collections may be. Flow ones are counted as too_deep counts them in the text, so only
// aliases take them past it here; block ones (by indentation) apart, to the same limit.
class ExpansionBudget {
 public:
  ExpansionBudget(std::size_t text_bytes, const std::string& label)
      : left_(std::max<std::size_t>(std::size_t{1} << 20, 2 * text_bytes)),
        most_(left_),
        label_(label) {}

  // `flow` and `block`: the flow and block collections around `node`.
  void walk(const YAML::Node& node, int flow, int block) {
    if (left_-- == 0)
      refuse(node,
             fmt::format("aliases expand to more than {} nodes (aliases of lists of aliases?)",
                         most_));
    if (!node.IsSequence() && !node.IsMap()) return;
    if (node.Style() == YAML::EmitterStyle::Flow)
      ++flow;
    else
      ++block;
    if (flow > kMostNesting)
      refuse(node, fmt::format(
                       "nested more than {} deep through aliases (an alias inside what it names?)",
                       kMostNesting));
    if (block > kMostNesting)
      refuse(node,
             fmt::format(
                 "lists or mappings nested more than {} deep by indentation or through aliases",
                 kMostNesting));
    if (node.IsSequence()) {
      for (const auto& item : node) walk(item, flow, block);
    } else {
      for (const auto& entry : node) {
        walk(entry.first, flow, block);
        walk(entry.second, flow, block);
      }
    }
  }

 private:
  [[noreturn]] void refuse(const YAML::Node& node, const std::string& why) const {
    const YAML::Mark mark = node.Mark();
    throw ScenarioError(
        fmt::format("{}: line {}, column {}: {}", label_, mark.line + 1, mark.column + 1, why));
  }

  std::size_t left_, most_;
  const std::string& label_;
};

}  // namespace

std::string read_file(const std::filesystem::path& file) {
  try {
    return model::read_text_file(file, "a scenario file", model::kMostScenarioBytes);
  } catch (const model::InputError& e) {
    throw ScenarioError(e.what());
  }
}

YAML::Node load_yaml(const std::string& text, const std::string& label) {
  // Text from memory too (the Python package's, the lab's): its messages quote it, as UTF-8.
  try {
    model::require_utf8(text, label);
  } catch (const model::InputError& e) {
    throw ScenarioError(e.what());
  }
  if (const auto place = too_deep(text))
    throw ScenarioError(
        fmt::format("{}: line {}, column {}: lists or mappings nested more than {} deep", label,
                    place->line, place->column, kMostNesting));
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ScenarioError(fmt::format("{}: line {}, column {}: not valid YAML: {}", label,
                                    e.mark.line + 1, e.mark.column + 1, shortened(e.msg)));
  }
  ExpansionBudget(text.size(), label).walk(root, 0, 0);
  return root;
}

}  // namespace crawlq::scenarios
