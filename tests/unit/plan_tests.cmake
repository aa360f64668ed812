# Unit tests of the advisor (optimiser, plan, mounts, warnings).
tw_unit_test(test_optimize tw_advisor)
include(${CMAKE_CURRENT_SOURCE_DIR}/unit/warn_tests.cmake OPTIONAL)
include(${CMAKE_CURRENT_SOURCE_DIR}/unit/plan_mount_tests.cmake OPTIONAL)
include(${CMAKE_CURRENT_SOURCE_DIR}/cli/plan_mount.cmake OPTIONAL)
tw_cli_test(plan)
