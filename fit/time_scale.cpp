#include "fit/time_scale.hpp"

#include <fmt/format.h>

#include <cmath>

#include "model/input_error.hpp"

namespace crawlq::fit {

void require_time_scale(double mean, double spread, const std::string& what) {
  if (!(mean > 0) || !std::isfinite(mean))
    throw model::InputError(fmt::format("{}: mean {}: a fit needs a mean time > 0", what, mean));
  if (mean < kSmallestMeanTime || mean > kLargestMeanTime || !std::isfinite(spread))
    throw model::InputError(fmt::format(
        "{}: mean {:.6g}{}: out of a double's reach (a mean within {:g} .. {:g}, moments finite); "
        "give the times in another unit",
        what, mean, std::isfinite(spread) ? "" : " and moments past the largest double",
        kSmallestMeanTime, kLargestMeanTime));
  if (!(spread >= 0))
    throw model::InputError(fmt::format(
        "{}: mean {:.6g}, variance {:.6g}: no times have a variance < 0", what, mean, spread));
}

}  // namespace crawlq::fit
