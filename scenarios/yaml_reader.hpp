#pragma once
// Typed reads from a YAML node that name the key path in every error.
#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "model/linear_algebra.hpp"

namespace crawlq::scenarios {

// A message shows the start of a long value, not a megabyte of it, on one line with every byte
// visible, in valid UTF-8 (model/message_text.hpp), cut between characters: 57 of them and their
// count when there are more than 60.
std::string shortened(std::string text);

class YamlReader {
 public:
  YamlReader(YAML::Node node, std::string path) : node_(std::move(node)), path_(std::move(path)) {}

  const std::string& path() const { return path_; }
  const YAML::Node& node() const { return node_; }
  bool has(const std::string& key) const;
  YamlReader at(const std::string& key) const;  // required key
  YamlReader at(std::size_t index) const;
  std::size_t size() const;               // of a sequence
  std::vector<std::string> keys() const;  // of a mapping, in the file's order

  bool is_sequence() const;
  void require_map() const;
  void require_sequence() const;
  // Refuses any key of this map outside `allowed`.
  void allow_only(std::initializer_list<const char*> allowed) const;
  void allow_only(const std::vector<std::string>& allowed) const;

  double number() const;
  int integer() const;
  bool boolean() const;
  std::string text() const;
  std::vector<double> numbers() const;  // a list, or one number as a list of one
  std::vector<int> integers() const;
  model::RowVector row_vector() const;
  model::Matrix matrix() const;                 // list of rows, rectangular
  std::vector<model::Matrix> matrices() const;  // list of matrices

  // The node's value as the file wrote it, for messages (a long one shortened).
  std::string shown() const;

 private:
  [[noreturn]] void fail(const std::string& detail) const;
  YAML::Node node_;
  std::string path_;
};

}  // namespace crawlq::scenarios
