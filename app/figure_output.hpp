#pragma once
// `--plot FILE.svg` of the commands that draw: the figure goes through gnuplot (validation/), the
// script stays beside the picture, and a missing gnuplot is said plainly.
#include <string>

#include "output/gnuplot_figure.hpp"

namespace crawlq::app {

// Draws `figure` into `svg_path` (which must end in .svg; UsageError otherwise). Returns a line for
// the terminal saying what was written.
std::string plot_to(const output::Figure& figure, const std::string& svg_path);

}  // namespace crawlq::app
