# The test list.  Unit tests link the stage libraries they test.
tw_unit_test(test_jsonpos tw_common)
tw_unit_test(test_outfile tw_common)
tw_unit_test(test_profile tw_profile)
tw_unit_test(test_model tw_model tw_advisor)
tw_unit_test(test_inventory tw_probe)
tw_unit_test(test_run tw_probe)
tw_unit_test(test_nvme tw_probe)
tw_unit_test(test_thermal tw_probe)

tw_cli_test(validate)
tw_cli_test(jsonschema)
tw_cli_test(csv2profile)
tw_cli_test(live_list)
tw_cli_test(golden)
add_test(NAME fixtures.consistent COMMAND bash ${PROJECT_SOURCE_DIR}/tests/fixtures/check-fixtures.sh)
set_tests_properties(fixtures.consistent PROPERTIES SKIP_RETURN_CODE 77)
tw_cli_test(probe_safety)
tw_cli_test(qemu_nvme)
set_tests_properties(cli.qemu_nvme PROPERTIES TIMEOUT 240 LABELS qemu)
include(${CMAKE_CURRENT_SOURCE_DIR}/unit/score_tests.cmake OPTIONAL)
tw_cli_test(score)
include(${CMAKE_CURRENT_SOURCE_DIR}/unit/plan_tests.cmake OPTIONAL)
include(${CMAKE_CURRENT_SOURCE_DIR}/unit/report_tests.cmake OPTIONAL)
include(${CMAKE_CURRENT_SOURCE_DIR}/unit/hardening_tests.cmake OPTIONAL)
tw_cli_test(outputs)
tw_cli_test(removable)
tw_cli_test(plan_volume)
# Throughput- and IOPS-capped loop devices (blk-throttle in a cgroup) are
# slow, not stalled: every test completes.  Root; SKIP without blk-throttle.
tw_cli_test(slow_device)
set_tests_properties(cli.slow_device PROPERTIES TIMEOUT 300 LABELS device)
tw_cli_test(policies_builtin)
# A blank loop device: zero reads noted once per test and scored as missing
# (read-only); written before the reads with --destructive.  Root.
tw_cli_test(blank_disk)
set_tests_properties(cli.blank_disk PROPERTIES TIMEOUT 120 LABELS device)
tw_cli_test(no_nan)
tw_cli_test(link)
# Two zram devices probed side by side (--jobs 2) and one after another.  Root.
tw_cli_test(probe_jobs)
set_tests_properties(cli.probe_jobs PROPERTIES TIMEOUT 180 LABELS device)
# The link pass: two dm devices over one throttled loop found sharing, two
# loops throttled each on their own not.  Root.
tw_cli_test(shared_link)
set_tests_properties(cli.shared_link PROPERTIES TIMEOUT 180 LABELS device)
