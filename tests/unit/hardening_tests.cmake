# Tests of issue 8 (hardening): fault injection, hostile environments, the
# destructive-mode guard, memcheck, and the fuzz targets' corpora replayed.
include(${CMAKE_CURRENT_SOURCE_DIR}/unit/fault_tests.cmake OPTIONAL)
include(${CMAKE_CURRENT_SOURCE_DIR}/cli/hostile.cmake OPTIONAL)
include(${CMAKE_CURRENT_SOURCE_DIR}/cli/guard.cmake OPTIONAL)
include(${CMAKE_CURRENT_SOURCE_DIR}/cli/memcheck.cmake OPTIONAL)
include(${CMAKE_CURRENT_SOURCE_DIR}/fuzz.cmake OPTIONAL)
