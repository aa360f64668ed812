/* replay.c — run a fuzz target without libFuzzer (any compiler).
 *
 *   fuzz_replay_TARGET PATH...
 *
 * Feeds every regular file named, and every regular file in every directory
 * named (sorted, not recursive), to LLVMFuzzerTestOneInput() once.  A
 * directory that does not exist counts as empty (regressions/<target>/ may
 * not exist yet).  Exits 0 when at least one file was replayed, 1 when none
 * was or a file could not be read; a broken invariant aborts in the target.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Read path whole into a malloc'd buffer of exactly its size (so ASan
 * sees reads past the end).  Returns 0 or -errno. */
static int slurp(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rbe");
	uint8_t *b = NULL;
	struct stat st;
	int ret = 0;

	if (!f)
		return -errno;
	if (fstat(fileno(f), &st) < 0)
		ret = -errno;
	else if (!(b = malloc(st.st_size ? (size_t)st.st_size : 1)))
		ret = -ENOMEM;
	else if (fread(b, 1, (size_t)st.st_size, f) != (size_t)st.st_size)
		ret = -EIO;
	fclose(f);
	if (ret) {
		free(b);
		return ret;
	}
	*buf = b;
	*len = (size_t)st.st_size;
	return 0;
}

static int replay_file(const char *path, size_t *count)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int ret = slurp(path, &buf, &len);

	if (ret < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(-ret));
		return ret;
	}
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	(*count)++;
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int replay_dir(const char *dir, size_t *count)
{
	struct dirent **ents;
	char path[PATH_MAX];
	struct stat st;
	int n = scandir(dir, &ents, NULL, by_name), ret = 0;

	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (!ret && ents[i]->d_name[0] != '.' && stat(path, &st) == 0 &&
		    S_ISREG(st.st_mode))
			ret = replay_file(path, count);
		free(ents[i]);
	}
	free(ents);
	return ret;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	struct stat st;
	int ret = 0;

	for (int i = 1; !ret && i < argc; i++) {
		if (stat(argv[i], &st) == 0 && S_ISREG(st.st_mode))
			ret = replay_file(argv[i], &count);
		else
			ret = replay_dir(argv[i], &count);
	}
	printf("replay: %zu inputs\n", count);
	if (ret < 0)
		return 1;
	if (count == 0) {
		fprintf(stderr, "replay: no input found\n");
		return 1;
	}
	return 0;
}
