#pragma once
// `scenarios` as a request: the shipped scenarios and logs, each usable by name wherever a command
// takes a file (scenarios/shipped_files.hpp), the JSON of `crawlq scenarios --json`.
#include <nlohmann/json.hpp>

namespace crawlq::api {

// {"directory": share/crawlq or null, "scenarios": [{name, kind, path, summary}], "logs": [...]}.
nlohmann::json shipped();

}  // namespace crawlq::api
