#pragma once
// The unit of a sample's times is the user's, and a double holds their moments only in a band:
// times near 1e300 have a variance past the largest double, times near 1e-300 one below the
// smallest. Every fit works on a mean within [1e-100, 1e100] (its square, third power and the
// products of lag correlations then stay in range) and a second or third moment that is finite;
// anything else is refused, asking for the times in another unit, where the fit would otherwise
// divide infinities or ask for 1/0 phases.
#include <string>

namespace crawlq::fit {

inline constexpr double kSmallestMeanTime = 1e-100, kLargestMeanTime = 1e100;

// model::InputError starting with `what` (as "the times between batches") unless `mean` lies in
// [kSmallestMeanTime, kLargestMeanTime] and `spread` (a variance, or a higher moment) is finite and
// not negative.
void require_time_scale(double mean, double spread, const std::string& what);

}  // namespace crawlq::fit
