# Every CLI path under valgrind memcheck (no leaks, no invalid accesses);
# skipped when valgrind is missing.  Slow: ctest -L memcheck, or -LE memcheck.
tw_cli_test(memcheck)
set_tests_properties(cli.memcheck PROPERTIES TIMEOUT 600 LABELS memcheck)
