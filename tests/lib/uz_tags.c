/* The experimental header used as a program would (installed-library test): the White
 * tag of every game of an archive, and the game count, without an engine. */
#define UZ_EXPERIMENTAL_API
#include <string.h>
#include <ucizip_experimental.h>
int main(int argc, char **argv) {
    FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
    uz_tag_reader *r = NULL; uz_game_tags g; uz_diag e = {0}; uint64_t n = 0; uz_result res;
    if (!f || uz_archive_game_count(f, argv[1], &n, &e)) return 1;
    rewind(f);
    if (uz_tag_reader_open(&r, f, argv[1], &e)) return 1;
    while ((res = uz_tag_reader_next(r, &g, &e)) == UZ_OK)
        for (size_t i = 0; i < g.n_tags; i++)
            if (g.is_game && strcmp(g.tags[i].name, "White") == 0) printf("%s\n", g.tags[i].value);
    uz_tag_reader_close(r); fclose(f);
    return res == UZ_DONE ? (printf("%llu records, %s\n", (unsigned long long)n, uz_version()), 0) : 1;
}
