#include "validation/gnuplot_figure.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace crawlq::validation {

namespace {

// gnuplot strings in double quotes: escape what would end or bend them.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string plot_clause(const Series& s, int index) {
  const std::string data = fmt::format("$series{}", index);
  const std::string axes = s.axis == 2 ? " axes x1y2" : "";
  switch (s.style) {
    case SeriesStyle::kLines:
      return fmt::format("{} using 1:2{} with linespoints pointtype 7 pointsize 0.6 linewidth 2 title {}", data, axes,
                         quoted(s.title));
    case SeriesStyle::kPointsErrors:
      return fmt::format("{} using 1:2:3{} with yerrorbars pointtype 6 pointsize 1 linewidth 1.5 title {}", data,
                         axes, quoted(s.title));
    case SeriesStyle::kSteps:
      return fmt::format("{} using 1:2{} with steps linewidth 1.5 title {}", data, axes, quoted(s.title));
    case SeriesStyle::kPoints:
      return fmt::format("{} using 1:2{} with points pointtype {} pointsize 1.2 title {}", data, axes, 2 + index % 2 * 4,
                         quoted(s.title));
  }
  return "";
}

}  // namespace

std::string gnuplot_script(const Figure& figure, const std::string& svg_name) {
  std::string script = fmt::format(
      "# Written by crawlq; run `gnuplot {}.gp` to redraw, or edit the styles below.\n"
      "set terminal svg size {},{} dynamic enhanced font 'Helvetica,13' background rgb 'white'\n"
      "set output {}\n"
      "set title {}\nset xlabel {}\nset ylabel {}\n"
      "set key outside right top\nset grid\n",
      svg_name.substr(0, svg_name.rfind('.')), figure.width, figure.height, quoted(svg_name), quoted(figure.title),
      quoted(figure.x_label), quoted(figure.y_label));
  if (figure.integer_x) script += "set xtics 1\n";
  if (!figure.y2_label.empty()) script += fmt::format("set y2label {}\nset y2tics\nset ytics nomirror\n", quoted(figure.y2_label));
  for (std::size_t i = 0; i < figure.series.size(); ++i) {
    const Series& s = figure.series[i];
    script += fmt::format("$series{} << EOD\n", i);
    for (std::size_t k = 0; k < s.x.size(); ++k) {
      script += fmt::format("{:.12g} {:.12g}", s.x[k], s.y[k]);
      if (s.style == SeriesStyle::kPointsErrors) script += fmt::format(" {:.12g}", s.half_width.at(k));
      script += '\n';
    }
    script += "EOD\n";
  }
  script += "plot ";
  for (std::size_t i = 0; i < figure.series.size(); ++i)
    script += (i ? ", \\\n     " : "") + plot_clause(figure.series[i], static_cast<int>(i));
  return script + "\n";
}

bool gnuplot_available() { return std::system("command -v gnuplot >/dev/null 2>&1") == 0; }

bool render_svg(const Figure& figure, const std::filesystem::path& dir, const std::string& stem) {
  const std::filesystem::path script_path = dir / (stem + ".gp");
  {
    std::ofstream out(script_path);
    if (!out) throw std::runtime_error(fmt::format("{}: cannot write the file", script_path.string()));
    out << gnuplot_script(figure, stem + ".svg");
  }
  if (!gnuplot_available()) return false;
  // gnuplot resolves `set output` against its working directory: run it inside `dir`.
  const std::string command =
      fmt::format("cd '{}' && gnuplot '{}.gp' 2>'{}.gnuplot.log'", dir.string(), stem, stem);
  if (std::system(command.c_str()) != 0)
    throw std::runtime_error(fmt::format("gnuplot failed on {} (see {}.gnuplot.log beside it)", script_path.string(), stem));
  std::filesystem::remove(dir / (stem + ".gnuplot.log"));
  return true;
}

}  // namespace crawlq::validation
