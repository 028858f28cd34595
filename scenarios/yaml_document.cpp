#include "scenarios/yaml_document.hpp"

#include <array>
#include <optional>
#include <fstream>

namespace crawlq::scenarios {

namespace {

// The largest scenario file read: the paper's examples are a few kilobytes; a model with hundreds of
// phases is a few megabytes.
constexpr std::size_t kMostFileBytes = 64u << 20;
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

}  // namespace

std::string read_file(const std::filesystem::path& file) {
  std::error_code error;
  if (std::filesystem::is_directory(file, error))
    throw ScenarioError(fmt::format("{}: a directory, not a scenario file", file.string()));
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ScenarioError(fmt::format("{}: cannot open the file", file.string()));
  std::string text;
  std::array<char, 1 << 16> chunk{};
  while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMostFileBytes)
      throw ScenarioError(fmt::format("{}: more than {} MiB: not a scenario file", file.string(), kMostFileBytes >> 20));
  }
  if (in.bad()) throw ScenarioError(fmt::format("{}: cannot read the file", file.string()));
  return text;
}

YAML::Node load_yaml(const std::string& text, const std::string& label) {
  if (const auto place = too_deep(text))
    throw ScenarioError(fmt::format("{}: line {}, column {}: lists or mappings nested more than {} deep", label,
                                    place->line, place->column, kMostNesting));
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ScenarioError(
        fmt::format("{}: line {}, column {}: not valid YAML: {}", label, e.mark.line + 1, e.mark.column + 1, shortened(e.msg)));
  }
}

}  // namespace crawlq::scenarios
