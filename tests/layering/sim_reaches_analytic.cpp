// Compiled with sim's include path alone (tests/layering/CMakeLists.txt): must not find analytic/.
#include "analytic/stationary/generator_blocks.hpp"
