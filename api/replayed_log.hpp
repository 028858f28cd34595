#pragma once
// simulate and validate --arrivals-log: the simulated model with a crawler's log in place of its
// arrival law (model/arrival_trace.hpp). The log is read as fit arrivals reads it (a file, or a
// shipped log's name; lines a little out of order put in time order) and cut by fit arrivals'
// default batch and censor gaps, so that a scenario fitted to the log and the log replayed see
// the same batches.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "api/caller_words.hpp"
#include "model/model.hpp"

namespace crawlq::api {

// `model` with the log set as its replayed arrivals; model::InputError naming the field (in
// `caller`'s words) and the log when it cannot be read or holds no two batches.
// `batch_gap` and `censor_gap` cut the log as fit arrivals' flags of those names do (none: its
// defaults).
model::Model with_replayed_log(const model::Model& model, const std::string& log,
                               std::optional<double> batch_gap, std::optional<double> censor_gap,
                               Caller caller);

// What a JSON answer says of the replay: {"log", "batches", "pages", "length"} (length: the log's
// time its batches span, gaps left out excluded); null when none was replayed.
nlohmann::json replayed_log_json(const model::Model& model);

}  // namespace crawlq::api
