# The destructive-mode guard (probe --destructive and the plan script refuse
# devices with signatures, mounts or holders) and the quoting of generated
# text, on loop devices (root; skipped otherwise).
tw_cli_test(guard)
set_tests_properties(cli.guard PROPERTIES TIMEOUT 300)
