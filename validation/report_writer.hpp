#pragma once
// The reproduction as a reader sees it: DIR/report.md and DIR/report.html (self-contained apart
// from the SVG figures beside it; opens from the file system with no server), each printed value
// beside the computed one, every flagged row with its reason and the simulator's verdict.
#include <filesystem>

#include "validation/paper_reproduction.hpp"

namespace crawlq::validation {

struct ReportFiles {
  std::filesystem::path markdown, html;
  int figures_drawn = 0;  // 0 with gnuplot missing: the .gp scripts are there to run by hand
};

// Creates `dir` if needed; throws std::runtime_error naming a file that cannot be written.
ReportFiles write_report(const Reproduction& reproduction, const std::filesystem::path& dir);

}  // namespace crawlq::validation
