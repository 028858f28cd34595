#include "app/help_formatter.hpp"

#include <sstream>

namespace crawlq::app {

std::string wrap_text(const std::string& text, std::size_t width) {
  std::string out;
  std::istringstream lines(text);
  std::string line;
  bool first_line = true;
  while (std::getline(lines, line)) {
    if (!first_line) out += '\n';
    first_line = false;
    std::istringstream words(line);
    std::string word, current;
    // Leading spaces (an indented example) are kept on the line's first piece.
    const std::size_t indent = line.find_first_not_of(' ');
    current = indent == std::string::npos ? "" : line.substr(0, indent);
    bool empty = true;
    while (words >> word) {
      if (!empty && current.size() + 1 + word.size() > width) {
        out += current + '\n';
        current.clear();
        empty = true;
      }
      current += (empty ? "" : " ") + word;
      empty = false;
    }
    out += current;
  }
  if (!text.empty() && text.back() == '\n') out += '\n';
  return out;
}

std::string WrappingFormatter::make_option_desc(const CLI::Option* option) const {
  return wrap_text(CLI::Formatter::make_option_desc(option), kHelpColumns - get_column_width());
}

std::string WrappingFormatter::make_subcommand(const CLI::App* command) const {
  std::stringstream out;
  CLI::detail::format_help(out, command->get_display_name(true),
                           wrap_text(command->get_description(), kHelpColumns - get_column_width()),
                           get_column_width());
  return out.str();
}

std::string WrappingFormatter::make_description(const CLI::App* app) const {
  return wrap_text(CLI::Formatter::make_description(app), kHelpColumns);
}

}  // namespace crawlq::app
