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
# The lab's web server (`crawlq lab`): Debian's libcpp-httplib-dev, a compiled library found by pkg-config.
find_package(PkgConfig REQUIRED)
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
if(CRAWLQ_MPI)
  # Debian's libopenmpi-dev; crawlq calls MPI's C functions only, so the deprecated C++ bindings stay out.
  set(MPI_CXX_SKIP_MPICXX ON)
  find_package(MPI REQUIRED COMPONENTS CXX)
endif()
# Threads inside one iterative solve (analytic/stationary/generator_operator.cpp). Eigen itself stays serial:
# its parallel products pick their blocking by the thread count, which would change the last bits.
find_package(OpenMP REQUIRED COMPONENTS CXX)
add_compile_definitions(EIGEN_DONT_PARALLELIZE)
# The Python package (python/): Debian's pybind11-dev, python3-dev and python3-numpy, for Debian's own
# interpreter, named outright: a PATH may put another python3 first (pyenv, a virtualenv), whose
# modules and ABI are not the ones Debian's packages installed.
if(NOT DEFINED CRAWLQ_PYTHON_INTERPRETER)
  set(CRAWLQ_PYTHON_INTERPRETER /usr/bin/python3 CACHE FILEPATH "the python3 the package is built for")
endif()
# CRAWLQ_PYTHON: AUTO (the default) builds the package when its Debian packages are there, looking
# again at every configure (README's first command builds without them, its second with them, in one
# build directory); ON requires them, OFF leaves the package out.
set(CRAWLQ_PYTHON AUTO CACHE STRING "Build the Python package (python/): AUTO, ON or OFF")
set_property(CACHE CRAWLQ_PYTHON PROPERTY STRINGS AUTO ON OFF)
set(crawlq_python_found OFF)
if(CRAWLQ_PYTHON)  # AUTO or ON
  set(Python3_EXECUTABLE ${CRAWLQ_PYTHON_INTERPRETER})
  find_package(Python3 COMPONENTS Interpreter Development.Module NumPy QUIET)
  find_package(pybind11 2.10 CONFIG QUIET)
  if(Python3_FOUND AND Python3_NumPy_FOUND AND pybind11_FOUND)
    set(crawlq_python_found ON)
  endif()
endif()
# From here on CRAWLQ_PYTHON is ON or OFF (a normal variable, hiding the cache's AUTO).
# AUTO leaves it out of the sanitizer builds: an instrumented extension loads into an
# uninstrumented python3 only with the sanitizer's runtime preloaded.
if(CRAWLQ_PYTHON STREQUAL "AUTO")
  if(crawlq_python_found AND NOT CRAWLQ_SANITIZE AND NOT CRAWLQ_FUZZ)
    set(CRAWLQ_PYTHON ON)
  else()
    set(CRAWLQ_PYTHON OFF)
  endif()
elseif(CRAWLQ_PYTHON)
  set(CRAWLQ_PYTHON ON)
else()
  set(CRAWLQ_PYTHON OFF)
endif()
if(CRAWLQ_PYTHON)
  if(NOT crawlq_python_found)
    message(FATAL_ERROR "CRAWLQ_PYTHON=ON needs pybind11-dev, python3-dev and python3-numpy for "
                        "${CRAWLQ_PYTHON_INTERPRETER} (apt-get install pybind11-dev python3-dev python3-numpy)")
  endif()
  # Every part is linked into the extension module as well as the executable. -fno-semantic-interposition
  # keeps the calls inside the libraries direct, as they are without -fPIC.
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  add_compile_options(-fno-semantic-interposition)
endif()
if(CRAWLQ_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
  include(Catch)
endif()
