#pragma once
// A sample path for teaching: the level and the active robots over time, with the moments pages
// were lost (a batch found the buffer full) and expired, read from the CSV of `simulate --trace`.
#include <istream>
#include <string>

#include "output/gnuplot_figure.hpp"

namespace crawlq::validation {

// The level on the left axis (0..capacity, drawn in the upper part), the robots on the right (drawn
// below it, so the two step curves do not hide each other). Throws std::invalid_argument naming the
// line when the CSV is not a trace.
output::Figure sample_path_figure(std::istream& trace_csv, const std::string& title, int capacity);

}  // namespace crawlq::validation
