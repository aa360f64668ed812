/* Output files (tw_outfile) and sizes (tw_size): what is refused, what is kept. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "tw_outfile.h"
#include "tw_size.h"
#include "tw_util.h"

static char dir[] = "/tmp/tw-outfile-test.XXXXXX";

static void path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static size_t entries(void)
{
	char cmd[128];
	FILE *p;
	size_t n = 0;
	int ch;

	snprintf(cmd, sizeof(cmd), "ls -A %s", dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	while ((ch = fgetc(p)) != EOF)
		n += ch == '\n';
	pclose(p);
	return n;
}

static void test_check_kinds(void **state)
{
	char err[256], p[256];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s;

	(void)state;
	assert_int_equal(tw_outfile_check("-", err, sizeof(err)), 0);
	assert_int_equal(tw_outfile_check("/dev/stdout", err, sizeof(err)), 0);
	assert_int_equal(tw_outfile_check("/dev/null", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "character device"));
	assert_int_equal(tw_outfile_check(dir, err, sizeof(err)), -EISDIR);
	path_in(p, sizeof(p), "new.json");
	assert_int_equal(tw_outfile_check(p, err, sizeof(err)), 0);
	path_in(p, sizeof(p), "no/such/new.json");
	assert_int_equal(tw_outfile_check(p, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "does not exist"));
	path_in(p, sizeof(p), "sock");
	assert_true(strlen(p) < sizeof(sa.sun_path));
	memcpy(sa.sun_path, p, strlen(p) + 1);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_int_equal(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(tw_outfile_check(p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "socket"));
	close(s);
	unlink(p);
}

static void test_atomic_replace_and_abort(void **state)
{
	struct tw_outfile o;
	char err[256], p[256];
	struct stat st;

	(void)state;
	path_in(p, sizeof(p), "keep.json");
	assert_int_equal(tw_outfile_write_string(p, "first\n", err, sizeof(err)), 0);
	assert_int_equal(chmod(p, 0640), 0);
	assert_int_equal(tw_outfile_open(&o, p, err, sizeof(err)), 0);
	fputs("half-written", o.f);
	assert_string_equal(slurp(p), "first\n");	/* nothing visible before commit */
	tw_outfile_abort(&o);
	assert_string_equal(slurp(p), "first\n");
	assert_int_equal(entries(), 1);			/* no temporary file left */
	assert_int_equal(tw_outfile_write_string(p, "second\n", err, sizeof(err)), 0);
	assert_string_equal(slurp(p), "second\n");
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);	/* the replaced file's mode */
	assert_int_equal(entries(), 1);
	unlink(p);
}

static void test_symlink_target_replaced(void **state)
{
	char err[256], p[256], link[256];
	struct stat st;

	(void)state;
	path_in(p, sizeof(p), "real.json");
	path_in(link, sizeof(link), "link.json");
	assert_int_equal(tw_outfile_write_string(p, "a\n", err, sizeof(err)), 0);
	assert_int_equal(symlink(p, link), 0);
	assert_int_equal(tw_outfile_write_string(link, "b\n", err, sizeof(err)), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));		/* the link stays a link */
	assert_string_equal(slurp(p), "b\n");
	unlink(link);
	assert_int_equal(symlink("/dev/null", link), 0);	/* a link to a device */
	assert_int_equal(tw_outfile_write_string(link, "c\n", err, sizeof(err)), -EINVAL);
	unlink(link);
	unlink(p);
}

static void test_sizes(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(tw_size_parse("500G", true, &v), 0);
	assert_true(v == 500000000000ULL);
	assert_int_equal(tw_size_parse("4Ti", true, &v), 0);
	assert_true(v == 4ULL << 40);
	assert_int_equal(tw_size_parse("64MiB", true, &v), 0);
	assert_true(v == 64ULL << 20);
	assert_int_equal(tw_size_parse("1.5 TB", true, &v), 0);
	assert_true(v == 1500000000000ULL);
	assert_int_equal(tw_size_parse("4096B", true, &v), 0);
	assert_true(v == 4096);
	assert_int_equal(tw_size_parse("0", true, &v), 0);
	assert_true(v == 0);
	assert_int_equal(tw_size_parse("20", true, &v), -EINVAL);	/* no unit */
	assert_int_equal(tw_size_parse("20", false, &v), 0);
	assert_true(v == 20);
	assert_int_equal(tw_size_parse("4X", true, &v), -EINVAL);
	assert_int_equal(tw_size_parse("-4G", true, &v), -EINVAL);
	assert_int_equal(tw_size_parse("G", true, &v), -EINVAL);
	assert_int_equal(tw_size_parse("1.2.3G", true, &v), -EINVAL);
	assert_int_equal(tw_size_parse("99999P", true, &v), -ERANGE);
}

static void test_bytes(void **state)
{
	char b[32];

	(void)state;
	tw_fmt_bytes(b, sizeof(b), 12e12, TW_BYTES_DECIMAL);
	assert_string_equal(b, "12.0 TB");
	tw_fmt_bytes(b, sizeof(b), 894e9, TW_BYTES_DECIMAL);
	assert_string_equal(b, "894 GB");
	tw_fmt_bytes(b, sizeof(b), 200e6, TW_BYTES_DECIMAL);
	assert_string_equal(b, "200 MB");	/* not "0 GB" */
	tw_fmt_bytes(b, sizeof(b), 0, TW_BYTES_DECIMAL);
	assert_string_equal(b, "0 GB");
	tw_fmt_bytes(b, sizeof(b), 960197124096.0, TW_BYTES_BINARY);
	assert_string_equal(b, "894G");		/* whole from 100 up, as lsblk */
	tw_fmt_bytes(b, sizeof(b), 1.5 * 1073741824, TW_BYTES_BINARY);
	assert_string_equal(b, "1.5G");
	tw_fmt_bytes(b, sizeof(b), 64.0 * 1048576, TW_BYTES_BINARY);
	assert_string_equal(b, "64M");
	tw_fmt_bytes(b, sizeof(b), -1, TW_BYTES_BINARY);
	assert_string_equal(b, "-");
}

/* String lists grow one formatted string at a time; shell words round-trip. */
static void test_strv_and_quote(void **state)
{
	char **v = NULL, *buf = NULL;
	size_t n = 0, len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(tw_strv_addf(&v, &n, "%s-%d", "md", 3), 0);
	assert_int_equal(tw_strv_addf(&v, &n, "%.1f GB", 2.5), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0], "md-3");
	assert_string_equal(v[1], "2.5 GB");
	tw_strv_free(v, n);
	tw_strv_free(NULL, 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	tw_shell_quote(f, "/srv/it's here");
	fputc(' ', f);
	tw_shell_quote(f, "");
	fclose(f);
	assert_string_equal(buf, "'/srv/it'\\''s here' ''");
	free(buf);
	/* the shell reads it back as the one word it was */
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	fputs("printf %s ", f);
	tw_shell_quote(f, "a 'b' $c \\d");
	fclose(f);
	{
		FILE *p = popen(buf, "r");
		char got[64] = "";

		assert_non_null(p);
		assert_non_null(fgets(got, sizeof(got), p));
		assert_int_equal(pclose(p), 0);
		assert_string_equal(got, "a 'b' $c \\d");
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_kinds),
		cmocka_unit_test(test_atomic_replace_and_abort),
		cmocka_unit_test(test_symlink_target_replaced),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_strv_and_quote),
	};
	int rc;

	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(dir);
	return rc;
}
