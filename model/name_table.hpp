#pragma once
// An enum's names in one table: the name of each value, the value of a name (a refusal lists the
// known ones), and the list itself for help texts and schemas. A new value is a new row; its name,
// its parse and every "(known: ...)" follow.
#include <fmt/format.h>

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace crawlq::model {

template <class Enum>
struct Named {
  Enum value;
  std::string_view name;  // a literal: .data() is a C string
};

template <class Enum, std::size_t N>
class NameTable {
 public:
  // `noun` names what a value is, in refusals ("unknown search 'x' (known: ...)").
  constexpr NameTable(std::string_view noun, std::array<Named<Enum>, N> rows)
      : noun_(noun), rows_(rows) {}

  constexpr std::string_view name(Enum value) const {
    for (const Named<Enum>& row : rows_)
      if (row.value == value) return row.name;
    return "?";
  }
  // The value named `name`; std::invalid_argument listing the known names otherwise.
  Enum parse(std::string_view name) const {
    for (const Named<Enum>& row : rows_)
      if (row.name == name) return row.value;
    throw std::invalid_argument(fmt::format("unknown {} '{}' (known: {})", noun_, name, known()));
  }
  bool contains(std::string_view name) const {
    for (const Named<Enum>& row : rows_)
      if (row.name == name) return true;
    return false;
  }
  // The names in the table's order, joined by `separator`.
  std::string known(std::string_view separator = ", ") const {
    std::string text;
    for (const Named<Enum>& row : rows_)
      text += fmt::format("{}{}", text.empty() ? "" : separator, row.name);
    return text;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> list;
    for (const Named<Enum>& row : rows_) list.emplace_back(row.name);
    return list;
  }
  std::vector<Enum> values() const {
    std::vector<Enum> list;
    for (const Named<Enum>& row : rows_) list.push_back(row.value);
    return list;
  }

 private:
  std::string_view noun_;
  std::array<Named<Enum>, N> rows_;
};

}  // namespace crawlq::model
