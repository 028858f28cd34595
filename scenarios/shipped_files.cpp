#include "scenarios/shipped_files.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>

#include "scenarios/scenario_loader.hpp"

namespace crawlq::scenarios {

namespace fs = std::filesystem;

namespace {

// How far above its file a program (bin/, build/app/) or the Python module
// (lib/python3/dist-packages/crawlq/, build/python/crawlq/) may sit below share/crawlq.
constexpr int kMostLevelsUp = 4;

std::optional<fs::path> data_directory_above(fs::path start) {
  std::error_code error;
  for (int up = 0; up <= kMostLevelsUp && !start.empty(); ++up, start = start.parent_path()) {
    if (fs::is_directory(start / "share" / "crawlq" / "scenarios", error)) return start / "share" / "crawlq";
    if (start == start.root_path()) break;
  }
  return std::nullopt;
}

// The shared object holding this code when it is not the program itself (the Python module); dladdr
// names the program by its argv[0], which need not be a path, so the program is found by /proc instead.
std::optional<fs::path> library_file() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&data_directory_above), &info) == 0 || info.dli_fname == nullptr)
    return std::nullopt;
  const fs::path file(info.dli_fname);
  if (file.extension() != ".so" && file.filename().string().find(".so.") == std::string::npos) return std::nullopt;
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

// The leading comment's first sentence: what the file is, in the file's own words.
std::string first_sentence_of_comment(const fs::path& file) {
  std::ifstream in(file);
  std::string line, comment;
  while (std::getline(in, line) && line.starts_with("#")) {
    const std::size_t text = line.find_first_not_of("# ");
    if (text == std::string::npos) break;
    if (!comment.empty()) comment += ' ';
    comment += line.substr(text);
    if (const std::size_t end = comment.find(". "); end != std::string::npos) return comment.substr(0, end + 1);
  }
  return comment;
}

bool is_refresh_scenario(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with("refresh:")) return true;
  return false;
}

std::string log_summary(const fs::path& file) {
  std::ifstream in(file);
  const auto lines = std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
  return fmt::format("a crawler log of {} timestamps, for `crawlq fit arrivals`", lines);
}

std::vector<ShippedFile> files_in(const fs::path& folder, const std::string& extension, bool logs) {
  std::vector<ShippedFile> found;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (!entry.is_regular_file(error) || entry.path().extension() != extension) continue;
    ShippedFile file{entry.path().stem().string(), entry.path(), ShippedKind::kLog, ""};
    if (logs) {
      file.summary = log_summary(entry.path());
    } else {
      file.kind = is_refresh_scenario(entry.path()) ? ShippedKind::kRefresh : ShippedKind::kQueue;
      file.summary = first_sentence_of_comment(entry.path());
    }
    found.push_back(std::move(file));
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return found;
}

fs::path locate(const std::string& as_written, const std::string& folder, const std::string& extension,
                const char* what) {
  const fs::path written(as_written);
  std::error_code error;
  // A path with a directory in it means that file and nothing else.
  if (as_written.empty() || fs::exists(written, error) || as_written.find('/') != std::string::npos) return written;
  const auto data = shipped_data_directory();
  if (!data)
    throw ScenarioError(fmt::format("{}: no such file in {}, and no shipped {}s were found (crawlq looks for "
                                    "share/crawlq above its own directory)",
                                    as_written, fs::current_path(error).string(), what));
  for (const fs::path& candidate : {*data / folder / written, *data / folder / (as_written + extension)})
    if (fs::is_regular_file(candidate, error)) return candidate;
  std::vector<std::string> names;
  for (const ShippedFile& file : files_in(*data / folder, extension, folder == "logs")) names.push_back(file.name);
  throw ScenarioError(fmt::format("{}: no such file in {}, and no shipped {} of that name (shipped: {}; `crawlq "
                                  "scenarios` lists them)",
                                  as_written, fs::current_path(error).string(), what, fmt::join(names, ", ")));
}

}  // namespace

const char* kind_name(ShippedKind kind) {
  switch (kind) {
    case ShippedKind::kQueue: return "queue";
    case ShippedKind::kRefresh: return "refresh";
    case ShippedKind::kLog: return "log";
  }
  return "queue";
}

std::optional<fs::path> shipped_data_directory() {
  static const std::optional<fs::path> directory = find_data_directory();
  return directory;
}

std::vector<ShippedFile> shipped_files() {
  const auto data = shipped_data_directory();
  if (!data) return {};
  std::vector<ShippedFile> files = files_in(*data / "scenarios", ".yaml", false);
  std::vector<ShippedFile> logs = files_in(*data / "logs", ".log", true);
  files.insert(files.end(), logs.begin(), logs.end());
  return files;
}

fs::path locate_scenario(const std::string& as_written) { return locate(as_written, "scenarios", ".yaml", "scenario"); }

fs::path locate_log(const std::string& as_written) { return locate(as_written, "logs", ".log", "log"); }

}  // namespace crawlq::scenarios
