#pragma once
// An obsolescence clock whose every phase exits at one rate c is an exponential clock of rate c:
// a waiting page's phase then changes no rate out of its (level, arrival phase, service phase)
// block, only moves inside it. The chain is strongly lumpable onto those blocks, so the chain
// with a one-phase clock gives every measure, sojourn law and transient of the full one, on
// 2^(K-1)-fold fewer states with two clock phases (K = 20: 82 states in place of 4.2 million).
// Not what a question about the clock's phases needs: the states themselves (solve --export, a
// start or a policy given state by state) and derivatives in one clock rate.
#include <optional>

#include "model/control_policy.hpp"
#include "model/model.hpp"

namespace crawlq::analytic {

// `model` with its clock made one phase of the common exit rate, where that lumps the chain
// `policy` runs (a full-state table names clock phases; so may any piece's policy); else nothing.
std::optional<model::Model> lumped_clock_model(const model::Model& model,
                                               const model::ControlPolicy& policy);
// The same for a search whose policies never name a clock phase (every class but markov's).
std::optional<model::Model> lumped_clock_model(const model::Model& model);

// The rate of `solved`'s one-phase clock where `given`'s clock has several (solved is given's
// lumped model), for what a command says of it; nothing where solved kept the phases.
std::optional<double> lumped_clock_rate(const model::Model& solved, const model::Model& given);

}  // namespace crawlq::analytic
