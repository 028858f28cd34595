#include "scenarios/yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "model/input_error.hpp"
#include "model/message_text.hpp"
#include "model/number_text.hpp"

namespace crawlq::scenarios {

void YamlReader::fail(const std::string& detail) const { throw model::InputError(path_, detail); }

namespace {
// The character of `text` at `at` as a message shows it (a line break or a tab as a space, another
// control byte or a byte that is no UTF-8 character as \xNN, anything else as it is); `bytes` is
// told how many bytes of `text` it took.
std::string visible(const std::string& text, std::size_t at, std::size_t& bytes) {
  bytes = model::utf8_character_bytes(text, at);
  const auto byte = static_cast<unsigned char>(text[at]);
  if (byte == '\n' || byte == '\r' || byte == '\t') return " ";
  if (bytes > 1 || (bytes == 1 && byte >= 0x20 && byte != 0x7f)) return text.substr(at, bytes);
  bytes = 1;
  return fmt::format("\\x{:02x}", byte);
}
}  // namespace

std::string shortened(std::string text) {
  constexpr std::size_t kMost = 60, kKept = 57;  // characters
  std::string shown;
  std::size_t characters = 0, cut = 0;
  for (std::size_t at = 0, bytes = 0; at < text.size(); at += bytes) {
    const std::string piece = visible(text, at, bytes);
    characters += bytes > 1 ? 1 : piece.size();
    shown += piece;
    if (characters <= kKept) cut = shown.size();
  }
  return characters > kMost ? fmt::format("{}... ({} characters)", shown.substr(0, cut), characters)
                            : shown;
}

std::string YamlReader::shown() const {
  if (!node_.IsDefined() || node_.IsNull()) return "nothing";
  if (node_.IsScalar()) return fmt::format("'{}'", shortened(node_.Scalar()));
  std::ostringstream out;
  out << YAML::Dump(node_);
  return shortened(out.str());
}

bool YamlReader::has(const std::string& key) const {
  return node_.IsMap() && node_[key].IsDefined();
}

YamlReader YamlReader::at(const std::string& key) const {
  require_map();
  const std::string child = path_.empty() ? key : path_ + "." + key;
  if (!node_[key].IsDefined()) throw model::InputError(child, "missing");
  return YamlReader(node_[key], child);
}

YamlReader YamlReader::at(std::size_t index) const {
  require_sequence();
  return YamlReader(node_[index], fmt::format("{}[{}]", path_, index));
}

std::size_t YamlReader::size() const {
  require_sequence();
  return node_.size();
}

std::vector<std::string> YamlReader::keys() const {
  require_map();
  std::vector<std::string> keys;
  for (const auto& entry : node_) keys.push_back(entry.first.as<std::string>());
  return keys;
}

void YamlReader::require_map() const {
  if (!node_.IsMap()) fail(fmt::format("expected a mapping of keys, found {}", shown()));
}

bool YamlReader::is_sequence() const { return node_.IsSequence(); }

void YamlReader::require_sequence() const {
  if (!node_.IsSequence()) fail(fmt::format("expected a list, found {}", shown()));
}

void YamlReader::allow_only(std::initializer_list<const char*> allowed) const {
  allow_only(std::vector<std::string>(allowed.begin(), allowed.end()));
}

void YamlReader::allow_only(const std::vector<std::string>& allowed) const {
  require_map();
  std::vector<std::string> seen;
  for (const auto& entry : node_) {
    const std::string key = entry.first.as<std::string>();
    // YAML wants unique keys, but yaml-cpp keeps the first silently: a second value would be
    // ignored.
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      throw model::InputError(path_.empty() ? shortened(key) : path_ + "." + shortened(key),
                              "given twice");
    seen.push_back(key);
    bool known = false;
    for (const auto& a : allowed) known = known || key == a;
    if (!known) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw model::InputError(path_.empty() ? shortened(key) : path_ + "." + shortened(key),
                              fmt::format("unknown key (known here: {})", list));
    }
  }
}

double YamlReader::number() const {
  if (!node_.IsScalar()) fail(fmt::format("expected a number, found {}", shown()));
  const auto value = model::parse_finite_number(node_.Scalar());
  if (!value) {
    // Beyond a double's range a number on paper is still a number: say which end it is past.
    const char* why = model::parse_out_of_range(node_.Scalar());
    fail(why ? fmt::format("{}: {}", shown(), why)
             : fmt::format("not a finite number: {}", shown()));
  }
  return *value;
}

int YamlReader::integer() const {
  const double v = number();
  if (v != std::floor(v) || std::abs(v) > 1e9) fail(fmt::format("not an integer: {}", shown()));
  return static_cast<int>(v);
}

bool YamlReader::boolean() const {
  if (node_.IsScalar()) {
    const std::string& s = node_.Scalar();
    if (s == "true" || s == "True" || s == "yes") return true;
    if (s == "false" || s == "False" || s == "no") return false;
  }
  fail(fmt::format("expected true or false, found {}", shown()));
}

std::string YamlReader::text() const {
  if (!node_.IsScalar()) fail(fmt::format("expected text, found {}", shown()));
  return node_.Scalar();
}

std::vector<double> YamlReader::numbers() const {
  // One number stands for a list of one (`thresholds: 2` for `thresholds: [2]`).
  if (node_.IsScalar()) return {number()};
  std::vector<double> v;
  for (std::size_t i = 0; i < size(); ++i) v.push_back(at(i).number());
  return v;
}

std::vector<int> YamlReader::integers() const {
  if (node_.IsScalar()) return {integer()};
  std::vector<int> v;
  for (std::size_t i = 0; i < size(); ++i) v.push_back(at(i).integer());
  return v;
}

model::RowVector YamlReader::row_vector() const {
  const auto v = numbers();
  if (v.empty()) fail("empty list");
  return Eigen::Map<const model::RowVector>(v.data(), static_cast<Eigen::Index>(v.size()));
}

model::Matrix YamlReader::matrix() const {
  const std::size_t rows = size();
  if (rows == 0) fail("empty matrix");
  std::size_t cols = 0;
  model::Matrix m;
  for (std::size_t i = 0; i < rows; ++i) {
    const YamlReader row_reader = at(i);
    row_reader.require_sequence();  // a matrix is a list of rows: [-2] is no matrix, [[-2]] is
    const auto row = row_reader.numbers();
    if (i == 0) {
      cols = row.size();
      if (cols == 0) fail("empty row 0");
      m.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
    } else if (row.size() != cols) {
      fail(fmt::format("row {} has {} entries but row 0 has {}", i, row.size(), cols));
    }
    for (std::size_t j = 0; j < cols; ++j) m(i, j) = row[j];
  }
  return m;
}

std::vector<model::Matrix> YamlReader::matrices() const {
  std::vector<model::Matrix> v;
  for (std::size_t i = 0; i < size(); ++i) v.push_back(at(i).matrix());
  return v;
}

}  // namespace crawlq::scenarios
