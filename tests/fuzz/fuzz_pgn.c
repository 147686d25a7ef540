/* Fuzz target for the PGN reader and writer: FILE and memory readers agree, every game read
 * is written, re-read equal and re-written identically, and the whole output re-reads. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn/pgn.h"
#include "fuzz_target.h"

static void die(const char *what, const uz_diag *diag)
{
    fprintf(stderr, "fuzz_pgn: %s%s%s\n", what, diag ? ": " : "", diag ? diag->message : "");
    abort();
}

static bool same_diag(const uz_diag *a, const uz_diag *b)
{
    return a->code == b->code && a->line == b->line && a->column == b->column && a->game == b->game &&
           a->ply == b->ply && strcmp(a->message, b->message) == 0;
}

/* One game: write, re-read, compare, re-write. */
static void check_round_trip(const uz_game *g)
{
    char *text = NULL, *text2 = NULL;
    size_t len = 0, len2 = 0;
    uz_game back;
    uz_diag diag;
    uz_game_init(&back);
    if (uz_pgn_game_to_string(g, &text, &len) != UZ_OK)
        die("writing a game that was read failed", NULL);
    uz_pgn_reader *r = uz_pgn_reader_open_mem(text, len, "written");
    if (!r)
        die("out of memory", NULL);
    if (uz_pgn_read_game(r, &back, &diag) != UZ_OK)
        die("re-reading a written game failed", &diag);
    if (!uz_game_equal(g, &back))
        die("parse(write(g)) != g", NULL);
    if (uz_pgn_game_to_string(&back, &text2, &len2) != UZ_OK || len != len2 || memcmp(text, text2, len) != 0)
        die("written text is not a fixpoint", NULL);
    if (uz_pgn_read_game(r, &back, &diag) != UZ_DONE)
        die("written text holds more than one game", &diag);
    uz_pgn_reader_close(r);
    uz_game_clear(&back);
    free(text);
    free(text2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* glibc refuses fmemopen of 0 bytes: the memory reader alone covers that case. */
    FILE *f = size ? fmemopen((void *)(uintptr_t)data, size, "rb") : NULL;
    uz_pgn_reader *rf = f ? uz_pgn_reader_open(f, "fuzz") : NULL;
    uz_pgn_reader *rm = uz_pgn_reader_open_mem(data, size, "fuzz");
    char *all = NULL;
    size_t all_len = 0;
    FILE *out = open_memstream(&all, &all_len);
    uz_game *kept = NULL;
    size_t n_kept = 0;
    bool any_error = false;
    uz_game g, gm;
    uz_diag diag, diag_m;
    if (!rm || !out || (size && (!f || !rf)))
        die("setup failed", NULL);
    uz_game_init(&g);
    uz_game_init(&gm);
    for (;;) {
        uz_result rc = uz_pgn_read_game(rf ? rf : rm, &g, &diag);
        if (rf) {
            uz_result rc_m = uz_pgn_read_game(rm, &gm, &diag_m);
            if (rc != rc_m || (rc == UZ_OK && (!uz_game_equal(&g, &gm) || g.number != gm.number ||
                                               g.first_line != gm.first_line)))
                die("FILE and memory readers disagree", NULL);
            if (rc != UZ_OK && rc != UZ_DONE && !same_diag(&diag, &diag_m))
                die("FILE and memory readers report different errors", &diag);
        }
        if (rc == UZ_DONE)
            break;
        if (rc != UZ_OK) {
            if (diag.line < 1 || diag.column < 1 || diag.game < 1 || !diag.message[0])
                die("error without a position", &diag);
            any_error = true;
            continue;
        }
        check_round_trip(&g);
        if (uz_pgn_write_game(out, &g) != UZ_OK)
            die("uz_pgn_write_game failed", NULL);
        uz_game *grown = realloc(kept, (n_kept + 1) * sizeof *kept);
        if (!grown)
            die("out of memory", NULL);
        kept = grown;
        kept[n_kept++] = g;
        uz_game_init(&g); /* ownership moved to kept */
    }
    if (fclose(out) != 0)
        die("memory stream", NULL);

    /* All games written back to back read back as the same games. Not checked after a
     * skipped game: comments between a good game and a skipped one may legitimately
     * attach differently once the skipped game is gone. */
    if (!any_error) {
        uz_pgn_reader *r = uz_pgn_reader_open_mem(all, all_len, "written");
        for (size_t i = 0; i <= n_kept; i++) {
            uz_result rc = uz_pgn_read_game(r, &g, &diag);
            if (i == n_kept ? rc != UZ_DONE : rc != UZ_OK || !uz_game_equal(&g, &kept[i]))
                die("the written games do not read back as the same sequence", rc < 0 ? &diag : NULL);
        }
        uz_pgn_reader_close(r);
    }

    for (size_t i = 0; i < n_kept; i++)
        uz_game_clear(&kept[i]);
    free(kept);
    free(all);
    uz_game_clear(&g);
    uz_game_clear(&gm);
    uz_pgn_reader_close(rf);
    uz_pgn_reader_close(rm);
    if (f)
        fclose(f);
    return 0;
}
