// Compiled with analytic's include path alone: must not find sim/.
#include "sim/simulator.hpp"
