#include "app/bash_completion.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

namespace crawlq::app {

namespace {

struct Completions {
  std::vector<std::string> children, flags, value_flags, name_flags;
  bool names_where_positional = false;  // a scenario (or log) goes there: shipped names complete it
  bool files_where_positional = false;
};

Completions completions_of(const CLI::App& command) {
  Completions c;
  for (const CLI::App* sub : command.get_subcommands({})) c.children.push_back(sub->get_name());
  for (const CLI::Option* option : command.get_options({})) {
    if (!option->nonpositional()) {
      const std::string name = option->get_name(true);
      c.files_where_positional = true;
      c.names_where_positional = c.names_where_positional || name == "FILE" || name == "LOG";
      continue;
    }
    std::vector<std::string> names;
    for (const auto& s : option->get_snames()) names.push_back("-" + s);
    for (const auto& l : option->get_lnames()) names.push_back("--" + l);
    c.flags.insert(c.flags.end(), names.begin(), names.end());
    if (option->get_expected_min() == 0) continue;
    c.value_flags.insert(c.value_flags.end(), names.begin(), names.end());
    // A flag whose value is a scenario file takes a shipped name as well.
    for (const auto& l : option->get_lnames())
      if (l == "scenario" || l == "simulator-file") c.name_flags.push_back("--" + l);
  }
  return c;
}

void write_cases(std::string& out, const CLI::App& command, const std::string& path) {
  const Completions c = completions_of(command);
  out += fmt::format(
      "    \"{}\")\n      children=\"{}\"\n      flags=\"{}\"\n      value_flags=\"{}\"\n      name_flags=\"{}\"\n"
      "      positional={} ;;\n",
      path, fmt::join(c.children, " "), fmt::join(c.flags, " "), fmt::join(c.value_flags, " "),
      fmt::join(c.name_flags, " "),
      c.names_where_positional ? "names" : (c.files_where_positional ? "files" : "none"));
  for (const CLI::App* sub : command.get_subcommands({}))
    write_cases(out, *sub, path.empty() ? sub->get_name() : path + " " + sub->get_name());
}

}  // namespace

std::string bash_completion(const CLI::App& app) {
  std::string cases;
  write_cases(cases, app, "");
  return fmt::format(
      R"(# bash completion for crawlq: commands, their flags, and the shipped scenarios' names.
# Written by crawlq-docs from crawlq's own command line: edit the help texts, not this.
_crawlq() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}
  local path="" children flags value_flags name_flags positional i
  _crawlq_table() {{
    case "$1" in
{}    esac
  }}
  # The command path so far (`fit arrivals`): each word that names a child of the path before it.
  _crawlq_table ""
  for ((i = 1; i < COMP_CWORD; i++)); do
    if [[ " $children " == *" ${{COMP_WORDS[i]}} "* ]]; then
      path=${{path:+$path }}${{COMP_WORDS[i]}}
      _crawlq_table "$path"
    fi
  done
  local names=""
  if [[ " $value_flags " == *" $prev "* ]]; then
    [[ " $name_flags " == *" $prev "* ]] && names=$("${{COMP_WORDS[0]}}" scenarios --names 2>/dev/null)
    COMPREPLY=($(compgen -W "$names" -- "$cur") $(compgen -f -- "$cur"))
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [[ -n $children ]]; then
    COMPREPLY=($(compgen -W "$children" -- "$cur"))
  elif [[ $positional == names ]]; then
    names=$("${{COMP_WORDS[0]}}" scenarios --names 2>/dev/null)
    COMPREPLY=($(compgen -W "$names" -- "$cur") $(compgen -f -- "$cur"))
  elif [[ $positional == files ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o filenames -F _crawlq crawlq
)",
      cases);
}

}  // namespace crawlq::app
