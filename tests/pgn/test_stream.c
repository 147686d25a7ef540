/* Streaming: ~60 MB of games through a pipe (as from stdin) are read in constant memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pgn/pgn.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

enum { GAMES = 150000 };

static const char game_text[] =
    "[Event \"stream %d\"]\n[Site \"?\"]\n[Result \"1/2-1/2\"]\n\n"
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {Morphy defence} 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5\n"
    "7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 (10... exd4 11. cxd4) 11. c4 c6\n"
    "12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 1/2-1/2\n\n";

static long max_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

int main(void)
{
    int passed = 0, failed = 0;
    int fds[2];
    if (pipe(fds) != 0) {
        perror("pipe");
        return 1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        FILE *out = fdopen(fds[1], "w");
        for (int i = 0; i < GAMES && out; i++)
            fprintf(out, game_text, i);
        if (out)
            fclose(out);
        _exit(0);
    }
    close(fds[1]);
    FILE *in = fdopen(fds[0], "r");
    uz_pgn_reader *r = uz_pgn_reader_open(in, "<pipe>");
    uz_game g;
    uz_diag diag;
    uz_game_init(&g);
    long games = 0, errors = 0, rss_after_warmup = 0;
    uz_result rc;
    while ((rc = uz_pgn_read_game(r, &g, &diag)) != UZ_DONE) {
        if (rc != UZ_OK) {
            if (errors++ < 3)
                printf("error: %s\n", diag.message);
            continue;
        }
        if (++games == 1000)
            rss_after_warmup = max_rss_kb();
    }
    long rss_end = max_rss_kb();
    uz_game_clear(&g);
    uz_pgn_reader_close(r);
    fclose(in);
    int status;
    waitpid(pid, &status, 0);

    if (games == GAMES && errors == 0)
        passed++;
    else
        failed++, printf("FAIL: %ld games, %ld errors (expected %d, 0)\n", games, errors, GAMES);
    printf("%ld games (%.0f MB) read from a pipe; peak RSS %ld kB after 1000 games, %ld kB at the end\n", games,
           (double)GAMES * (sizeof game_text + 4) / 1e6, rss_after_warmup, rss_end);
#ifdef UNDER_ASAN
    printf("memory check skipped under AddressSanitizer (its quarantine holds freed memory)\n");
#else
    long grown = rss_end - rss_after_warmup;
    if (grown < 2048)
        passed++;
    else
        failed++, printf("FAIL: memory grew by %ld kB while streaming\n", grown);
#endif
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
