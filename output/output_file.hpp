#pragma once
// A file written whole or not at all. The text goes to a temporary file beside the target, which is
// flushed and closed with every error checked and only then renamed over the target: an interrupted
// or failed run leaves the previous file as it was, and a full disk is an error, not a short file.
// A target that is not a regular file (/dev/stdout, a pipe) is written in place, errors still
// checked. A signal that ends the process removes the temporary too
// (validation/temporary_files.hpp).
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>

#include "model/input_error.hpp"
#include "output/temporary_files.hpp"

namespace crawlq::output {

// The file could not be written: the message names the path (and the flag, when one was given).
class OutputError : public model::InputError {
 public:
  using model::InputError::InputError;
};

class OutputFile {
 public:
  // `label` prefixes messages, e.g. "--export results.csv"; empty: the path.
  explicit OutputFile(std::filesystem::path target, std::string label = "");
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return out_; }
  // Flushes, closes and renames into place; OutputError when any step failed.
  void commit();

 private:
  [[noreturn]] void fail(const std::string& what);
  std::filesystem::path target_, written_;
  std::string label_;
  std::optional<TemporaryFile> temporary_;
  std::ofstream out_;
  bool in_place_ = false, committed_ = false;
};

// The whole of `text` into `target`, as OutputFile does.
void write_whole_file(const std::filesystem::path& target, const std::string& text,
                      const std::string& label = "");

// Creates `dir` if needed and proves a file can be written in it (OutputError otherwise), so that a
// command that will write there refuses before its work, not after.
void require_writable_directory(const std::filesystem::path& dir, const std::string& label);

}  // namespace crawlq::output
