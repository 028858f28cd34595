#include "output/gnuplot_figure.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "output/output_file.hpp"
#include "output/temporary_files.hpp"

namespace crawlq::output {

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
  const std::string color = s.color > 0 ? fmt::format(" linecolor {}", s.color) : "";
  switch (s.style) {
    case SeriesStyle::kLines:
      return fmt::format(
          "{} using 1:2{} with linespoints pointtype 7 pointsize 0.6 linewidth 2{} title {}", data,
          axes, color, quoted(s.title));
    case SeriesStyle::kPointsErrors:
      return fmt::format(
          "{} using 1:2:3{} with yerrorbars pointtype 6 pointsize 1 linewidth 1.5{} title {}", data,
          axes, color, quoted(s.title));
    case SeriesStyle::kSteps:
      return fmt::format("{} using 1:2{} with steps linewidth 1.5{} title {}", data, axes, color,
                         quoted(s.title));
    case SeriesStyle::kPoints:
      return fmt::format("{} using 1:2{} with points pointtype {} pointsize 1.2{} title {}", data,
                         axes, s.point_type > 0 ? s.point_type : 2 + index % 2 * 4, color,
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
      "set grid\n",
      svg_name.substr(0, svg_name.rfind('.')), figure.width, figure.height, quoted(svg_name),
      quoted(figure.title), quoted(figure.x_label), quoted(figure.y_label));
  if (!figure.y2_label.empty())
    script +=
        fmt::format("set y2label {}\nset y2tics\nset ytics nomirror\n", quoted(figure.y2_label));
  // Many curves: the key goes under the plot, which keeps its width.
  script += figure.key_below || figure.series.size() > 6 ? "set key below horizontal maxcols 2\n"
                                                         : "set key outside right top\n";
  if (figure.integer_x) script += "set xtics 1\n";
  if (figure.y_tick_max >= 0) script += fmt::format("set ytics 0,1,{}\n", figure.y_tick_max);
  if (figure.y_low < figure.y_high)
    script += fmt::format("set yrange [{}:{}]\n", figure.y_low, figure.y_high);
  if (figure.y2_low < figure.y2_high)
    script += fmt::format("set y2range [{}:{}]\n", figure.y2_low, figure.y2_high);
  if (figure.y2_tick_max >= 0) script += fmt::format("set y2tics 0,1,{}\n", figure.y2_tick_max);
  for (std::size_t i = 0; i < figure.series.size(); ++i) {
    const Series& s = figure.series[i];
    script += fmt::format("$series{} << EOD\n", i);
    for (std::size_t k = 0; k < s.x.size(); ++k) {
      script += fmt::format("{:.12g} {:.12g}", s.x[k], s.y[k]);
      if (s.style == SeriesStyle::kPointsErrors)
        script += fmt::format(" {:.12g}", s.half_width.at(k));
      script += '\n';
    }
    script += "EOD\n";
  }
  script += "plot ";
  for (std::size_t i = 0; i < figure.series.size(); ++i)
    script += (i ? ", \\\n     " : "") + plot_clause(figure.series[i], static_cast<int>(i));
  return script + "\n";
}

namespace {
// std::system's shell status; an interrupt (Ctrl-C reaches gnuplot too, while system() keeps this
// process from it) is passed on to this process, so that it stops as the user asked instead of
// taking a killed gnuplot for a missing one and writing a report without its figures.
int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  const bool interrupted =
      (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGQUIT)) ||
      (WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGINT);
  if (interrupted) end_by_signal(SIGINT);  // the outputs in progress removed first
  return status;
}
}  // namespace

bool gnuplot_available() { return shell("command -v gnuplot >/dev/null 2>&1") == 0; }

bool render_svg(const Figure& figure, const std::filesystem::path& dir, const std::string& stem) {
  const std::filesystem::path script_path = dir / (stem + ".gp");
  write_whole_file(script_path, gnuplot_script(figure, stem + ".svg"));
  if (!gnuplot_available()) return false;
  // gnuplot resolves `set output` against its working directory: run it inside `dir`.
  const std::string command =
      fmt::format("cd '{}' && gnuplot '{}.gp' 2>'{}.gnuplot.log'", dir.string(), stem, stem);
  if (shell(command) != 0)
    throw std::runtime_error(fmt::format("gnuplot failed on {} (see {}.gnuplot.log beside it)",
                                         script_path.string(), stem));
  std::filesystem::remove(dir / (stem + ".gnuplot.log"));
  return true;
}

}  // namespace crawlq::output
