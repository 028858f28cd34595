#pragma once
// An environment variable set for the life of the object, then put back as it was: for tests of a
// setting the program reads from its environment (the processes a test starts inherit it too).
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace crawlq::test_support {

class ScopedEnvironment {
 public:
  ScopedEnvironment(std::string name, const std::string& value) : name_(std::move(name)) {
    if (const char* was = std::getenv(name_.c_str())) was_ = was;
    setenv(name_.c_str(), value.c_str(), 1);
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;
  ~ScopedEnvironment() {
    if (was_)
      setenv(name_.c_str(), was_->c_str(), 1);
    else
      unsetenv(name_.c_str());
  }

 private:
  std::string name_;
  std::optional<std::string> was_;
};

}  // namespace crawlq::test_support
