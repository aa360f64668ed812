# Unit tests of the mount suggestions (advisor/mount.c).
tw_unit_test(test_plan_mount tw_advisor)
