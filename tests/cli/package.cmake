# The packaging test: man page, --help examples, bash completion,
# `cmake --install` and `cpack -G DEB` (dpkg -i / -r as root).
tw_cli_test(package)
set_tests_properties(cli.package PROPERTIES TIMEOUT 300)
