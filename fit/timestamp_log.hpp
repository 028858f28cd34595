#pragma once
// A crawler's delivery log: one timestamp a line (plain text), or one column of a CSV file with a
// header. Blank lines and lines starting with '#' are skipped. Every refusal names the file and the
// line: a log that is empty, holds one timestamp, is out of time order, or holds text where a time
// should be. Files are read as model/text_file.hpp says: a regular file of 256 MiB at most
// (model::kMostLogBytes), UTF-8 text.
#include <string>
#include <vector>

namespace crawlq::fit {

// What reading a log a little out of order did: concurrent robots stamp their deliveries from
// different threads, so a line may come a fraction of a millisecond before the one above it.
struct LogOrder {
  std::size_t lines_moved = 0;   // lines earlier than a line above them
  double largest_step_back = 0;  // the most a line went back, in the log's unit of time
  std::size_t line_of_largest = 0;
};

// `column`: empty for plain text; a CSV header's name, or a 1-based column number. A line earlier
// than one above it is read in time order (the times sorted) and counted in `order`; with `strict`
// it is refused, naming the line.
std::vector<double> read_timestamps(const std::string& path, const std::string& column = "",
                                    bool strict = false, LogOrder* order = nullptr);
// The same rules on text in memory; `label` names it in messages.
std::vector<double> parse_timestamps(const std::string& text, const std::string& label,
                                     const std::string& column = "", bool strict = false,
                                     LogOrder* order = nullptr);

// A sample of times (service times, times to obsolescence): the same file format, any order, every
// value > 0.
std::vector<double> read_sample(const std::string& path, const std::string& column = "");
std::vector<double> parse_sample(const std::string& text, const std::string& label,
                                 const std::string& column = "");

}  // namespace crawlq::fit
