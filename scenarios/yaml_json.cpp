#include "scenarios/yaml_json.hpp"

#include <charconv>
#include <cstdint>

#include "model/number_text.hpp"
#include "scenarios/yaml_document.hpp"

namespace crawlq::scenarios {

namespace {

nlohmann::json scalar_json(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") return text;  // quoted: a string whatever it spells
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL")
    return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  std::int64_t whole = 0;
  const char* end = text.data() + text.size();
  if (const auto [stop, error] = std::from_chars(text.data(), end, whole);
      error == std::errc() && stop == end)
    return whole;
  if (const auto number = model::parse_finite_number(text)) return *number;
  return text;
}

nlohmann::json node_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json object = nlohmann::json::object();
      for (const auto& entry : node) object[entry.first.Scalar()] = node_json(entry.second);
      return object;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json array = nlohmann::json::array();
      for (const auto& item : node) array.push_back(node_json(item));
      return array;
    }
    case YAML::NodeType::Scalar:
      return scalar_json(node);
    default:
      return nullptr;
  }
}

}  // namespace

nlohmann::json yaml_to_json(const std::string& text, const std::string& label) {
  return node_json(load_yaml(text, label));
}

}  // namespace crawlq::scenarios
