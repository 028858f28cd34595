// The report a reader opens: every row, each flagged one with its reason and the simulator's word,
// text escaped for HTML, every figure drawn and shown.
#include "validation/report_writer.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace crawlq;

namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

validation::Reproduction small_reproduction() {
  validation::Reproduction r;
  validation::ReproducedRow ok;
  ok.table = "1";
  ok.label = "3 or 1";
  ok.printed = "63.54";
  ok.computed = 63.5425;
  validation::ReproducedRow flagged = ok;
  flagged.label = "4 or 3 or 1";
  flagged.printed = "80.50";
  flagged.computed = 67.5207;
  flagged.agrees = false;
  flagged.note = "misprint: cost < printed";
  validation::SimulatorCheck check;
  check.what = "cost of levels 4 3 3 1 1 1";
  check.interval = {67.55, 0.05};
  check.supports_computed = true;
  check.verdict = "the simulator supports the computed value";
  flagged.simulator = check;
  r.rows = {ok, flagged};
  output::Figure f = output::make_figure("a figure", "x", "y");
  output::Series s = output::make_series("line", output::SeriesStyle::kLines);
  s.x = {0, 1};
  s.y = {2, 3};
  f.series = {s};
  r.figures.push_back({"figure-1", "Figure 1. A line.", f});
  r.remarks = {"how to read it"};
  return r;
}

}  // namespace

TEST_CASE("write_report: markdown and HTML with every row, reasons and figures",
          "[validation][report]") {
  const auto dir =
      std::filesystem::temp_directory_path() / ("crawlq-report-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const auto files = validation::write_report(small_reproduction(), dir / "nested");
  CHECK(files.figures_drawn == 1);
  CHECK(std::filesystem::exists(dir / "nested" / "figure-1.svg"));

  const std::string md = read(files.markdown);
  CHECK_THAT(md, Catch::Contains("| 3 or 1 | 63.54 | 63.5425 |"));
  CHECK_THAT(md, Catch::Contains("**FLAGGED**"));
  CHECK_THAT(md, Catch::Contains("misprint: cost < printed"));
  CHECK_THAT(md, Catch::Contains("the simulator supports the computed value"));
  CHECK_THAT(md, Catch::Contains("2 rows compared, 1 flagged"));
  CHECK_THAT(md, Catch::Contains("![a figure](figure-1.svg)"));

  const std::string html = read(files.html);
  CHECK_THAT(html, Catch::Contains("misprint: cost &lt; printed"));
  CHECK_THAT(html, Catch::Contains("<img src=\"figure-1.svg\""));
  CHECK_THAT(html, Catch::Contains("class=\"flagged\""));
  CHECK_THAT(html, Catch::Contains("how to read it"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("write_report: a directory that cannot be made is named", "[validation][report]") {
  CHECK_THROWS_WITH(validation::write_report(small_reproduction(), "/proc/crawlq-no/report"),
                    Catch::Contains("/proc/crawlq-no/report"));
}
