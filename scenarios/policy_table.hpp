#pragma once
// A full-state policy's table as a file: the CSV `optimize --export-policy` writes (the state's
// columns as `solve --export` prints them, then `robots`), or a bare column of robots values, one
// line per state in the order of `solve --export`.
#include <filesystem>
#include <string>
#include <vector>

namespace crawlq::scenarios {

// The robots column, in file order. Throws model::InputError naming the file, the line and the
// value for a file that cannot be read, a header without `robots`, or a value that is not a whole
// number; read as model/text_file.hpp reads a scenario file (a regular file, 64 MiB at most,
// UTF-8).
std::vector<int> read_policy_table(const std::filesystem::path& file);
// The same rules on text in memory; `label` names it in messages.
std::vector<int> parse_policy_table(const std::string& text, const std::string& label);

}  // namespace crawlq::scenarios
