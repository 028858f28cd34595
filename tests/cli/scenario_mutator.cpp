#include "tests/cli/scenario_mutator.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace crawlq::cli_test {

namespace {

struct Span {
  std::size_t begin = 0, end = 0;  // [begin, end) in the text
};

// Where edits may land: outside comments and quoted strings.
std::vector<bool> code_mask(const std::string& text) {
  std::vector<bool> code(text.size(), false);
  char quote = 0;
  bool comment = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      comment = false;
      quote = 0;
      continue;
    }
    if (comment) continue;
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '#' && (i == 0 || std::isspace(static_cast<unsigned char>(text[i - 1])))) {
      comment = true;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      continue;
    }
    code[i] = true;
  }
  return code;
}

bool ends_plain_scalar(const std::string& text, std::size_t i) {
  return i == text.size() ||
         std::string_view(" \t\n\r,]}#").find(text[i]) != std::string_view::npos;
}

bool starts_plain_scalar(const std::string& text, std::size_t i) {
  return i == 0 || std::string_view(" \t\n[{,:").find(text[i - 1]) != std::string_view::npos;
}

// Plain numbers as YAML writes them: 5, -0.5, 2.6e-05.
std::vector<Span> numbers(const std::string& text, const std::vector<bool>& code) {
  std::vector<Span> found;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!code[i] || !starts_plain_scalar(text, i)) continue;
    std::size_t j = i;
    if (text[j] == '-' || text[j] == '+') ++j;
    const std::size_t digits_from = j;
    while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.'))
      ++j;
    const bool has_digit =
        j > digits_from && (std::isdigit(static_cast<unsigned char>(text[j - 1])) ||
                            std::isdigit(static_cast<unsigned char>(text[digits_from])));
    if (!has_digit) continue;
    if (j < text.size() && (text[j] == 'e' || text[j] == 'E')) {
      std::size_t k = j + 1;
      if (k < text.size() && (text[k] == '-' || text[k] == '+')) ++k;
      const std::size_t exponent_from = k;
      while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k;
      if (k > exponent_from) j = k;
    }
    if (!ends_plain_scalar(text, j)) continue;
    found.push_back({i, j});
    i = j;
  }
  return found;
}

// Mapping keys: `name:` followed by a space or the end of the line.
std::vector<Span> keys(const std::string& text, const std::vector<bool>& code) {
  std::vector<Span> found;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!code[i] || !starts_plain_scalar(text, i) || text[i] == ':') continue;
    if (!std::isalpha(static_cast<unsigned char>(text[i])) && text[i] != '_') continue;
    std::size_t j = i;
    while (j < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_' || text[j] == '-'))
      ++j;
    if (j < text.size() && text[j] == ':' &&
        (j + 1 == text.size() || text[j + 1] == ' ' || text[j + 1] == '\n'))
      found.push_back({i, j});
    i = j;
  }
  return found;
}

// Plain words after a key (`kind: per-mode`, `repair-diagonal: true`).
std::vector<Span> word_values(const std::string& text, const std::vector<Span>& key_spans) {
  std::vector<Span> found;
  for (const Span& key : key_spans) {
    std::size_t i = key.end + 1;
    while (i < text.size() && text[i] == ' ') ++i;
    if (i >= text.size() || !std::isalpha(static_cast<unsigned char>(text[i]))) continue;
    std::size_t j = i;
    while (j < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '-' || text[j] == '_'))
      ++j;
    if (ends_plain_scalar(text, j)) found.push_back({i, j});
  }
  return found;
}

// Flow lists holding no list: [0.4, 0.6].
std::vector<Span> innermost_lists(const std::string& text, const std::vector<bool>& code) {
  std::vector<Span> found;
  std::size_t open = std::string::npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!code[i]) continue;
    if (text[i] == '[') open = i;
    if (text[i] == ']' && open != std::string::npos) {
      found.push_back({open, i + 1});
      open = std::string::npos;
    }
  }
  return found;
}

// Lines that hold more than blanks and comments.
std::vector<Span> content_lines(const std::string& text) {
  std::vector<Span> found;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = text.find('\n', begin);
    end = end == std::string::npos ? text.size() : end + 1;
    const std::size_t first = text.find_first_not_of(" \t\r\n", begin);
    if (first < end && text[first] != '#') found.push_back({begin, end});
    begin = end;
  }
  return found;
}

std::size_t line_number(const std::string& text, std::size_t at) {
  return 1 + static_cast<std::size_t>(
                 std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

std::string shortened(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

// Numbers at the edges of double and int, and things that are no number at all.
constexpr std::array<const char*, 21> kOddValues{
    "0",  "-1",  "1e308",      "1e-320", "nan", ".nan", ".inf", "-.inf",     "x",  "[]",   "{}",
    "-0", "1e9", "2147483648", "0.5",    "~",   "1",    "3",    "\"1\\n2\"", "''", "[[1]]"};
constexpr std::array<const char*, 6> kHugeSizes{"1000",       "100000",     "1e9",
                                                "2147483647", "4294967296", "1e18"};
// Fibonacci numbers far beyond any page count (golden-ratio `cycle:`), one not Fibonacci, one too
// big.
constexpr std::array<const char*, 4> kHugeCycles{"2971215073", "2880067194370816120", "1e18",
                                                 "1e19"};
constexpr std::array<const char*, 17> kWords{
    "per-mode", "poisson",      "independent", "thinning", "marked", "scaled",
    "partial",  "reject-batch", "true",        "false",    "yes",    "randomized",
    "cyclic",   "golden-ratio", "optimal",     "null",     "D"};

}  // namespace

std::uint64_t ScenarioMutator::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::size_t ScenarioMutator::below(std::size_t n) {
  return n == 0 ? 0 : static_cast<std::size_t>(next() % n);
}

bool ScenarioMutator::edit(std::string& text, std::vector<std::string>& edits) {
  const std::vector<bool> code = code_mask(text);
  const std::vector<Span> lines = content_lines(text);
  const std::vector<Span> nums = numbers(text, code);
  const std::vector<Span> key_spans = keys(text, code);
  const std::vector<Span> lists = innermost_lists(text, code);
  const std::vector<Span> words = word_values(text, key_spans);
  const auto replace = [&](Span s, const std::string& by, const char* what) {
    edits.push_back("line " + std::to_string(line_number(text, s.begin)) + ": " + what + " '" +
                    shortened(text.substr(s.begin, s.end - s.begin)) + "' -> '" + shortened(by) +
                    "'");
    text.replace(s.begin, s.end - s.begin, by);
    return true;
  };
  const auto key_named = [&](std::string_view name) -> const Span* {
    for (const Span& k : key_spans)
      if (std::string_view(text).substr(k.begin, k.end - k.begin) == name) return &k;
    return nullptr;
  };
  // The value after `key: ` to the end of its plain scalar.
  const auto value_of = [&](const Span& key) {
    std::size_t i = key.end + 1;
    while (i < text.size() && text[i] == ' ') ++i;
    std::size_t j = i;
    while (!ends_plain_scalar(text, j)) ++j;
    return Span{i, j};
  };

  switch (below(12)) {
    case 0: {  // delete a line
      if (lines.empty()) return false;
      const Span l = lines[below(lines.size())];
      edits.push_back("line " + std::to_string(line_number(text, l.begin)) + ": deleted '" +
                      shortened(text.substr(l.begin, l.end - l.begin)) + "'");
      text.erase(l.begin, l.end - l.begin);
      return true;
    }
    case 1: {  // duplicate a line
      if (lines.empty()) return false;
      const Span l = lines[below(lines.size())];
      std::string copy = text.substr(l.begin, l.end - l.begin);
      if (copy.back() != '\n') copy = "\n" + copy;
      edits.push_back("line " + std::to_string(line_number(text, l.begin)) + ": duplicated '" +
                      shortened(copy) + "'");
      text.insert(l.end, copy);
      return true;
    }
    case 2:
    case 3: {  // a number replaced (twice as likely: numbers are most of a scenario)
      if (nums.empty()) return false;
      return replace(nums[below(nums.size())], kOddValues[below(kOddValues.size())], "number");
    }
    case 4: {  // a list emptied
      if (lists.empty()) return false;
      return replace(lists[below(lists.size())], "[]", "list");
    }
    case 5: {  // two keys swapped
      if (key_spans.size() < 2) return false;
      Span a = key_spans[below(key_spans.size())], b = key_spans[below(key_spans.size())];
      const std::string name_a = text.substr(a.begin, a.end - a.begin),
                        name_b = text.substr(b.begin, b.end - b.begin);
      if (name_a == name_b) return false;
      if (a.begin > b.begin) std::swap(a, b);
      edits.push_back("lines " + std::to_string(line_number(text, a.begin)) + " and " +
                      std::to_string(line_number(text, b.begin)) + ": keys '" +
                      text.substr(a.begin, a.end - a.begin) + "' and '" +
                      text.substr(b.begin, b.end - b.begin) + "' swapped");
      const std::string first = text.substr(a.begin, a.end - a.begin),
                        second = text.substr(b.begin, b.end - b.begin);
      text.replace(b.begin, b.end - b.begin, first);  // the later one first: a's offsets stay valid
      text.replace(a.begin, a.end - a.begin, second);
      return true;
    }
    case 6: {  // the file cut short, somewhere after the header comments
      if (lines.empty()) return false;
      const std::size_t from = lines.front().begin;
      const std::size_t at = from + below(text.size() - from);
      edits.push_back("line " + std::to_string(line_number(text, at)) +
                      ": file truncated at byte " + std::to_string(at) + " of " +
                      std::to_string(text.size()));
      text.resize(at);
      return true;
    }
    case 7: {  // a nesting level changed: indentation or brackets
      const std::size_t how = below(4);
      if (how < 2) {
        if (lines.empty()) return false;
        const Span l = lines[below(lines.size())];
        const std::string line = shortened(text.substr(l.begin, l.end - l.begin));
        if (how == 0) {
          edits.push_back("line " + std::to_string(line_number(text, l.begin)) +
                          ": indented by two more spaces '" + line + "'");
          text.insert(l.begin, "  ");
          return true;
        }
        if (text.compare(l.begin, 2, "  ") != 0) return false;
        edits.push_back("line " + std::to_string(line_number(text, l.begin)) +
                        ": two spaces less indentation '" + line + "'");
        text.erase(l.begin, 2);
        return true;
      }
      if (lists.empty()) return false;
      const Span s = lists[below(lists.size())];
      const std::string inner = text.substr(s.begin + 1, s.end - s.begin - 2);
      return how == 2 ? replace(s, "[[" + inner + "]]", "list wrapped in one more")
                      : replace(s, inner, "brackets removed from list");
    }
    case 8: {  // a huge size: the capacity K, else a golden-ratio cycle
      if (const Span* k = key_named("capacity"))
        return replace(value_of(*k), kHugeSizes[below(kHugeSizes.size())], "capacity");
      if (const Span* c = key_named("cycle"))
        return replace(value_of(*c), kHugeCycles[below(kHugeCycles.size())], "cycle");
      if (const Span* kind = key_named("kind")) {  // a refresh policy without a cycle: give it one
        const std::size_t end = text.find('\n', kind->end);
        const std::string indent(kind->begin - text.rfind('\n', kind->begin) - 1, ' ');
        const std::string line = "\n" + indent + "cycle: " + kHugeCycles[below(kHugeCycles.size())];
        edits.push_back("line " + std::to_string(line_number(text, kind->begin) + 1) +
                        ": inserted '" + shortened(line) + "'");
        text.insert(end == std::string::npos ? text.size() : end, line);
        return true;
      }
      return false;
    }
    case 9: {  // a word value replaced by another word of the format
      if (words.empty()) return false;
      return replace(words[below(words.size())], kWords[below(kWords.size())], "word");
    }
    case 10: {  // D0's diagonal recomputed: numbers changed in D_k still make a generator
      if (const Span* r = key_named("repair-diagonal")) {
        const Span v = value_of(*r);
        if (text.compare(v.begin, v.end - v.begin, "true") == 0) return false;
        return replace(v, "true", "word");
      }
      if (!key_named("arrivals")) return false;
      edits.push_back("line 1: inserted 'repair-diagonal: true'");
      text.insert(0, "repair-diagonal: true\n");
      return true;
    }
    default: {  // a key misspelt
      if (key_spans.empty()) return false;
      const Span k = key_spans[below(key_spans.size())];
      return replace(k, text.substr(k.begin, k.end - k.begin) + "s", "key");
    }
  }
}

Mutant ScenarioMutator::mutate(const std::string& original) {
  Mutant m;
  std::size_t wanted = below(5) == 0 ? 2 : 1;
  for (int tries = 0; tries < 1000 && m.edits.size() < wanted; ++tries) {
    std::string text = m.edits.empty() ? original : m.text;
    std::vector<std::string> edits;
    if (edit(text, edits) && text != original) {
      m.text = std::move(text);
      m.edits.insert(m.edits.end(), edits.begin(), edits.end());
      // A repair alone changes nothing worth a run: it comes with one more edit.
      if (edits.front().find("'repair-diagonal: true'") != std::string::npos ||
          edits.front().find("-> 'true'") != std::string::npos)
        wanted = std::max<std::size_t>(wanted, m.edits.size() + 1);
    }
  }
  if (m.edits.empty()) {  // never the original
    m.text = original + "\nunknown-key-added-by-the-mutator: 1\n";
    m.edits.push_back("appended 'unknown-key-added-by-the-mutator: 1'");
  }
  return m;
}

}  // namespace crawlq::cli_test
