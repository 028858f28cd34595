#pragma once
// simulate and validate --arrivals-log: the simulated model with a crawler's log in place of its
// arrival law (model/arrival_trace.hpp). The log is read as fit arrivals reads it (a file, or a
// shipped log's name; lines a little out of order put in time order) and cut as fit arrivals cuts
// it, so that a scenario fitted to the log and the log replayed see the same batches.
#include <nlohmann/json.hpp>
#include <string>

#include "api/caller_words.hpp"
#include "model/model.hpp"
#include "validation/engine_comparison.hpp"

namespace crawlq::api {

// `model` with the log of `settings.arrivals_log` set as its replayed arrivals, cut by
// `settings.batch_gap` and `settings.censor_gap` as fit arrivals' flags of those names cut it
// (none: its defaults); model::InputError naming the field (in `caller`'s words) and the log when
// it cannot be read or holds no two batches.
model::Model with_replayed_log(const model::Model& model,
                               const validation::SimulationSettings& settings, Caller caller);

// What a JSON answer says of the replay: {"log", "batches", "pages", "length"} (length: the log's
// time its batches span, gaps left out excluded); null when none was replayed.
nlohmann::json replayed_log_json(const model::Model& model);

}  // namespace crawlq::api
