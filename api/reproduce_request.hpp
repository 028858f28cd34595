#pragma once
// `reproduce` as a request: the papers' sections recomputed beside their printed values, flagged
// rows with the simulator's verdict, and on request a report written to a directory; the JSON of
// `crawlq reproduce --json`.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "api/caller_words.hpp"
#include "validation/paper_reproduction.hpp"
#include "validation/report_writer.hpp"

namespace crawlq::api {

// Every section reproduce knows, in the order --help lists them.
const std::vector<std::string>& reproduce_sections();

struct ReproduceRequest {
  std::uint64_t seed = 1;
  int threads = 0;     // 0: all cores
  bool quick = false;  // short simulations: a preview
  // Names from reproduce_sections(); empty: the tables and refresh, and with `report_directory`
  // every section (figures are only drawn into a report).
  std::set<std::string> sections;
  std::optional<std::string> report_directory;  // report.md, report.html and the figures go there
  std::function<void(const std::string&)> progress;  // a line per step
  Caller caller = Caller::kCommandLine;              // whose words the messages use

  // False with `why` naming the field (in the caller's words) and its value.
  bool is_valid(std::string* why) const;
};

struct ReproduceResult {
  validation::Reproduction reproduction;
  std::optional<validation::ReportFiles> report;
  int flagged = 0;  // rows whose computed value disagrees with the printed one
};

// Throws model::InputError when the request is not valid or the report's directory cannot be
// written (checked before the work starts, and again for each file).
ReproduceResult reproduce(const ReproduceRequest& request);
nlohmann::json to_json(const ReproduceResult& result);

}  // namespace crawlq::api
