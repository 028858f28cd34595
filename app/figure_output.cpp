#include "app/figure_output.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>

#include "app/command_support.hpp"

namespace crawlq::app {

std::string plot_to(const output::Figure& figure, const std::string& svg_path) {
  const std::filesystem::path path(svg_path);
  if (path.extension() != ".svg")
    throw UsageError(fmt::format("--plot {}: give a file name ending in .svg", svg_path));
  const std::filesystem::path dir =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(dir))
    throw UsageError(
        fmt::format("--plot {}: the directory {} does not exist", svg_path, dir.string()));
  const std::string stem = path.stem().string();
  try {
    if (!output::render_svg(figure, dir, stem))
      return fmt::format("gnuplot is not installed: run `gnuplot {}` to draw {}",
                         (dir / (stem + ".gp")).string(), svg_path);
  } catch (const std::runtime_error& e) {
    throw UsageError(fmt::format("--plot {}: {}", svg_path, e.what()));
  }
  return fmt::format("figure written to {} (gnuplot script beside it)", svg_path);
}

}  // namespace crawlq::app
