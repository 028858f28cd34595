#include "validation/sample_path_figure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace crawlq::validation {

output::Figure sample_path_figure(std::istream& trace_csv, const std::string& title, int capacity) {
  output::Figure f = output::make_figure(title, "time", "pages in the system (level)");
  f.y2_label = "active robots";
  f.series = {output::make_series("level", output::SeriesStyle::kSteps, 1, 1),
              output::make_series("active robots", output::SeriesStyle::kSteps, 2, 2),
              output::make_series("pages lost", output::SeriesStyle::kPoints, 1, 7),
              output::make_series("page expired", output::SeriesStyle::kPoints, 1, 4)};
  // A cross marks a loss and a circle a page gone stale (the tutorial's key), whether or not the
  // path has any loss.
  f.series[2].point_type = 2;
  f.series[3].point_type = 6;
  int most_robots = 1;
  std::string line;
  std::getline(trace_csv, line);
  if (line != "time,event,level,robots,lost,expired")
    throw std::invalid_argument(fmt::format("line 1: '{}' is not the header of a trace", line));
  long lost_before = 0;
  for (int number = 2; std::getline(trace_csv, line); ++number) {
    std::stringstream fields(line);
    std::string time, event, level, robots, lost, expired;
    if (!std::getline(fields, time, ',') || !std::getline(fields, event, ',') ||
        !std::getline(fields, level, ',') || !std::getline(fields, robots, ',') ||
        !std::getline(fields, lost, ',') || !std::getline(fields, expired, ','))
      throw std::invalid_argument(
          fmt::format("line {}: '{}' has fewer than 6 fields", number, line));
    try {
      const double t = std::stod(time), l = std::stod(level);
      f.series[0].x.push_back(t);
      f.series[0].y.push_back(l);
      f.series[1].x.push_back(t);
      f.series[1].y.push_back(std::stod(robots));
      most_robots = std::max(most_robots, std::stoi(robots));
      // Losses and expiries are marked at the level they leave behind.
      if (std::stol(lost) > lost_before) {
        f.series[2].x.push_back(t);
        f.series[2].y.push_back(l);
      }
      lost_before = std::stol(lost);
      if (event == "expired") {
        f.series[3].x.push_back(t);
        f.series[3].y.push_back(l);
      }
    } catch (const std::logic_error&) {
      throw std::invalid_argument(
          fmt::format("line {}: '{}' holds a field that is not a number", number, line));
    }
  }
  // The level fills the upper two thirds, the robots the lower third.
  f.y_low = -capacity * 0.6;
  f.y_high = capacity + 0.5;
  f.y_tick_max = capacity;
  f.y2_low = 0;
  f.y2_high = most_robots * 3.2;
  f.y2_tick_max = most_robots;
  // gnuplot refuses an empty inline data block: drop series with nothing to draw.
  std::erase_if(f.series, [](const output::Series& s) { return s.x.empty(); });
  return f;
}

}  // namespace crawlq::validation
