#pragma once
// The fields of a transient that solve, simulate and validate share (times, start, outage): one
// check, its refusals in the caller's words.
#include <cstddef>
#include <string>
#include <vector>

#include "api/caller_words.hpp"

namespace crawlq::api {

// The most times one transient reports.
inline constexpr std::size_t kMostTimes = 100'000;

// Why the times and the outage cannot run, naming the field and the value; empty when they can.
// `start_or_outage_given`: a start or an outage was asked for, which only times can report.
std::string transient_problem(Caller caller, const std::vector<double>& times, double outage,
                              bool start_or_outage_given);

}  // namespace crawlq::api
