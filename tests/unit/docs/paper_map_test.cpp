// docs/paper-map.md and docs/interface.md held against the tree. The map names, for each item of
// the two papers, the file and function that compute it and the test case that checks it: a name
// that does not exist, an item of either paper without a row, or an item a source comment cites
// that the map lacks fails here. docs/interface.md must hold every JSON key of the outside contract
// (../shared/interface.md beside the repository, and the keys it had when this test was written).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kRoot = CRAWLQ_SOURCE_DIR;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// ---- The map ----------------------------------------------------------------------------------

struct CodeRef {
  std::string file, function;
};
struct TestRef {
  std::string file, name;
};
struct MapRow {
  int line = 0;
  std::string item;  // "ADKNS (15)", "CLW Lemma 4.1", ...
  std::vector<CodeRef> code;
  std::vector<TestRef> tests;
  bool computed = true;  // false: the code column says "not computed"
  bool tested = true;    // false: the test column says "none"
};
struct ParsedMap {
  std::vector<MapRow> rows;
  std::vector<std::string> errors;  // rows not in the machine-readable format
};

// Cells of a Markdown table row, without the outer pipes.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '|' && line[i - 1] != '\\') {
      out.push_back(trim(cell));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  if (!trim(cell).empty()) out.push_back(trim(cell));
  return out;
}

// Every match of `pattern` in `cell`, and whether nothing but separators (';', spaces) is left.
std::vector<std::smatch> all_matches(const std::string& cell, const std::regex& pattern,
                                     bool* only_separators) {
  std::vector<std::smatch> out;
  std::string rest;
  auto from = cell.cbegin();
  for (std::sregex_iterator it(cell.begin(), cell.end(), pattern), end; it != end; ++it) {
    rest.append(from, (*it)[0].first);
    from = (*it)[0].second;
    out.push_back(*it);
  }
  rest.append(from, cell.cend());
  *only_separators = rest.find_first_not_of("; ") == std::string::npos;
  return out;
}

std::string normalized_item(std::string item) {
  item.erase(std::remove(item.begin(), item.end(), '`'), item.end());
  std::string out;
  for (char c : trim(item))
    if (!(c == ' ' && !out.empty() && out.back() == ' ')) out += c;
  return out;
}

ParsedMap parse_map(const std::string& text) {
  static const std::regex code_pair("`([^`]+)`\\s+`([^`]+)`");
  static const std::regex test_pair("`([^`]+)`\\s+\"([^\"]+)\"");
  ParsedMap map;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    line = trim(line);
    if (!starts_with(line, "| ADKNS") && !starts_with(line, "| CLW")) continue;
    const std::vector<std::string> c = cells(line);
    const std::string where = "docs/paper-map.md:" + std::to_string(number) + ": ";
    if (c.size() != 4) {
      map.errors.push_back(where + "a row has 4 columns (item, what, code, test), this one " +
                           std::to_string(c.size()));
      continue;
    }
    MapRow row;
    row.line = number;
    row.item = normalized_item(c[0]);
    if (starts_with(c[2], "not computed")) {
      row.computed = false;
    } else {
      bool clean = false;
      for (const auto& m : all_matches(c[2], code_pair, &clean)) row.code.push_back({m[1], m[2]});
      if (row.code.empty() || !clean)
        map.errors.push_back(where + row.item +
                             ": the code column is neither `file` `function` pairs "
                             "separated by ';' nor \"not computed: ...\": " +
                             c[2]);
    }
    if (starts_with(c[3], "none")) {
      row.tested = false;
    } else {
      bool clean = false;
      for (const auto& m : all_matches(c[3], test_pair, &clean)) row.tests.push_back({m[1], m[2]});
      if (row.tests.empty() || !clean)
        map.errors.push_back(where + row.item +
                             ": the test column is neither `file` \"test case\" pairs "
                             "separated by ';' nor \"none: ...\": " +
                             c[3]);
    }
    map.rows.push_back(row);
  }
  return map;
}

// ---- Checking one reference ---------------------------------------------------------------------

std::string regex_escaped(const std::string& s) {
  static const std::string special = "\\^$.|?*+()[]{}";
  std::string out;
  for (char c : s) {
    if (special.find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

// Empty when `relative` names a file of the tree; else why not.
std::string file_problem(const std::string& relative) {
  const fs::path p(relative);
  if (p.is_absolute() || relative.find("..") != std::string::npos)
    return relative + ": not a path from the root";
  if (!fs::is_regular_file(kRoot / p)) return relative + ": no such file";
  return "";
}

bool defines(const std::string& text, const std::string& name) {
  return std::regex_search(text,
                           std::regex("(^|[^A-Za-z0-9_:])" + regex_escaped(name) + "\\s*\\("));
}

// Empty when the function is defined (or, for Class::member, declared in the class of the matching
// header) in the named file; else what is wrong.
std::string code_problem(const CodeRef& ref) {
  if (const std::string p = file_problem(ref.file); !p.empty()) return p;
  static const std::regex identifier("~?[A-Za-z_][A-Za-z0-9_]*(::~?[A-Za-z_][A-Za-z0-9_]*)*");
  if (!std::regex_match(ref.function, identifier)) return ref.function + ": not an identifier";
  const std::string text = read_text(kRoot / ref.file);
  if (defines(text, ref.function)) return "";
  const auto colons = ref.function.rfind("::");
  if (colons != std::string::npos) {
    const std::string owner = ref.function.substr(0, colons),
                      member = ref.function.substr(colons + 2);
    fs::path header = fs::path(ref.file).replace_extension(".hpp");
    if (fs::is_regular_file(kRoot / header)) {
      const std::string declared = read_text(kRoot / header);
      const std::string last_owner =
          owner.substr(owner.rfind(':') == std::string::npos ? 0 : owner.rfind(':') + 1);
      if (std::regex_search(
              declared, std::regex("\\b(class|struct)\\s+" + regex_escaped(last_owner) + "\\b")) &&
          defines(declared, member))
        return "";
    }
  }
  return ref.file + ": no function " + ref.function + " (looked for `" + ref.function + "(`)";
}

// TEST_CASE ( "name" with any spacing, as clang-format may break it.
bool has_test_case(const std::string& text, const std::string& name) {
  for (auto at = text.find("TEST_CASE"); at != std::string::npos;
       at = text.find("TEST_CASE", at + 1)) {
    std::size_t i = at + 9;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size() || text[i] != '(') continue;
    ++i;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (text.compare(i, name.size() + 2, "\"" + name + "\"") == 0) return true;
  }
  return false;
}

std::string test_problem(const TestRef& ref) {
  if (const std::string p = file_problem(ref.file); !p.empty()) return p;
  if (!has_test_case(read_text(kRoot / ref.file), ref.name))
    return ref.file + ": no TEST_CASE(\"" + ref.name + "\"";
  return "";
}

std::vector<std::string> row_problems(const MapRow& row) {
  std::vector<std::string> out;
  const std::string where =
      "docs/paper-map.md:" + std::to_string(row.line) + ": " + row.item + ": ";
  for (const CodeRef& ref : row.code)
    if (const std::string p = code_problem(ref); !p.empty()) out.push_back(where + p);
  for (const TestRef& ref : row.tests)
    if (const std::string p = test_problem(ref); !p.empty()) out.push_back(where + p);
  return out;
}

// ---- The papers' items, and those the sources cite ----------------------------------------------

// Every numbered equation, lemma, theorem, corollary, table and figure of the two papers.
std::vector<std::string> paper_items() {
  std::vector<std::string> items;
  for (int i = 1; i <= 25; ++i) items.push_back("ADKNS (" + std::to_string(i) + ")");
  items.push_back("ADKNS Lemma");
  for (int i = 1; i <= 4; ++i) items.push_back("ADKNS Theorem " + std::to_string(i));
  items.push_back("ADKNS Corollary 1");
  for (int i = 1; i <= 5; ++i) items.push_back("ADKNS Table " + std::to_string(i));
  for (int i = 1; i <= 4; ++i) items.push_back("ADKNS Figure " + std::to_string(i));
  for (int i = 1; i <= 19; ++i) items.push_back("CLW (" + std::to_string(i) + ")");
  for (const char* n : {"3.1", "4.1"}) items.push_back(std::string("CLW Lemma ") + n);
  for (const char* n : {"3.1", "3.2", "3.3", "3.4", "4.1", "5.1"})
    items.push_back(std::string("CLW Theorem ") + n);
  items.push_back("CLW Corollary 5.1");
  return items;
}

struct Comment {
  int line;
  std::string text;
};

// The // and /* */ comments of C++ text, outside string and character literals (raw strings too).
std::vector<Comment> cpp_comments(const std::string& text) {
  std::vector<Comment> out;
  int line = 1;
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (text.compare(i, 2, "//") == 0) {
      const std::size_t end = std::min(text.find('\n', i), n);
      out.push_back({line, text.substr(i + 2, end - i - 2)});
      i = end;
    } else if (text.compare(i, 2, "/*") == 0) {
      const std::size_t end = std::min(text.find("*/", i), n);
      out.push_back({line, text.substr(i + 2, end - i - 2)});
      line += static_cast<int>(std::count(text.begin() + i, text.begin() + end, '\n'));
      i = std::min(end + 2, n);
    } else if (c == 'R' && i + 1 < n && text[i + 1] == '"' &&
               (i == 0 ||
                !(std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_'))) {
      const std::size_t open = text.find('(', i);
      const std::string close = ")" + text.substr(i + 2, open - i - 2) + "\"";
      const std::size_t end = std::min(text.find(close, open), n);
      line += static_cast<int>(std::count(text.begin() + i, text.begin() + end, '\n'));
      i = std::min(end + close.size(), n);
    } else if (c == '"' ||
               (c == '\'' && !(i > 0 && std::isdigit(static_cast<unsigned char>(text[i - 1]))))) {
      for (++i; i < n && text[i] != c && text[i] != '\n'; ++i)
        if (text[i] == '\\') ++i;
      ++i;
    } else {
      ++i;
    }
  }
  return out;
}

// The # comments of YAML text (outside double quotes).
std::vector<Comment> yaml_comments(const std::string& text) {
  std::vector<Comment> out;
  std::istringstream lines(text);
  std::string l;
  for (int number = 1; std::getline(lines, l); ++number) {
    bool quoted = false;
    for (std::size_t i = 0; i < l.size(); ++i) {
      if (l[i] == '"') quoted = !quoted;
      if (l[i] == '#' && !quoted &&
          (i == 0 || std::isspace(static_cast<unsigned char>(l[i - 1])))) {
        out.push_back({number, l.substr(i + 1)});
        break;
      }
    }
  }
  return out;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The paper named right before `at` ("CLW (15)", "ADKNS Lemma"), or `otherwise`.
std::string paper_before(const std::string& comment, std::size_t at, const std::string& otherwise) {
  const std::string before = comment.substr(0, at);
  if (ends_with(before, "CLW ")) return "CLW";
  if (ends_with(before, "ADKNS ")) return "ADKNS";
  return otherwise;
}

// The items one comment cites. A bare number "(15)" is the paper of the file: CLW in the refresh
// files, ADKNS elsewhere; dotted lemma and theorem numbers are CLW's, undotted ones and the tables
// and figures ADKNS's; "CLW " or "ADKNS " in front says so explicitly.
std::set<std::string> cited_items(const std::string& comment, bool refresh_file) {
  std::set<std::string> out;
  const std::string home = refresh_file ? "CLW" : "ADKNS";
  static const std::regex equation("\\((\\d{1,2})\\)");
  for (std::sregex_iterator it(comment.begin(), comment.end(), equation), end; it != end; ++it) {
    const auto at = static_cast<std::size_t>(it->position(0));
    // D(1), V^(1), r^(1), f(2): not equation numbers.
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(comment[at - 1])) ||
                   std::string("_^)]").find(comment[at - 1]) != std::string::npos))
      continue;
    out.insert(paper_before(comment, at, home) + " (" + (*it)[1].str() + ")");
  }
  static const std::regex range("\\((\\d{1,2})\\)\\s*(-|to)\\s*\\((\\d{1,2})\\)");
  for (std::sregex_iterator it(comment.begin(), comment.end(), range), end; it != end; ++it) {
    const std::string paper =
        paper_before(comment, static_cast<std::size_t>(it->position(0)), home);
    for (int i = std::stoi((*it)[1]); i <= std::stoi((*it)[3]); ++i)
      out.insert(paper + " (" + std::to_string(i) + ")");
  }
  static const std::regex named("\\b(Lemma|Theorem|Corollary)\\b(\\s+(\\d+(\\.\\d+)?))?");
  for (std::sregex_iterator it(comment.begin(), comment.end(), named), end; it != end; ++it) {
    const std::string kind = (*it)[1], number = (*it)[3];
    if (number.empty() && kind != "Lemma") continue;  // "the theorem": no item
    const std::string paper = number.find('.') != std::string::npos ? "CLW" : "ADKNS";
    out.insert(paper_before(comment, static_cast<std::size_t>(it->position(0)), paper) + " " +
               kind + (number.empty() ? "" : " " + number));
  }
  static const std::regex listed("\\b(Table|Figure)s?\\s+(\\d)((\\s*(,|and|to)\\s*\\d)*)");
  static const std::regex next("\\s*(,|and|to)\\s*(\\d)");
  for (std::sregex_iterator it(comment.begin(), comment.end(), listed), end; it != end; ++it) {
    const std::string paper =
        paper_before(comment, static_cast<std::size_t>(it->position(0)), "ADKNS");
    const std::string kind = (*it)[1], more = (*it)[3];
    std::vector<int> numbers{std::stoi((*it)[2])};
    for (std::sregex_iterator n(more.begin(), more.end(), next), stop; n != stop; ++n) {
      const int to = std::stoi((*n)[2]);
      if ((*n)[1] == "to")
        for (int k = numbers.back() + 1; k <= to; ++k) numbers.push_back(k);
      else
        numbers.push_back(to);
    }
    for (int k : numbers) out.insert(paper + " " + kind + " " + std::to_string(k));
  }
  return out;
}

// Item -> the first place a comment of the sources, tests and shipped scenarios cites it.
std::map<std::string, std::string> items_cited_in_sources() {
  std::map<std::string, std::string> cited;
  for (const char* part : {"model", "analytic", "sim", "scenarios", "validation", "app",
                           "benchmarks", "examples", "tests"}) {
    if (!fs::is_directory(kRoot / part)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / part)) {
      if (!entry.is_regular_file()) continue;
      const fs::path& p = entry.path();
      const std::string name = p.filename().string(),
                        relative = fs::relative(p, kRoot).generic_string();
      const bool cpp =
          ends_with(name, ".cpp") || ends_with(name, ".hpp") || ends_with(name, ".cpp.in");
      const bool yaml = ends_with(name, ".yaml") && starts_with(relative, "scenarios/");
      if (!cpp && !yaml) continue;
      const std::string text = read_text(p);
      const bool refresh = name.find("refresh") != std::string::npos;
      for (const Comment& c : cpp ? cpp_comments(text) : yaml_comments(text))
        for (const std::string& item : cited_items(c.text, refresh))
          cited.emplace(item, relative + ":" + std::to_string(c.line));
    }
  }
  return cited;
}

std::set<std::string> json_keys(const std::string& text) {
  static const std::regex key("\"([a-z_]+)\":");
  std::set<std::string> keys;
  for (std::sregex_iterator it(text.begin(), text.end(), key), end; it != end; ++it)
    keys.insert((*it)[1]);
  return keys;
}

const ParsedMap& the_map() {
  static const ParsedMap map = parse_map(read_text(kRoot / "docs/paper-map.md"));
  return map;
}

std::set<std::string> mapped_items() {
  std::set<std::string> items;
  for (const MapRow& row : the_map().rows) items.insert(row.item);
  return items;
}

}  // namespace

TEST_CASE("paper-map.md: every row in the machine-readable format", "[docs][paper_map]") {
  REQUIRE(fs::is_regular_file(kRoot / "docs/paper-map.md"));
  const ParsedMap& map = the_map();
  for (const std::string& e : map.errors) FAIL_CHECK(e);
  CHECK(map.rows.size() >= paper_items().size());
}

TEST_CASE("paper-map.md: every file, function and test case it names exists", "[docs][paper_map]") {
  int references = 0;
  for (const MapRow& row : the_map().rows) {
    references += static_cast<int>(row.code.size() + row.tests.size());
    for (const std::string& p : row_problems(row)) FAIL_CHECK(p);
  }
  CHECK(references > 100);
}

TEST_CASE("paper-map.md: a row for every numbered item of both papers, none twice",
          "[docs][paper_map]") {
  const std::set<std::string> mapped = mapped_items();
  for (const std::string& item : paper_items()) {
    INFO(item);
    CHECK(mapped.count(item) == 1);
  }
  std::map<std::string, int> rows;
  for (const MapRow& row : the_map().rows) ++rows[row.item];
  for (const auto& [item, count] : rows) {
    INFO(item);
    CHECK(count == 1);
  }
}

TEST_CASE("paper-map.md: a row for every item a source comment cites", "[docs][paper_map]") {
  const std::set<std::string> mapped = mapped_items();
  const auto cited = items_cited_in_sources();
  CHECK(cited.size() > 30);
  for (const auto& [item, where] : cited) {
    INFO(item << " cited at " << where);
    CHECK(mapped.count(item) == 1);
  }
}

TEST_CASE("paper-map.md: the checks catch a broken row", "[docs][paper_map]") {
  const std::string good =
      "| ADKNS (5) | P_star | `analytic/stationary/measures.cpp` `compute_measures` | "
      "`tests/unit/analytic/closed_forms_test.cpp` \"M/M/1/K: levels, loss, sojourn law\" |\n";
  const ParsedMap ok = parse_map(good);
  REQUIRE(ok.errors.empty());
  REQUIRE(ok.rows.size() == 1);
  CHECK(ok.rows[0].item == "ADKNS (5)");
  CHECK(row_problems(ok.rows[0]).empty());

  const auto problems_of = [](const std::string& from, const std::string& to) {
    std::string text =
        "| ADKNS (5) | P_star | `analytic/stationary/measures.cpp` `compute_measures` | "
        "`tests/unit/analytic/closed_forms_test.cpp` \"M/M/1/K: levels, loss, sojourn law\" |\n";
    text.replace(text.find(from), from.size(), to);
    const ParsedMap m = parse_map(text);
    std::vector<std::string> out = m.errors;
    for (const MapRow& row : m.rows)
      for (const std::string& p : row_problems(row)) out.push_back(p);
    return out;
  };
  CHECK_FALSE(problems_of("compute_measures", "compute_measure").empty());  // a renamed function
  CHECK_FALSE(problems_of("measures.cpp", "measure.cpp").empty());          // a missing file
  CHECK_FALSE(problems_of("sojourn law\"", "sojourn laws\"").empty());      // a renamed test case
  CHECK_FALSE(
      problems_of("closed_forms_test.cpp", "state_space_test.cpp").empty());  // the wrong test file
  CHECK_FALSE(
      problems_of("`compute_measures`", "compute_measures").empty());  // not machine-readable
  CHECK_FALSE(problems_of("`analytic/stationary/measures.cpp`", "`../measures.cpp`")
                  .empty());  // not from the root
  // A member found by its class's header.
  CHECK(code_problem({"analytic/sojourn/sojourn_times.cpp", "SojournTimes::transform"}).empty());
  CHECK(code_problem({"analytic/sojourn/tagged_page_chain.cpp", "TaggedPageChain::TaggedPageChain"})
            .empty());
  CHECK_FALSE(
      code_problem({"analytic/sojourn/sojourn_times.cpp", "SojournTimes::transforms"}).empty());
}

TEST_CASE("source comments: paper items are read with the right paper", "[docs][paper_map]") {
  CHECK(cited_items("// P_success (15) and D(1), V^(1)", false) ==
        std::set<std::string>{"ADKNS (15)"});
  CHECK(cited_items("// the optimum (15) of Lemma 4.1", true) ==
        std::set<std::string>{"CLW (15)", "CLW Lemma 4.1"});
  CHECK(cited_items("// CLW (16) beside ADKNS (16)", false) ==
        std::set<std::string>{"CLW (16)", "ADKNS (16)"});
  CHECK(cited_items("// v(u) of (16)-(18); the Lemma; Theorem 4", false) ==
        std::set<std::string>{"ADKNS (16)", "ADKNS (17)", "ADKNS (18)", "ADKNS Lemma",
                              "ADKNS Theorem 4"});
  CHECK(cited_items("// Tables 1 to 3 and Figures 2 and 3", false) ==
        std::set<std::string>{"ADKNS Table 1", "ADKNS Table 2", "ADKNS Table 3", "ADKNS Figure 2",
                              "ADKNS Figure 3"});
  const auto comments = cpp_comments(
      "int a = f(\"// (3)\"); // (4)\nchar c = '\"'; /* Table 5 */ auto s = R\"x(// (6))x\";");
  REQUIRE(comments.size() == 2);
  CHECK(comments[0].text == " (4)");
  CHECK(comments[1].line == 2);
}

namespace {

// The outside contract's keys as ../shared/interface.md held them when this test was written:
// checked always, so that a tree without the shared folder still tests most of the contract.
const std::set<std::string> kFrozenContractKeys{"batch_gap",
                                                "batches",
                                                "best",
                                                "beta",
                                                "by_modes",
                                                "censor_gap",
                                                "censored",
                                                "class",
                                                "constant",
                                                "cost",
                                                "error",
                                                "fitted",
                                                "frequencies",
                                                "gap",
                                                "half_width",
                                                "lag_correlations",
                                                "lambda",
                                                "level_probabilities",
                                                "levels",
                                                "log_likelihood",
                                                "lower_bound",
                                                "mean",
                                                "mean_active_robots",
                                                "mean_in_queue",
                                                "mean_in_system",
                                                "mean_sojourn",
                                                "mean_sojourn_obsolete",
                                                "mean_sojourn_served",
                                                "memory",
                                                "method",
                                                "mode_probabilities",
                                                "modes",
                                                "moments",
                                                "obsolescence_rates",
                                                "optimality",
                                                "p_loss",
                                                "p_obsolete",
                                                "p_served",
                                                "p_starvation",
                                                "phase_aware",
                                                "phases",
                                                "policy",
                                                "residual",
                                                "sample",
                                                "scenario",
                                                "scv",
                                                "simulated",
                                                "size_probabilities",
                                                "states",
                                                "table",
                                                "threshold_best",
                                                "thresholds",
                                                "units",
                                                "variance"};

void check_documented(const std::set<std::string>& contract) {
  REQUIRE(fs::is_regular_file(kRoot / "docs/interface.md"));
  const std::set<std::string> documented = json_keys(read_text(kRoot / "docs/interface.md"));
  for (const std::string& key : contract) {
    INFO("\"" << key << "\":");
    CHECK(documented.count(key) == 1);
  }
}

}  // namespace

TEST_CASE("interface.md: every JSON key of the outside contract as frozen here",
          "[docs][interface]") {
  check_documented(kFrozenContractKeys);
  const std::string text = read_text(kRoot / "docs/interface.md");
  CHECK(text.find("../shared/interface.md") != std::string::npos);
  CHECK(text.find("(planned: issue") != std::string::npos);
}

TEST_CASE("interface.md: every JSON key of ../shared/interface.md", "[docs][interface]") {
  // The file itself, so that a key it gains is missed here at once. Without it (a tree copied
  // alone) this case is reported by ctest as Skipped, not passed: the marker line below is the
  // test's SKIP_REGULAR_EXPRESSION (tests/CMakeLists.txt), and the frozen case above still runs.
  const fs::path shared = kRoot.parent_path() / "shared" / "interface.md";
  if (!fs::is_regular_file(shared)) {
    WARN("crawlq-skipped: no " << shared.string() << ": only the " << kFrozenContractKeys.size()
                               << " keys frozen in this test were checked");
    return;
  }
  const std::set<std::string> outside = json_keys(read_text(shared));
  CHECK(outside.size() >= 50);
  check_documented(outside);
}
