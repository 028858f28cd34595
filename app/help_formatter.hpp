#pragma once
// --help within 100 columns: the option parser prints each description on one line however long
// it is; this formatter wraps descriptions at word boundaries, continuation lines under the
// description's column.
#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

namespace crawlq::app {

inline constexpr std::size_t kHelpColumns = 100;

// `text` with its lines broken at spaces so that none is wider than `width` (a word wider than it
// stands alone); its own line breaks are kept.
std::string wrap_text(const std::string& text, std::size_t width);

class WrappingFormatter : public CLI::Formatter {
 public:
  std::string make_option_desc(const CLI::Option* option) const override;
  std::string make_subcommand(const CLI::App* command) const override;
  std::string make_description(const CLI::App* app) const override;
};

}  // namespace crawlq::app
