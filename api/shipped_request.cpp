#include "api/shipped_request.hpp"

#include "scenarios/shipped_files.hpp"

namespace crawlq::api {

nlohmann::json shipped() {
  nlohmann::json j{{"directory", nullptr},
                   {"scenarios", nlohmann::json::array()},
                   {"logs", nlohmann::json::array()}};
  if (const auto directory = scenarios::shipped_data_directory())
    j["directory"] = directory->string();
  for (const scenarios::ShippedFile& file : scenarios::shipped_files())
    j[file.kind == scenarios::ShippedKind::kLog ? "logs" : "scenarios"].push_back(
        {{"name", file.name},
         {"kind", scenarios::kind_name(file.kind)},
         {"path", file.path.string()},
         {"summary", file.summary}});
  return j;
}

}  // namespace crawlq::api
