#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace crawlq::app {
// `crawlq fit arrivals LOG`: from a crawler's delivery log to a BMAP of pages (section 7's data
// pipeline): batches, the statistics of the times between them, a MAP of batches fitted to them,
// and a scenario written with it.
std::function<int()> add_fit_command(CLI::App& app);
}  // namespace crawlq::app
