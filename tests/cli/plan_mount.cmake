# tierwise plan --format fstab/udev/script on loop devices (root; skipped otherwise).
tw_cli_test(plan_mount)
