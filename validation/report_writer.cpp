#include "validation/report_writer.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <map>
#include <stdexcept>

#include "output/output_file.hpp"

namespace crawlq::validation {

namespace {

const std::map<std::string, std::string> kTableTitles{
    {"1", "Table 1: the best threshold policy for each set of modes (first example, K = 5)"},
    {"2", "Table 2: buffer size K"},
    {"3", "Table 3: the service rate scaled by s (printed values withheld in our copy)"},
    {"4", "Table 4: the obsolescence rate scaled by s (printed values withheld in our copy)"},
    {"5", "Table 5: the real-data example (K = 20), best policy for each set of modes"},
    {"CLW", "Coffman, Liu, Weber (1998): the golden-ratio policy against the lower bound"},
    {"control", "Beyond the paper: the best of each class of policies against the best possible"},
    {"fit",
     "Section 7's data pipeline: the service fit, the MAP of batches, Table 5 with correlated arrivals"}};

// A table's heading; a table added to the reproduction without one still gets a plain heading.
std::string table_title(const std::string& table) {
  const auto it = kTableTitles.find(table);
  return it == kTableTitles.end() ? "Table " + table : it->second;
}

std::string computed_text(const ReproducedRow& r) {
  if (r.half_width > 0) return fmt::format("{:.4f} ± {:.2g}", r.computed, r.half_width);
  if (r.computed == std::floor(r.computed) && std::abs(r.computed) < 1e6)
    return fmt::format("{:.0f}", r.computed);
  return fmt::format("{:.4f}", r.computed);
}

// "printed / computed" policy of a row, "-" for a side that has none, empty when neither has one.
std::string policy_text(const ReproducedRow& row) {
  if (row.printed_policy.empty() && row.computed_policy.empty()) return "";
  return fmt::format("{} / {}", row.printed_policy.empty() ? "-" : row.printed_policy,
                     row.computed_policy.empty() ? "-" : row.computed_policy);
}

std::string check_text(const SimulatorCheck& c) {
  return fmt::format("{}: {:.4f} ± {:.2g}; {}", c.what, c.interval.mean, c.interval.half_width,
                     c.verdict);
}

std::string escape_html(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::vector<std::string> tables_present(const Reproduction& r) {
  std::vector<std::string> tables;
  for (const auto& row : r.rows)
    if (tables.empty() || tables.back() != row.table) tables.push_back(row.table);
  return tables;
}

int flagged_count(const Reproduction& r) {
  int n = 0;
  for (const auto& row : r.rows) n += !row.agrees;
  return n;
}

std::string markdown(const Reproduction& r) {
  std::string md = "# The paper's section 7, reproduced by crawlq\n\n";
  md += fmt::format(
      "Avrachenkov, Dudin, Klimenok, Nain, Semenova (2011), *Optimal threshold control by the robots of Web search "
      "engines with obsolescence of documents*. {} rows compared, {} flagged. Seed {}.\n\n",
      r.rows.size(), flagged_count(r), r.options.seed);
  for (const auto& remark : r.remarks) md += "- " + remark + "\n";
  for (const auto& table : tables_present(r)) {
    md += fmt::format(
        "\n## {}\n\n| row | printed | computed | policy printed / computed | source | agrees |\n"
        "|---|---|---|---|---|---|\n",
        table_title(table));
    std::string flagged;
    for (const auto& row : r.rows) {
      if (row.table != table) continue;
      const std::string policy = policy_text(row);
      md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", row.label,
                        row.printed.empty() ? "-" : row.printed, computed_text(row), policy,
                        row.source, row.agrees ? "yes" : "**FLAGGED**");
      if (!row.agrees) {
        flagged += fmt::format("- **{}** (printed {}, computed {}): {}", row.label, row.printed,
                               computed_text(row), row.note.empty() ? "no reason found" : row.note);
        if (row.simulator) flagged += ". Simulator: " + check_text(*row.simulator);
        flagged += ".\n";
      } else if (!row.note.empty()) {
        flagged += fmt::format("- {}: {}.\n", row.label, row.note);
      }
    }
    if (!flagged.empty()) md += "\n" + flagged;
  }
  if (!r.figures.empty()) md += "\n## Figures\n";
  for (const auto& f : r.figures)
    md += fmt::format("\n![{}]({}.svg)\n\n{}\n", f.figure.title, f.id, f.caption);
  return md;
}

std::string html(const Reproduction& r) {
  std::string h = R"(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>crawlq: the paper's section 7 reproduced</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 70rem; margin: 2rem auto; padding: 0 1rem; color: #222; line-height: 1.45; }
table { border-collapse: collapse; margin: 1rem 0; font-size: 0.92rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; text-align: right; }
th { background: #f2f2f2; } td:first-child, th:first-child { text-align: left; }
tr.flagged { background: #fff1e6; } .flag { color: #b34700; font-weight: bold; }
figure { margin: 2rem 0; } figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.92rem; color: #444; }
#missing-images { display: none; background: #fdd; padding: 0.5rem; }
</style>
</head>
<body>
<h1>The paper's section 7, reproduced by crawlq</h1>
<p id="missing-images">Some figures did not load: keep the .svg files beside this page (or run gnuplot on the .gp files).</p>
)";
  h += fmt::format(
      "<p>Avrachenkov, Dudin, Klimenok, Nain, Semenova (2011), <em>Optimal threshold control by the robots of Web search "
      "engines with obsolescence of documents</em>. {} rows compared, <span class=\"flag\">{} flagged</span>. Seed "
      "{}.</p>\n<ul>\n",
      r.rows.size(), flagged_count(r), r.options.seed);
  for (const auto& remark : r.remarks) h += "<li>" + escape_html(remark) + "</li>\n";
  h += "</ul>\n";
  for (const auto& table : tables_present(r)) {
    h += fmt::format(
        "<h2>{}</h2>\n<table>\n<tr><th>row</th><th>printed</th><th>computed</th><th>policy printed / "
        "computed</th><th>source</th><th>agrees</th></tr>\n",
        escape_html(table_title(table)));
    std::string flagged;
    for (const auto& row : r.rows) {
      if (row.table != table) continue;
      const std::string policy = policy_text(row);
      h += fmt::format(
          "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
          row.agrees ? "" : " class=\"flagged\"", escape_html(row.label),
          row.printed.empty() ? "-" : escape_html(row.printed), escape_html(computed_text(row)),
          escape_html(policy), row.source,
          row.agrees ? "yes" : "<span class=\"flag\">flagged</span>");
      if (!row.agrees) {
        flagged += fmt::format("<li><strong>{}</strong> (printed {}, computed {}): {}",
                               escape_html(row.label), escape_html(row.printed),
                               escape_html(computed_text(row)),
                               escape_html(row.note.empty() ? "no reason found" : row.note));
        if (row.simulator) flagged += ". Simulator: " + escape_html(check_text(*row.simulator));
        flagged += ".</li>\n";
      } else if (!row.note.empty()) {
        flagged += fmt::format("<li>{}: {}.</li>\n", escape_html(row.label), escape_html(row.note));
      }
    }
    h += "</table>\n";
    if (!flagged.empty()) h += "<ul>\n" + flagged + "</ul>\n";
  }
  if (!r.figures.empty()) h += "<h2>Figures</h2>\n";
  for (const auto& f : r.figures)
    h +=
        fmt::format("<figure><img src=\"{}.svg\" alt=\"{}\"><figcaption>{}</figcaption></figure>\n",
                    f.id, escape_html(f.figure.title), escape_html(f.caption));
  // A reader who opened the page without its figures is told so; the count also lets a headless
  // browser check the page.
  h += R"(<script>
window.addEventListener("load", function () {
  var images = document.querySelectorAll("img");
  var loaded = 0;
  images.forEach(function (img) { if (img.complete && img.naturalWidth > 0) loaded += 1; });
  document.body.setAttribute("data-images", loaded + "/" + images.length);
  if (loaded < images.length) document.getElementById("missing-images").style.display = "block";
});
</script>
</body>
</html>
)";
  return h;
}

}  // namespace

ReportFiles write_report(const Reproduction& r, const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    throw std::runtime_error(
        fmt::format("{}: cannot create the directory ({})", dir.string(), error.message()));
  ReportFiles files{dir / "report.md", dir / "report.html", 0};
  for (const auto& f : r.figures) files.figures_drawn += output::render_svg(f.figure, dir, f.id);
  output::write_whole_file(files.markdown, markdown(r));
  output::write_whole_file(files.html, html(r));
  return files;
}

}  // namespace crawlq::validation
