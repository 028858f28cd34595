#include "output/output_file.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace crawlq::output {

OutputFile::OutputFile(std::filesystem::path target, std::string label)
    : target_(std::move(target)), label_(label.empty() ? target_.string() : std::move(label)) {
  std::error_code error;
  const auto status = std::filesystem::status(target_, error);
  in_place_ = std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
  if (std::filesystem::is_directory(status)) fail("a directory, not a file");
  // The temporary name is unique to this process, so two runs writing the same target never mix.
  written_ = in_place_
                 ? target_
                 : std::filesystem::path(fmt::format("{}.partial-{}", target_.string(), getpid()));
  // Known to the signal handler before it exists, so that no moment leaves it behind.
  if (!in_place_) temporary_.emplace(std::filesystem::absolute(written_, error).string());
  out_.open(written_, std::ios::binary | std::ios::trunc);
  if (!out_) fail(std::strerror(errno));
}

OutputFile::~OutputFile() {
  if (committed_ || in_place_) return;
  out_.close();
  std::error_code ignored;
  std::filesystem::remove(written_, ignored);
  temporary_.reset();
}

void OutputFile::fail(const std::string& what) {
  if (out_.is_open()) out_.close();
  if (!in_place_ && !written_.empty()) {
    std::error_code ignored;
    std::filesystem::remove(written_, ignored);
  }
  temporary_.reset();
  committed_ = true;  // nothing left for the destructor
  throw OutputError(fmt::format("{}: cannot write the file: {}", label_, what));
}

void OutputFile::commit() {
  out_.flush();
  if (!out_) fail("a write failed (disk full?)");
  out_.close();
  if (out_.fail()) fail("closing it failed (disk full?)");
  if (!in_place_) {
    std::error_code error;
    std::filesystem::rename(written_, target_, error);
    if (error) fail(error.message());
  }
  temporary_.reset();  // renamed: the name is the target's now
  committed_ = true;
}

void write_whole_file(const std::filesystem::path& target, const std::string& text,
                      const std::string& label) {
  OutputFile file(target, label);
  file.stream() << text;
  file.commit();
}

void require_writable_directory(const std::filesystem::path& dir, const std::string& label) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error || !std::filesystem::is_directory(dir))
    throw OutputError(
        fmt::format("{}: cannot make the directory: {}", label,
                    error ? error.message() : std::string("a file of that name is in the way")));
  const std::filesystem::path probe = dir / fmt::format(".crawlq-write-test-{}", getpid());
  write_whole_file(probe, std::string(4096, ' '), label);
  std::filesystem::remove(probe, error);
}

}  // namespace crawlq::output
