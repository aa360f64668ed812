# tierwise probe in hostile environments: injected faults, a full or
# read-only filesystem, a device that fails mid-probe, an unprivileged
# user, io_uring disabled, fatal signals, a SIGKILLed run's leftovers.
# Root parts skip visibly otherwise.  RUN_SERIAL: it briefly sets
# kernel.io_uring_disabled=2 machine-wide, which other tests must not see.
tw_cli_test(hostile)
set_tests_properties(cli.hostile PROPERTIES TIMEOUT 300 RUN_SERIAL TRUE LABELS device)
