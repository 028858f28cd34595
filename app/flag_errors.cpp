#include "app/flag_errors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string_view>

#include "model/message_text.hpp"
#include "scenarios/yaml_reader.hpp"

namespace crawlq::app {

namespace {

// Edits (insertions, deletions, substitutions) from a to b.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The command whose flags were being read: the deepest subcommand parsed.
const CLI::App& command_of(const CLI::App& app) {
  const CLI::App* command = &app;
  for (;;) {
    const auto parsed = command->get_subcommands();
    if (parsed.empty()) return *command;
    command = parsed.front();
  }
}

// "--name" for each long flag of `command`, "-n" for each short one.
std::vector<std::string> flags_of(const CLI::App& command) {
  std::vector<std::string> flags;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) flags.push_back("--" + name);
    for (const std::string& name : option->get_snames()) flags.push_back("-" + name);
  }
  return flags;
}

// The known flag nearest to `given` when it is near enough to be a slip (a few edits, or the start
// of exactly one flag), else "".
std::string nearest_flag(const std::string& given, const std::vector<std::string>& flags) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, given.size() / 4) + 1;
  for (const std::string& flag : flags) {
    const std::size_t d = edit_distance(given, flag);
    if (d < best_distance) best_distance = d, best = flag;
  }
  if (!best.empty()) return best;
  std::vector<std::string> extending;
  for (const std::string& flag : flags)
    if (given.size() > 3 && flag.starts_with(given)) extending.push_back(flag);
  return extending.size() == 1 ? extending.front() : "";
}

// "solve" (main prints "crawlq: " before it).
std::string command_path(const CLI::App& command) {
  std::string path;
  for (const CLI::App* c = &command; c != nullptr; c = c->get_parent())
    path = c->get_parent() ? c->get_name() + (path.empty() ? "" : " " + path) : path;
  return path;
}

// A value a list flag takes: numbers, with commas between them.
bool looks_like_values(const std::string& word) {
  return !word.empty() && word.find_first_not_of("0123456789.,+-eE") == std::string::npos;
}

}  // namespace

std::string explain_parse_error(const CLI::App& app, const CLI::ParseError& error,
                                const std::vector<std::string>& args) {
  if (!dynamic_cast<const CLI::ExtrasError*>(&error)) return model::valid_utf8(error.what());
  const CLI::App& command = command_of(app);
  const std::string name = command_path(command);
  const std::vector<std::string> flags = flags_of(command);
  const auto known = [&](const std::string& flag) {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
  };
  // The command's own words: those after its name.
  const auto own = std::find(args.begin(), args.end(), command.get_name());
  const std::size_t first =
      own == args.end() ? 0 : static_cast<std::size_t>(own - args.begin()) + 1;
  const auto is_flag = [](const std::string& word) {
    return word.size() > 1 && word[0] == '-' &&
           !std::isdigit(static_cast<unsigned char>(word[1])) && word[1] != '.' && word != "--";
  };
  for (std::size_t i = first; i < args.size(); ++i) {
    const std::string flag = args[i].substr(0, args[i].find('='));
    if (!is_flag(args[i]) || known(flag)) continue;
    // One letter is too little to guess from.
    const std::string near = flag.size() > 2 ? nearest_flag(flag, flags) : "";
    return fmt::format("{}: unknown flag {}{} (every flag: crawlq {} --help)", name,
                       scenarios::shortened(flag),
                       near.empty() ? "" : fmt::format("; did you mean {}?", near), name);
  }
  // Values as separate words after a flag that takes one: "--thresholds 2 2 2".
  for (std::size_t i = first + 2; i < args.size(); ++i) {
    const std::string& flag = args[i - 2];
    if (is_flag(args[i]) || is_flag(args[i - 1]) || !known(flag)) continue;
    std::size_t last = i;
    while (last + 1 < args.size() && !is_flag(args[last + 1])) ++last;
    bool values = true;
    for (std::size_t j = i - 1; j <= last; ++j) values = values && looks_like_values(args[j]);
    if (!values) continue;
    std::string words = args[i - 1], joined = args[i - 1];
    for (std::size_t j = i; j <= last; ++j) words += " " + args[j], joined += "," + args[j];
    return fmt::format(
        "{}: {} {}: {} takes one word; a list goes as one word, its values separated by commas "
        "({} {})",
        name, flag, scenarios::shortened(words), flag, flag, scenarios::shortened(joined));
  }
  return fmt::format("{}: {} (see crawlq {} --help)", name, model::valid_utf8(error.what()), name);
}

}  // namespace crawlq::app
