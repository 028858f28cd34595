#pragma once
// How far a log pins its fit down (issue 32): a moving-block bootstrap of its batches (Kuensch,
// 1989). Blocks of consecutive batches, drawn with replacement and laid end to end, keep the
// correlation inside each block that a resample of single batches would destroy; a fit refitted on
// each resample spreads as fits of other logs of the same crawler would.
#include <cstdint>
#include <vector>

#include "fit/batched_log.hpp"
#include "model/arrival_trace.hpp"

namespace crawlq::fit {

// Batches per block: n^(1/3), the order that makes a block bootstrap's variance estimate converge
// fastest (Hall, Horowitz and Jing, 1995), but long enough to hold the correlation: never shorter
// than the longest lag the fit matches plus one, nor than 4 / (1 - |decay|) where the fitted
// correlations fall as decay^k (four times their sum over the lags: a pair that a join of two
// blocks separates loses its correlation, so short blocks bias a refit's correlations toward none).
// At most a fifth of the batches, so that there are blocks to draw.
int bootstrap_block_length(std::size_t batches, int lags, double decay);

// Resample `replicate` of the trace's batches (batch_trace: the times between batches and their
// pages), as a log cut into batches: one run (no censored gap: the trace has none), as many times
// between batches as the trace, the drawn batches' pages in size_probabilities. The same seed and
// replicate give the same resample on every machine.
BatchedLog block_resample(const model::ArrivalTrace& trace, int block_length, std::uint64_t seed,
                          int replicate);

}  // namespace crawlq::fit
