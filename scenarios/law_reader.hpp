#pragma once
// The laws a scenario file gives: phase-type times written out or by name, and arrival sources
// written as matrices or as Poisson batches. Errors name the key path under the reader.
#include <string>
#include <vector>

#include "model/bmap.hpp"
#include "model/phase_type.hpp"
#include "scenarios/yaml_reader.hpp"

namespace crawlq::scenarios {

// {initial_key: [...], matrix_key: [[...]]}, or one law by name, each the PH it stands for:
// {exponential: {rate: r}} (or {mean: m}), {erlang: {phases: n, mean: m}},
// {hyperexponential: {probabilities: [...], rates: [...]}}.
model::PhaseType read_phase_type(const YamlReader& r, const char* initial_key,
                                 const char* matrix_key);

// The names read_phase_type knows, for help texts and messages.
std::vector<std::string> named_law_names();

// {rate: r, batch: [d_1, d_2, ...]} (batch absent: single pages): Poisson batches as a BMAP.
model::Bmap read_poisson_batches(const YamlReader& r);

}  // namespace crawlq::scenarios
