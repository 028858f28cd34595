// The option parser's refusals in the program's own words: a mistyped flag is named with the one
// it most likely meant, a list given as separate words is shown joined by commas, and anything
// else keeps the parser's text with the command's help named. Every one exits 2 on one line.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/cli/cli_support.hpp"

namespace crawlq::cli_test {

TEST_CASE("a mistyped flag is named with the flag it most likely meant", "[cli][flags]") {
  const std::string file = shipped("paper-example-1.yaml");
  check_refused(crawlq({"solve", file, "--level", "3,3,3,1,1,1"}),
                {"solve: unknown flag --level; did you mean --levels?", "crawlq solve --help"});
  check_refused(crawlq({"simulate", file, "--replication", "5"}),
                {"simulate: unknown flag --replication; did you mean --replications?"});
  check_refused(crawlq({"optimize", file, "--serch", "local"}),
                {"unknown flag --serch; did you mean --search?"});
  check_refused(crawlq({"validate", file, "--horizn=100"}),
                {"unknown flag --horizn; did you mean --horizon?"});
  // Nothing near: no guess. One letter: too little to guess from.
  const ProcessResult far = crawlq({"solve", file, "--temperature", "3"});
  check_refused(far, {"solve: unknown flag --temperature (every flag: crawlq solve --help)"});
  CHECK_THAT(far.err, !Catch::Matchers::Contains("did you mean"));
  const ProcessResult letter = crawlq({"solve", file, "-x"});
  check_refused(letter, {"unknown flag -x"});
  CHECK_THAT(letter.err, !Catch::Matchers::Contains("did you mean"));
}

TEST_CASE("a list given as separate words is shown as one word with commas", "[cli][flags]") {
  const std::string file = shipped("paper-example-1.yaml");
  check_refused(crawlq({"solve", file, "--thresholds", "2", "2", "2"}),
                {"--thresholds 2 2 2: --thresholds takes one word", "(--thresholds 2,2,2)"});
  check_refused(crawlq({"sweep", file, "--param", "arrival-scale", "--values", "0.9", "1.1"}),
                {"(--values 0.9,1.1)"});
  // A word that is no value of a list keeps the parser's words, and the command's help.
  check_refused(crawlq({"solve", file, "--thresholds", "2,2,2", "extra"}),
                {"solve: ", "extra", "crawlq solve --help"});
}

}  // namespace crawlq::cli_test
