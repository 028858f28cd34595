#pragma once
// The scenarios and crawler logs shipped with crawlq, found from wherever crawlq runs, so that a
// name such as `paper-example-1` means the shipped file in every command, from any directory. They
// live in share/crawlq/ above the program's directory: <prefix>/share/crawlq once installed (`cmake
// --install`, the Debian package, or a package unpacked anywhere), build/share/crawlq in a build
// tree (the build copies them there). The Python module looks from its own file the same way.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/name_table.hpp"

namespace crawlq::scenarios {

enum class ShippedKind { kQueue, kRefresh, kLog };
inline constexpr model::NameTable<ShippedKind, 3> kShippedKindNames{
    "kind",
    {{{ShippedKind::kQueue, "queue"},
      {ShippedKind::kRefresh, "refresh"},
      {ShippedKind::kLog, "log"}}}};

struct ShippedFile {
  std::string name;  // the file name without its extension: what a command accepts
  std::filesystem::path path;
  ShippedKind kind = ShippedKind::kQueue;
  std::string
      summary;  // a scenario's first sentence of its leading comment; a log's first line count
};

const char* kind_name(ShippedKind kind);

// share/crawlq, or nothing when no such directory is found above the program (or the Python
// module).
std::optional<std::filesystem::path> shipped_data_directory();

// Every shipped scenario (queue and refresh), then every log, each group sorted by name.
std::vector<ShippedFile> shipped_files();

// The file a command should read for `as_written`: that file when it exists (a real file of the
// name wins), else the shipped scenario (or log) of that name, with or without its extension. When
// neither exists, ScenarioError names both: the file looked for and the shipped names there are.
std::filesystem::path locate_scenario(const std::string& as_written);
std::filesystem::path locate_log(const std::string& as_written);

}  // namespace crawlq::scenarios
