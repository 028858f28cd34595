#pragma once
// Figures drawn by gnuplot (Debian's gnuplot-nox), never by a drawing layer of our own: a figure is
// data and labels; render() writes a self-contained gnuplot script beside the SVG (so a reader can
// restyle it) and runs gnuplot on it.
#include <filesystem>
#include <string>
#include <vector>

namespace crawlq::output {

enum class SeriesStyle {
  kLines,         // an exact curve
  kPointsErrors,  // simulated estimates with their 95% intervals as error bars
  kSteps,         // a sample path (the value holds until the next time)
  kPoints,        // marks at event times (losses, expiries)
};

struct Series {
  std::string title;
  SeriesStyle style = SeriesStyle::kLines;
  std::vector<double> x, y;
  std::vector<double> half_width;  // kPointsErrors only
  int axis = 1;                    // 2: the right-hand y axis
  int color = 0;                   // gnuplot's line type colour 1, 2, ...; 0: one of its own
  // kPoints: gnuplot's point type (2 a cross, 6 a circle, ...); 0: by the series' place. A figure
  // that drops empty series names its markers, so that a cross means one thing in every figure.
  int point_type = 0;
};

inline Series make_series(std::string title, SeriesStyle style, int axis = 1, int color = 0) {
  Series s;
  s.title = std::move(title);
  s.style = style;
  s.axis = axis;
  s.color = color;
  return s;
}

struct Figure {
  std::string title, x_label, y_label, y2_label;
  std::vector<Series> series;
  bool integer_x = false;  // thresholds and levels: ticks at whole numbers
  // Axis ranges, [low, high]; unset (low == high) lets gnuplot choose.
  double y_low = 0, y_high = 0, y2_low = 0, y2_high = 0;
  int y_tick_max = -1;  // >= 0: ticks 0, 1, ..., y_tick_max only (counts drawn above a lower panel)
  int y2_tick_max = -1;  // the same on the right-hand axis
  int width = 800, height = 480;
  bool key_below = false;  // the key under the plot (two axes and long titles), whatever the count
};

inline Figure make_figure(std::string title, std::string x_label, std::string y_label) {
  Figure f;
  f.title = std::move(title);
  f.x_label = std::move(x_label);
  f.y_label = std::move(y_label);
  return f;
}

// The gnuplot script that draws `figure` into `svg_name` (data inline).
std::string gnuplot_script(const Figure& figure, const std::string& svg_name);

// Writes dir/stem.gp and runs gnuplot on it to make dir/stem.svg. Returns false, and leaves the
// script for the reader to run, when gnuplot is not installed; throws std::runtime_error when
// gnuplot fails on it.
bool render_svg(const Figure& figure, const std::filesystem::path& dir, const std::string& stem);

// Whether a gnuplot executable is on the PATH.
bool gnuplot_available();

}  // namespace crawlq::output
