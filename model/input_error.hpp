#pragma once
// Bad input is the one thing crawlq reports by exception: the message names the key path and value,
// and the scenario loader prefixes the file, giving `paper.yaml: service.S row 1: sum 0.5 > 0`.
#include <stdexcept>
#include <string>

namespace crawlq::model {

class InputError : public std::runtime_error {
 public:
  InputError(std::string key_path, const std::string& detail)
      : std::runtime_error(key_path.empty() ? detail : key_path + ": " + detail),
        key_path_(std::move(key_path)) {}
  const std::string& key_path() const { return key_path_; }

 private:
  std::string key_path_;
};

}  // namespace crawlq::model
