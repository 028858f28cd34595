// The figure layer: the gnuplot script carries every point and the styles asked for, and the sample
// path read from a trace marks losses where the lost count grows and expiries where a page expired.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "output/gnuplot_figure.hpp"
#include "validation/sample_path_figure.hpp"

using namespace crawlq;
using output::SeriesStyle;

TEST_CASE("gnuplot_script: data inline, one clause per series, titles quoted",
          "[validation][figures]") {
  output::Figure f = output::make_figure("cost \"C\"", "j", "cost");
  output::Series exact = output::make_series("exact", SeriesStyle::kLines, 1, 3);
  exact.x = {0, 1, 2};
  exact.y = {5.5, 4.25, 6};
  output::Series simulated = output::make_series("simulated", SeriesStyle::kPointsErrors);
  simulated.x = {1};
  simulated.y = {4.5};
  simulated.half_width = {0.125};
  f.series = {exact, simulated};
  const std::string script = output::gnuplot_script(f, "out.svg");
  CHECK_THAT(script, Catch::Contains("set terminal svg"));
  CHECK_THAT(script, Catch::Contains("set output \"out.svg\""));
  CHECK_THAT(script, Catch::Contains("set title \"cost \\\"C\\\"\""));
  CHECK_THAT(script, Catch::Contains("$series0 << EOD\n0 5.5\n1 4.25\n2 6\nEOD"));
  CHECK_THAT(script, Catch::Contains("$series1 << EOD\n1 4.5 0.125\nEOD"));
  CHECK_THAT(script, Catch::Contains("with linespoints") && Catch::Contains("linecolor 3"));
  CHECK_THAT(script, Catch::Contains("with yerrorbars"));
}

TEST_CASE("render_svg: gnuplot draws the figure into an SVG file", "[validation][figures]") {
  REQUIRE(output::gnuplot_available());  // .ci/install-deps installs gnuplot-nox
  const auto dir =
      std::filesystem::temp_directory_path() / ("crawlq-figure-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  output::Figure f = output::make_figure("t", "x", "y");
  output::Series s = output::make_series("line", SeriesStyle::kLines);
  s.x = {0, 1};
  s.y = {1, 2};
  f.series = {s};
  REQUIRE(output::render_svg(f, dir, "line"));
  std::ifstream svg(dir / "line.svg");
  const std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Catch::Contains("<svg"));
  CHECK(std::filesystem::exists(dir / "line.gp"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("sample_path_figure: level and robots as steps, losses and expiries marked",
          "[validation][figures]") {
  std::istringstream csv(
      "time,event,level,robots,lost,expired\n"
      "0.5,batch of 2,2,3,0,0\n"
      "1.0,batch of 3,5,1,2,0\n"
      "1.5,expired,4,1,2,1\n"
      "2.0,served,3,1,2,1\n");
  const auto f = validation::sample_path_figure(csv, "path", 5);
  REQUIRE(f.series.size() == 4);
  CHECK(f.series[0].y == std::vector<double>{2, 5, 4, 3});
  CHECK(f.series[1].y == std::vector<double>{3, 1, 1, 1});
  CHECK(f.series[1].axis == 2);
  CHECK(f.series[2].x == std::vector<double>{1.0});  // the lost count grew once
  CHECK(f.series[3].x == std::vector<double>{1.5});  // one expiry
  CHECK(f.y_tick_max == 5);
  CHECK(f.y2_tick_max == 3);
}

TEST_CASE("sample_path_figure: a cross marks a loss and a circle an expiry, losses or none",
          "[validation][figures]") {
  // No loss on this path: the expiries' series is the only one marked, and keeps its circle.
  std::istringstream csv(
      "time,event,level,robots,lost,expired\n"
      "0.5,batch of 2,2,3,0,0\n"
      "1.5,expired,1,3,0,1\n");
  const auto f = validation::sample_path_figure(csv, "path", 5);
  REQUIRE(f.series.size() == 3);
  CHECK(f.series[2].title == "page expired");
  const std::string script = output::gnuplot_script(f, "out.svg");
  CHECK_THAT(script,
             Catch::Contains("pointtype 6 pointsize 1.2 linecolor 4 title 'page expired'") ||
                 Catch::Contains("pointtype 6"));
  CHECK_THAT(script, !Catch::Contains("pointtype 2"));
}

TEST_CASE("sample_path_figure: what is not a trace is refused naming the line",
          "[validation][figures]") {
  std::istringstream wrong_header("t,e\n");
  CHECK_THROWS_WITH(validation::sample_path_figure(wrong_header, "p", 5),
                    Catch::Contains("line 1"));
  std::istringstream short_line("time,event,level,robots,lost,expired\n1,served,2\n");
  CHECK_THROWS_WITH(validation::sample_path_figure(short_line, "p", 5), Catch::Contains("line 2"));
  std::istringstream not_number("time,event,level,robots,lost,expired\n1,served,two,1,0,0\n");
  CHECK_THROWS_WITH(validation::sample_path_figure(not_number, "p", 5), Catch::Contains("line 2"));
}
