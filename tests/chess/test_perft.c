/* Perft counts of tests/data/perft.epd, each position to the deepest listed depth
 * whose count fits the node budget (20M nodes; UZ_PERFT_DEEP=1 raises it to 1G).
 * "test_perft FILE --960" reads FILE's positions as Chess960 (node budget 8M). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chess/board.h"

#include "chess_test.h"

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    char path[4096];
    const char *dir = getenv("UZ_TEST_DATA");
    if (argc > 1)
        snprintf(path, sizeof path, "%s", argv[1]);
    else
        snprintf(path, sizeof path, "%s/perft.epd", dir ? dir : "tests/data");
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return test_finish();

    const char *deep = getenv("UZ_PERFT_DEEP");
    bool chess960 = argc > 2 && strcmp(argv[2], "--960") == 0;
    uint64_t budget = (deep && strcmp(deep, "1") == 0) ? 1000000000ULL : chess960 ? 8000000ULL : 20000000ULL;
    uint64_t total_nodes = 0;
    double total_time = 0;

    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *ops = strchr(line, ';');
        CHECK(ops != NULL, "no counts in '%s'", line);
        if (!ops)
            continue;
        *ops = '\0';

        uz_position pos;
        uz_diag diag = {0};
        uz_result r = uz_position_from_fen_960(&pos, line, chess960, &diag);
        CHECK(r == UZ_OK, "bad FEN '%s': %s", line, diag.message);
        if (r != UZ_OK)
            continue;

        /* Parse every ";D<depth> <count>" and run the deepest that fits the budget; the
         * shallower ones are cheap and checked too. */
        int depths[16], n = 0;
        uint64_t counts[16];
        for (char *p = ops + 1; p && n < 16; p = strchr(p, ';')) {
            if (*p == ';')
                p++;
            int d;
            unsigned long long c;
            if (sscanf(p, " D%d %llu", &d, &c) == 2) {
                depths[n] = d;
                counts[n++] = c;
            }
        }
        int reached = 0;
        uint64_t reached_nodes = 0;
        double t0 = now();
        for (int i = 0; i < n; i++) {
            if (counts[i] > budget)
                continue;
            uz_position before = pos;
            uint64_t got = uz_perft(&pos, depths[i]);
            CHECK(got == counts[i], "%s: depth %d gives %llu, expected %llu", line, depths[i], (unsigned long long)got,
                  (unsigned long long)counts[i]);
            CHECK(uz_position_equal(&before, &pos) && before.key == pos.key, "%s: perft did not restore the position",
                  line);
            total_nodes += got;
            if (depths[i] > reached) {
                reached = depths[i];
                reached_nodes = got;
            }
        }
        double t = now() - t0;
        total_time += t;
        printf("%-75s depth %d: %11llu nodes %7.3f s\n", line, reached, (unsigned long long)reached_nodes, t);
    }
    fclose(f);
    printf("total %llu nodes in %.2f s (%.1f Mnodes/s)\n", (unsigned long long)total_nodes, total_time,
           total_time > 0 ? (double)total_nodes / total_time / 1e6 : 0.0);
    return test_finish();
}
