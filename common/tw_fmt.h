/* tw_fmt.h — the one formatter of numbers for people: sizes, times and counts,
 * the same in text, md and HTML (renderers only pick the markup around them).
 *
 * The contract, for every output of a plan, report, score, explain or fleet:
 *  - sizes in decimal units (GB = 10^9, TB = 10^12 bytes: disks as sold);
 *    binary units (G = GiB) only in `list`, which says so in its legend;
 *  - times in the largest unit (ms, s, min, h, d) that keeps two or three
 *    significant digits: "0.12 s", "36 s", "2.0 min", "12 h" — never
 *    "0.0277 h" or "500 s";
 *  - counts with thousands separators from 1,000 up, everywhere ("1,579",
 *    never "1579" beside it); below 10 one or two decimals;
 *  - NaN, or a negative size or time, is "-" (not measured, not known).
 * Every function writes at most len bytes into buf, NUL-terminated.
 */
#ifndef TW_FMT_H
#define TW_FMT_H

#include <stddef.h>

enum tw_bytes_style {
	TW_BYTES_DECIMAL,	/* "1.0 TB", "894 GB": disks as sold, plans and scores */
	TW_BYTES_BINARY,	/* "894.3G", "64M": lsblk's style, for the inventory */
};

/*
 * Bytes.  Decimal: "1.2 PB" from 1 PB up, "12.0 TB" from 1 TB, whole "GB"
 * from 1 GB, else whole "MB".  Binary: the largest power of 1024, with one
 * decimal below 100 unless whole ("894G", "1.5T", "64M", "512B").
 */
void tw_fmt_bytes(char *buf, size_t len, double bytes, enum tw_bytes_style style);

/*
 * A count or a rate: from 1,000 up whole with thousands separators
 * ("1,579", "-1,500"); 10 to 999 whole ("42"); 1 to 9.9 one decimal ("4.5");
 * below 1 two decimals ("0.13"); 0 is "0".
 */
void tw_fmt_count(char *buf, size_t len, double v);

/*
 * A duration of seconds with its unit: below 0.1 s in ms ("12 ms"), below a
 * minute in s ("0.12 s", "5.0 s", "36 s"), below an hour in min ("2.0 min",
 * "33 min"), below 100 hours in h ("1.5 h", "12 h"), then in days ("4.2 d").
 * Below 10 of a unit one decimal (two below 0.95), from 10 whole; a value that
 * rounds to 60 of a unit is given in the next ("1.0 min", not "60 s").
 */
void tw_fmt_duration(char *buf, size_t len, double seconds);

#endif
