# The job loop on the null engine and the engines on a file (no hardware).
tw_unit_test(test_job tw_probe)
# The engines on a loop device and zram0 (root; exits 77 otherwise).
tw_unit_test(test_engine_dev tw_probe)
set_tests_properties(unit.test_job PROPERTIES TIMEOUT 120)
set_tests_properties(unit.test_engine_dev PROPERTIES TIMEOUT 300 LABELS device
                     RUN_SERIAL TRUE)
