#pragma once
// Every file a user names is read here, with bounds: scenario files, policy tables, crawler logs
// and samples. A name may point anywhere (a FIFO that never ends a blocking read, /dev/zero that
// never ends at all, a directory, a binary file), so the file must be a regular one, no larger than
// `most_bytes`, and UTF-8 text; anything else is an InputError naming the file (and the line, for a
// byte that is no UTF-8 character), before its bytes are held.
#include <cstddef>
#include <filesystem>
#include <string>

namespace crawlq::model {

// Scenario files and policy tables: a model with hundreds of phases is a few megabytes.
inline constexpr std::size_t kMostScenarioBytes = std::size_t{64} << 20;
// Crawler logs and samples: one timestamp a line, about 15 bytes each, so some 17 million lines.
inline constexpr std::size_t kMostLogBytes = std::size_t{256} << 20;

// `what` names the kind of file in messages: "a directory, not a scenario file".
std::string read_text_file(const std::filesystem::path& file, const std::string& what,
                           std::size_t most_bytes);

// Where `text` first holds a byte that starts no UTF-8 character: InputError "label: line L, column
// C: byte 0xNN is not UTF-8 text", the column counted in bytes.
void require_utf8(const std::string& text, const std::string& label);

}  // namespace crawlq::model
