#pragma once
// A sample path for teaching: the level and the active robots over time, with the moments pages were
// lost (a batch found the buffer full) and expired, read from the CSV of `simulate --trace`.
#include <istream>
#include <string>

#include "validation/gnuplot_figure.hpp"

namespace crawlq::validation {

// Throws std::invalid_argument naming the line when the CSV is not a trace.
Figure sample_path_figure(std::istream& trace_csv, const std::string& title);

}  // namespace crawlq::validation
