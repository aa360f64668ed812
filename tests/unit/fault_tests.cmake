# The fault-injecting engine and the job loop under faults (no hardware;
# one case uses a file in $TMPDIR).  Slow-completion cases take ~10 s.
tw_unit_test(test_fault tw_probe)
set_tests_properties(unit.test_fault PROPERTIES TIMEOUT 120)
