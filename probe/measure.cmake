list(APPEND TW_PROBE_SOURCES hist.c rng.c steady.c cliff.c)
