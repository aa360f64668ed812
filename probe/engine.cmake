# I/O engines (io_uring, psync, null) and the job loop of the probe.
list(APPEND TW_PROBE_SOURCES engine_uring.c engine_psync.c engine_null.c job.c underwrite.c)
