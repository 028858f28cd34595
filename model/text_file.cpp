#include "model/text_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "model/input_error.hpp"
#include "model/message_text.hpp"

namespace crawlq::model {

namespace {

std::string megabytes(std::size_t bytes) { return fmt::format("{} MiB", bytes >> 20); }

// What stat says a path is, in the words of a refusal; empty for a regular file.
std::string not_regular(const struct stat& status) {
  if (S_ISDIR(status.st_mode)) return "a directory";
  if (S_ISFIFO(status.st_mode)) return "a pipe (FIFO)";
  if (S_ISCHR(status.st_mode) || S_ISBLK(status.st_mode)) return "a device";
  if (S_ISSOCK(status.st_mode)) return "a socket";
  if (!S_ISREG(status.st_mode)) return "not a regular file";
  return "";
}

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string read_text_file(const std::filesystem::path& file, const std::string& what,
                           std::size_t most_bytes) {
  const std::string name = file.string();
  // stat before open: opening a FIFO for reading blocks until a writer comes, maybe never.
  struct stat status {};
  if (::stat(name.c_str(), &status) != 0)
    throw InputError(name, fmt::format("cannot open the file ({})", std::strerror(errno)));
  if (const std::string kind = not_regular(status); !kind.empty())
    throw InputError(name, fmt::format("{}, not {} (a regular file of {} at most)", kind, what,
                                       megabytes(most_bytes)));
  if (static_cast<std::uintmax_t>(status.st_size) > most_bytes)
    throw InputError(name, fmt::format("more than {}: not {}", megabytes(most_bytes), what));
  // O_NONBLOCK: should the path have become a FIFO since stat, open still returns at once, and
  // fstat below refuses it.
  const Descriptor fd(::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0)
    throw InputError(name, fmt::format("cannot open the file ({})", std::strerror(errno)));
  if (::fstat(fd.get(), &status) != 0 || !not_regular(status).empty())
    throw InputError(name, fmt::format("not a regular file, not {}", what));
  std::string text;
  text.resize(static_cast<std::size_t>(status.st_size));
  std::size_t held = 0;
  // A file that grows while it is read is read up to one byte past the bound, and refused there.
  for (;;) {
    if (held == text.size()) {
      if (held > most_bytes)
        throw InputError(name, fmt::format("more than {}: not {}", megabytes(most_bytes), what));
      text.resize(std::min(most_bytes + 1, held + std::max<std::size_t>(held, 1 << 16)));
    }
    const ssize_t got = ::read(fd.get(), text.data() + held, text.size() - held);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0)
      throw InputError(name, fmt::format("cannot read the file ({})", std::strerror(errno)));
    if (got == 0) break;
    held += static_cast<std::size_t>(got);
  }
  text.resize(held);
  require_utf8(text, name);
  return text;
}

void require_utf8(const std::string& text, const std::string& label) {
  std::size_t line = 1, line_start = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t bytes = utf8_character_bytes(text, at);
    if (bytes == 0)
      throw InputError(fmt::format(
          "{}: line {}, column {}: byte 0x{:02x} is not UTF-8 text (save the file as UTF-8)", label,
          line, at - line_start + 1, static_cast<unsigned char>(text[at])));
    if (text[at] == '\n') line_start = at + 1, ++line;
    at += bytes;
  }
}

}  // namespace crawlq::model
