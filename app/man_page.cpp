#include "app/man_page.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <sstream>
#include <vector>

#include "scenarios/shipped_files.hpp"

namespace crawlq::app {

namespace {

// Text as roff reads it literally: backslashes escaped, every '-' a minus (option names must be
// typed as printed), and no line taken for a request.
std::string roff(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  return out;
}

std::string roff_line(const std::string& line) {
  const std::string escaped = roff(line);
  return (!escaped.empty() && (escaped[0] == '.' || escaped[0] == '\'')) ? "\\&" + escaped
                                                                         : escaped;
}

// Help text is written for an 80-column terminal: its prose refills, but an example or an indented
// line keeps a line of its own.
void write_paragraph(std::ostringstream& out, const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.starts_with("Example") || line.starts_with(" ")) out << ".br\n";
    const std::size_t start = line.find_first_not_of(' ');
    if (start != std::string::npos) out << roff_line(line.substr(start)) << "\n";
  }
}

std::string usage(const CLI::App& command, const std::string& path) {
  std::string line = path + " [OPTIONS]";
  if (!command.get_subcommands({}).empty()) return line + " COMMAND";
  for (const CLI::Option* option : command.get_options({}))
    if (!option->nonpositional()) {
      const std::string name = option->get_name(true);
      const bool many = option->get_items_expected_max() > 1;
      line += " " + (option->get_required() ? name : "[" + name + "]") + (many ? "..." : "");
    }
  return line;
}

void write_command(std::ostringstream& out, const CLI::App& command, const std::string& path) {
  out << ".SS \"" << roff(usage(command, path)) << "\"\n";
  write_paragraph(out, command.get_description());
  for (const CLI::Option* option : command.get_options({})) {
    if (option->get_name() == "--help") continue;
    std::string names;
    if (option->nonpositional()) {
      std::vector<std::string> spellings;
      for (const auto& s : option->get_snames())
        spellings.push_back(fmt::format("\\fB\\-{}\\fR", s));
      for (const auto& l : option->get_lnames())
        spellings.push_back(fmt::format("\\fB\\-\\-{}\\fR", roff(l)));
      names = fmt::format("{}", fmt::join(spellings, ", "));
      if (option->get_expected_min() > 0)
        names += fmt::format(" \\fI{}\\fR", roff(option->get_type_name()));
    } else {
      names = "\\fI" + roff(option->get_name(true)) + "\\fR";
    }
    out << ".TP\n" << names << "\n";
    write_paragraph(out, option->get_description());
    if (!option->get_default_str().empty())
      out << "(default: " << roff(option->get_default_str()) << ")\n";
  }
  for (const CLI::App* sub : command.get_subcommands({}))
    write_command(out, *sub, path + " " + sub->get_name());
}

}  // namespace

std::string man_page(const CLI::App& app, const std::string& version) {
  std::ostringstream out;
  const std::string description = app.get_description();
  out << ".\\\" crawlq(1), written by crawlq-docs from crawlq's own command line: edit the help texts, not this.\n"
      << ".TH CRAWLQ 1 \"\" \"" << roff("crawlq " + version) << "\" \"User Commands\"\n"
      << ".SH NAME\ncrawlq \\- loss, obsolescence and starvation of the page queue between crawling robots and an "
         "indexer\n"
      << ".SH SYNOPSIS\n.B crawlq\n.I command\n[\\fIoptions\\fR] [\\fIFILE\\fR]\n.br\n.B crawlq \\-\\-version\n"
      << ".SH DESCRIPTION\n";
  std::string what = description.substr(description.find(':') + 2);
  what[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(what[0])));
  write_paragraph(out, what);
  out << ".PP\nEvery FILE may be a shipped scenario's name instead (see SHIPPED SCENARIOS); a file of that name in "
         "the current directory wins.\n"
      << ".SH COMMANDS\n";
  for (const CLI::App* command : app.get_subcommands({}))
    write_command(out, *command, "crawlq " + command->get_name());
  out << ".SH SHIPPED SCENARIOS\n"
         "The papers' examples and teaching examples, installed in \\fIshare/crawlq/scenarios\\fR (and crawler "
         "logs in \\fIshare/crawlq/logs\\fR) beside the program. \\fBcrawlq scenarios\\fR lists them.\n";
  for (const scenarios::ShippedFile& file : scenarios::shipped_files())
    out << ".TP\n\\fB" << roff(file.name) << "\\fR (" << scenarios::kind_name(file.kind) << ")\n"
        << roff_line(file.summary) << "\n";
  out << ".SH EXIT STATUS\n.TP\n0\nsuccess (and \\-\\-help, \\-\\-version)\n.TP\n1\n\\fBvalidate\\fR: some measure "
         "disagrees; any command: a computation that failed on good input\n.TP\n2\nbad input: one line on standard error names the file or flag, "
         "the key and the value; nothing else is written\n"
      << ".SH FILES\n.TP\n\\fI/usr/share/crawlq/\\fR\nthe shipped scenarios and logs (under the installation "
         "prefix)\n.TP\n\\fI/usr/share/doc/crawlq/\\fR\nthe tutorial, the scenario format and the JSON keys "
         "(interface.md), the lab's teacher's guide, the map from the papers' equations to the code\n"
      << ".SH SEE ALSO\nK. Avrachenkov, A. Dudin, V. Klimenok, P. Nain, O. Semenova, \\fIOptimal threshold control by "
         "the robots of Web search engines with obsolescence of documents\\fR, Computer Networks 55(8), 2011.\n"
         ".br\nE. G. Coffman, Z. Liu, R. R. Weber, \\fIOptimal robot scheduling for Web search engines\\fR, Journal "
         "of Scheduling 1(1), 1998.\n";
  return out.str();
}

}  // namespace crawlq::app
