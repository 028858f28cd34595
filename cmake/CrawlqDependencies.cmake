# Every dependency is a Debian package (see .ci/install-deps); nothing is fetched at build time.
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(Boost 1.74 REQUIRED)
find_package(fmt REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(Threads REQUIRED)
if(CRAWLQ_MPI)
  # Debian's libopenmpi-dev; crawlq calls MPI's C functions only, so the deprecated C++ bindings stay out.
  set(MPI_CXX_SKIP_MPICXX ON)
  find_package(MPI REQUIRED COMPONENTS CXX)
endif()
# Threads inside one iterative solve (analytic/generator_operator.cpp). Eigen itself stays serial:
# its parallel products pick their blocking by the thread count, which would change the last bits.
find_package(OpenMP REQUIRED COMPONENTS CXX)
add_compile_definitions(EIGEN_DONT_PARALLELIZE)
if(CRAWLQ_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
  include(Catch)
endif()
