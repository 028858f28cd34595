#include "scenarios/shipped_files.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>

#include "scenarios/scenario_error.hpp"

namespace crawlq::scenarios {

namespace fs = std::filesystem;

namespace {

// How far above its file a program (bin/, build/app/) or the Python module
// (lib/python3/dist-packages/crawlq/, build/python/crawlq/) may sit below share/crawlq.
constexpr int kMostLevelsUp = 4;

std::optional<fs::path> data_directory_above(fs::path start) {
  std::error_code error;
  for (int up = 0; up <= kMostLevelsUp && !start.empty(); ++up, start = start.parent_path()) {
    if (fs::is_directory(start / "share" / "crawlq" / "scenarios", error))
      return start / "share" / "crawlq";
    if (start == start.root_path()) break;
  }
  return std::nullopt;
}

// The shared object holding this code when it is not the program itself (the Python module); dladdr
// names the program by its argv[0], which need not be a path, so the program is found by /proc
// instead.
std::optional<fs::path> library_file() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&data_directory_above), &info) == 0 ||
      info.dli_fname == nullptr)
    return std::nullopt;
  const fs::path file(info.dli_fname);
  if (file.extension() != ".so" && file.filename().string().find(".so.") == std::string::npos)
    return std::nullopt;
  std::error_code error;
  const fs::path absolute = fs::canonical(file, error);
  return error ? std::nullopt : std::optional<fs::path>(absolute);
}

std::optional<fs::path> find_data_directory() {
  if (const auto library = library_file())
    if (auto found = data_directory_above(library->parent_path())) return found;
  std::error_code error;
  const fs::path program = fs::read_symlink("/proc/self/exe", error);
  if (!error) return data_directory_above(program.parent_path());
  return std::nullopt;
}

// Where each kind of shipped file lives under share/crawlq, and what messages call it.
struct Shelf {
  const char* folder;
  const char* extension;
  const char* what;
};
constexpr Shelf kScenarioShelf{"scenarios", ".yaml", "scenario"};
constexpr Shelf kLogShelf{"logs", ".log", "log"};

// The names on a shelf (the file names without the extension), sorted: all a refusal needs.
std::vector<fs::path> files_on(const fs::path& data, const Shelf& shelf) {
  std::vector<fs::path> found;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(data / shelf.folder, error))
    if (entry.is_regular_file(error) && entry.path().extension() == shelf.extension)
      found.push_back(entry.path());
  std::sort(found.begin(), found.end(),
            [](const fs::path& a, const fs::path& b) { return a.stem() < b.stem(); });
  return found;
}

// A scenario's kind (a top-level `refresh:` key) and its leading comment's first sentence, what the
// file is in its own words, from one reading of it.
ShippedFile described_scenario(const fs::path& file) {
  ShippedFile shipped{file.stem().string(), file, ShippedKind::kQueue, ""};
  std::ifstream in(file);
  std::string line;
  bool in_leading_comment = true, sentence_done = false;
  while (std::getline(in, line)) {
    if (line.starts_with("refresh:")) shipped.kind = ShippedKind::kRefresh;
    in_leading_comment = in_leading_comment && line.starts_with("#");
    if (!in_leading_comment || sentence_done) continue;
    const std::size_t text = line.find_first_not_of("# ");
    if (text == std::string::npos) {
      sentence_done = true;
      continue;
    }
    if (!shipped.summary.empty()) shipped.summary += ' ';
    shipped.summary += line.substr(text);
    if (const std::size_t end = shipped.summary.find(". "); end != std::string::npos) {
      shipped.summary.resize(end + 1);
      sentence_done = true;
    }
  }
  return shipped;
}

ShippedFile described_log(const fs::path& file) {
  std::ifstream in(file);
  const auto lines =
      std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
  return {file.stem().string(), file, ShippedKind::kLog,
          fmt::format("a crawler log of {} timestamps, for `crawlq fit arrivals`", lines)};
}

fs::path locate(const std::string& as_written, const Shelf& shelf) {
  const fs::path written(as_written);
  std::error_code error;
  // A path with a directory in it means that file and nothing else.
  if (as_written.empty() || fs::exists(written, error) || as_written.find('/') != std::string::npos)
    return written;
  const auto data = shipped_data_directory();
  if (!data)
    throw ScenarioError(
        fmt::format("{}: no such file in {}, and no shipped {}s were found (crawlq looks for "
                    "share/crawlq above its own directory)",
                    as_written, fs::current_path(error).string(), shelf.what));
  const fs::path folder = *data / shelf.folder;
  for (const fs::path& candidate : {folder / written, folder / (as_written + shelf.extension)})
    if (fs::is_regular_file(candidate, error)) return candidate;
  std::vector<std::string> names;
  for (const fs::path& file : files_on(*data, shelf)) names.push_back(file.stem().string());
  throw ScenarioError(fmt::format(
      "{}: no such file in {}, and no shipped {} of that name (shipped: {}; `crawlq "
      "scenarios` lists them)",
      as_written, fs::current_path(error).string(), shelf.what, fmt::join(names, ", ")));
}

}  // namespace

const char* kind_name(ShippedKind kind) { return kShippedKindNames.name(kind).data(); }

std::optional<fs::path> shipped_data_directory() {
  static const std::optional<fs::path> directory = find_data_directory();
  return directory;
}

std::vector<ShippedFile> shipped_files() {
  const auto data = shipped_data_directory();
  if (!data) return {};
  std::vector<ShippedFile> files;
  for (const fs::path& file : files_on(*data, kScenarioShelf))
    files.push_back(described_scenario(file));
  for (const fs::path& file : files_on(*data, kLogShelf)) files.push_back(described_log(file));
  return files;
}

fs::path locate_scenario(const std::string& as_written) {
  return locate(as_written, kScenarioShelf);
}

fs::path locate_log(const std::string& as_written) { return locate(as_written, kLogShelf); }

}  // namespace crawlq::scenarios
