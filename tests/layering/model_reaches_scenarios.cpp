// Compiled with model's include path alone: the bottom part must not find the loader above it.
#include "scenarios/scenario_loader.hpp"
