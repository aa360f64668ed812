# Tests of the reports (issue 7): compare, the HTML report, the package.
include(${CMAKE_CURRENT_SOURCE_DIR}/cli/compare.cmake OPTIONAL)
include(${CMAKE_CURRENT_SOURCE_DIR}/cli/report.cmake OPTIONAL)
include(${CMAKE_CURRENT_SOURCE_DIR}/cli/package.cmake OPTIONAL)
