// Table 2 at K = 10, the largest capacity of the table the exact engine optimises in seconds; the
// rows K = 20 and 30 (2^21 and 2^31 states) are out of its reach and left to the simulator.
#include <catch2/catch.hpp>

#include "table2_check.hpp"

TEST_CASE("Table 2: buffer size K = 10", "[paper][table2][slow]") { crawlq::testing::check_table2(10, 10); }
