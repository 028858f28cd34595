#pragma once
// Bad input is the one thing crawlq reports by exception, and this is its one type: the message
// names the file (or flag), the key path and the value, as in `paper.yaml: service.S row 1: sum 0.5
// > 0`. Every kind of bad input derives from it (a scenario file's, a flag's, an output file that
// cannot be written), so the command line maps it to exit status 2 in one place (and a Python
// binding or a web server would map it to their own bad-input answer there too).
#include <stdexcept>
#include <string>

#include "model/message_text.hpp"

namespace crawlq::model {

// The message is valid UTF-8 whatever the text it quotes (valid_utf8), so that every door can show
// it.
class InputError : public std::runtime_error {
 public:
  InputError(std::string key_path, const std::string& detail)
      : std::runtime_error(valid_utf8(key_path.empty() ? detail : key_path + ": " + detail)),
        key_path_(std::move(key_path)) {}
  // A message already whole (it names its key itself).
  explicit InputError(const std::string& message) : std::runtime_error(valid_utf8(message)) {}
  const std::string& key_path() const { return key_path_; }
  // The one line the command line prints: "crawlq: " first, unless the message starts with the
  // file's name (a scenario file's errors do).
  virtual std::string shown() const { return std::string("crawlq: ") + what(); }
  // The same line without the program's name, for callers that name it themselves (the Python
  // package's InputError, the lab's error replies).
  std::string message() const {
    const std::string line = shown();
    return line.starts_with("crawlq: ") ? line.substr(8) : line;
  }

 private:
  std::string key_path_;
};

// How an options struct's `bool is_valid(std::string* why) const` ends: true when `problem` is
// empty, else false with `why` (when given) told what it is.
inline bool valid_unless(std::string problem, std::string* why) {
  if (problem.empty()) return true;
  if (why) *why = std::move(problem);
  return false;
}

}  // namespace crawlq::model
