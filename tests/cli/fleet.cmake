# tierwise fleet and export (issue 16): the fleet report on synthetic fleets,
# the Prometheus export against promtool and a real node_exporter, the
# Ansible collection against sshd instances on 127.0.0.2-4.
tw_cli_test(fleet)
set_tests_properties(cli.fleet PROPERTIES TIMEOUT 600 LABELS fleet)
tw_cli_test(export)
set_tests_properties(cli.export PROPERTIES TIMEOUT 600 LABELS fleet)
tw_cli_test(fleet_ansible)
set_tests_properties(cli.fleet_ansible PROPERTIES TIMEOUT 900 LABELS fleet)
tw_unit_test(test_fleet tw_render tw_fleet)
set_tests_properties(unit.test_fleet PROPERTIES LABELS fleet)
