// Every file a user names read with bounds (issue 28): only a regular file, 64 MiB at most, UTF-8
// text; and YAML aliases expanded under a node budget, whichever reader walks the document.
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "model/input_error.hpp"
#include "model/text_file.hpp"
#include "scenarios/policy_table.hpp"
#include "scenarios/scenario_loader.hpp"
#include "scenarios/yaml_document.hpp"
#include "scenarios/yaml_json.hpp"

namespace crawlq {
namespace {

namespace fs = std::filesystem;
using scenarios::ScenarioError;

class Scratch {
 public:
  Scratch()
      : path_(fs::temp_directory_path() /
              fs::path("crawlq-bounded-" + std::to_string(::getpid()))) {
    fs::create_directories(path_);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name, std::ios::binary) << text;
    return path_ / name;
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Nine lists of nine aliases to the list before: 9^9 numbers from a few hundred bytes.
std::string billion_laughs() {
  std::string text = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]\n";
  const std::string names = "abcdefghi";
  for (std::size_t level = 1; level < names.size(); ++level) {
    text += fmt::format("{}: &{} [", names[level], names[level]);
    for (int i = 0; i < 9; ++i) text += fmt::format("{}*{}", i ? ", " : "", names[level - 1]);
    text += "]\n";
  }
  return text;
}

TEST_CASE("scenario files: only a regular file is opened, and it must be UTF-8",
          "[scenarios][input]") {
  Scratch dir;
  CHECK_THROWS_WITH(scenarios::read_file(dir.path()),
                    Catch::Contains("a directory, not a scenario file"));
  CHECK_THROWS_WITH(scenarios::read_file("/dev/zero"), Catch::Contains("/dev/zero: a device"));
  // Opened for reading, a FIFO with no writer would block forever: refused from stat alone.
  const fs::path fifo = dir.path() / "fifo.yaml";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_AS(scenarios::read_file(fifo), ScenarioError);
  CHECK_THROWS_WITH(scenarios::read_file(fifo), Catch::Contains("fifo.yaml: a pipe (FIFO)"));
  CHECK_THROWS_WITH(scenarios::read_file(dir.path() / "missing.yaml"),
                    Catch::Contains("cannot open the file"));
  // Latin-1 text: the line and the byte named.
  const fs::path latin = dir.write("latin.yaml", "capacity: 2\nname: caf\xe9\n");
  CHECK_THROWS_WITH(scenarios::read_file(latin),
                    Catch::Contains("latin.yaml: line 2, column 10: byte 0xe9"));
  const std::string utf8 = "capacity: 2\nname: caf\xc3\xa9\n";
  CHECK(scenarios::read_file(dir.write("utf8.yaml", utf8)) == utf8);
}

TEST_CASE("a file past the cap is refused before it is held", "[scenarios][input]") {
  Scratch dir;
  const fs::path big = dir.path() / "big.log";
  {
    std::ofstream out(big);
    out << std::string(2048, '1');
  }
  CHECK_THROWS_WITH(model::read_text_file(big, "a log", 1024),
                    Catch::Contains("big.log: more than"));
  CHECK(model::read_text_file(big, "a log", 4096).size() == 2048);
}

TEST_CASE("policy tables are read with the same bounds", "[scenarios][input]") {
  Scratch dir;
  CHECK_THROWS_WITH(scenarios::read_policy_table("/dev/zero"),
                    Catch::Contains("/dev/zero: a device, not a policy table"));
  const fs::path fifo = dir.path() / "table.csv";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(scenarios::read_policy_table(fifo), Catch::Contains("a pipe (FIFO)"));
  CHECK_THROWS_WITH(scenarios::read_policy_table(dir.write("bytes.csv", "robots\n1\n\xff\n")),
                    Catch::Contains("line 3, column 1: byte 0xff"));
  CHECK(scenarios::read_policy_table(dir.write("ok.csv", "robots\n1\n0\n2\n")) ==
        std::vector<int>{1, 0, 2});
}

TEST_CASE("aliases expand under a node budget and never into themselves", "[scenarios][input]") {
  const std::string laughs = billion_laughs();
  CHECK(laughs.size() < 2000);
  // Every reader of a document goes through load_yaml: the scenario loader and the JSON form alike.
  CHECK_THROWS_WITH(
      scenarios::load_yaml(laughs, "laughs.yaml"),
      Catch::Contains("laughs.yaml: line") && Catch::Contains("aliases expand to more than"));
  CHECK_THROWS_AS(scenarios::yaml_to_json(laughs, "laughs.yaml"), ScenarioError);
  CHECK_THROWS_AS(scenarios::parse_scenario("capacity: 2\n" + laughs, "laughs.yaml"),
                  ScenarioError);
  const std::string itself = "capacity: &c [*c]\n";
  CHECK_THROWS_WITH(scenarios::yaml_to_json(itself, "self.yaml"),
                    Catch::Contains("self.yaml: line 1") && Catch::Contains("nested more than"));
  CHECK_THROWS_AS(scenarios::parse_scenario(itself, "self.yaml"), ScenarioError);
  CHECK_THROWS_AS(scenarios::yaml_to_json("a: &m {b: *m}\n", "map.yaml"), ScenarioError);
  // Aliases as people use them (one law for two places) expand as before.
  const nlohmann::json shared = scenarios::yaml_to_json(
      "law: &l {rate: 2}\nother: *l\nlist: &x [1, 2]\ncopies: [*x, *x]\n", "ok.yaml");
  CHECK(shared.at("other").at("rate") == 2);
  CHECK(shared.at("copies").at(1).at(1) == 2);
}

TEST_CASE("the text's nesting and the walk's agree: 64 lists read, 65 refused as nested",
          "[scenarios][input]") {
  const auto lists = [](int n) { return std::string(n, '[') + "1" + std::string(n, ']'); };
  // Under a key, so that a block mapping holds the flow lists: the walk counts them apart.
  CHECK(
      scenarios::load_yaml("capacity: " + lists(64) + "\n", "deep.yaml")["capacity"].IsSequence());
  CHECK(scenarios::load_yaml(lists(64), "deep.yaml").IsSequence());
  for (const std::string& text : {"capacity: " + lists(65) + "\n", lists(65)})
    CHECK_THROWS_WITH(scenarios::load_yaml(text, "deep.yaml"),
                      Catch::Contains("deep.yaml: line 1") &&
                          Catch::Contains("lists or mappings nested more than 64 deep") &&
                          !Catch::Contains("alias"));
  // Block mappings, one an indentation deeper each, to the same limit.
  const auto mappings = [](int n) {
    std::string text;
    for (int i = 0; i < n; ++i) text += std::string(i, ' ') + "k:\n";
    return text + std::string(n, ' ') + "1\n";
  };
  CHECK_NOTHROW(scenarios::load_yaml(mappings(64), "block.yaml"));
  CHECK_THROWS_WITH(scenarios::load_yaml(mappings(65), "block.yaml"),
                    Catch::Contains("lists or mappings nested more than 64 deep by indentation"));
  // A block mapping that holds an alias to itself is endless too.
  CHECK_THROWS_WITH(scenarios::load_yaml("a: &m\n  b: *m\n", "self.yaml"),
                    Catch::Contains("self.yaml: line") && Catch::Contains("through aliases"));
}

}  // namespace
}  // namespace crawlq
