/* Corpus test: every game of every corpus file is parsed, replayed and round-tripped
 * (parse(write(g)) == g, the written text is a fixpoint, whole files re-read identically). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test.h"

#include "pgn/pgn.h"

static int passed, failed;

static void check(int ok, const char *file, long game, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s game %ld: %s\n", file, game, what);
    }
}

/* Expected games per file (corpus README). Chess960 files: every game read under Chess960 rules. */
static const struct {
    const char *file;
    long games;
    bool chess960;
} files[] = {
    {"cat1_chesscom_live_clk.pgn", 17, false},
    {"cat1_lichess_casual_humans_vs_ai_level5.pgn", 600, false},
    {"cat1_lichess_marathon_2025.pgn", 40, false},
    {"cat1_lichess_rated_blitz_rapid.pgn", 1400, false},
    {"cat1_uscf_otb_club_annotated.pgn", 45, false},
    {"cat2_capablanca_crlf.pgn", 300, false},
    {"cat2_carlsen_chesscom_clk.pgn", 150, false},
    {"cat2_carlsen_lichess_accounts.pgn", 460, false},
    {"cat2_kasparov_career_crlf.pgn", 500, false},
    {"cat2_london_1851_crlf.pgn", 251, false},
    {"cat2_tata_steel_2022_masters.pgn", 70, false},
    {"cat3_sirius_cutechess_selfplay.pgn", 433, false},
    {"cat3_tcec_engine_games_full_comments.pgn", 150, false},
    {"cat4_handwritten_edge_cases.pgn", 5, false},
    {"cat4_handwritten_semicolon_comments.pgn", 1, false},
    {"cat4_pgn_extract_odds_mixed_latin1_utf8.pgn", 30, false},
    {"cat4_pgn_extract_testsuite.pgn", 319, false},
    {"cat4_pychess_lichess_studies.pgn", 380, false},
    {"cat4_pychess_mate_in_n_fen.pgn", 200, false},
    {"cat4_python_chess_immortal_games_crlf.pgn", 30, false},
    {"cat4_python_chess_testdata_misc.pgn", 12, false},
    {"cat4_python_chess_utf8_bom.pgn", 2, false},
    {"cat4_sirius_kbn_endgame_fen_no_blank_lines.pgn", 10, false},
    {"cat4_sirius_tagless_book_lines.pgn", 300, false},
    {"cat5_chess960_chesscom_humans_clk.pgn", 23, true},
    {"cat5_chess960_cutechess_python_chess.pgn", 4, true},
    {"cat5_chess960_tcec_double_frc.pgn", 10, true},
    {"cat5_chess960_tcec_frc.pgn", 40, true},
};

/* Longest line of movetext that touches no comment (comments are never broken; tag
 * lines cannot be). */
static size_t longest_plain_line(const char *text)
{
    size_t longest = 0, len = 0;
    bool in_brace = false, touched = false, tag_line = *text == '[';
    for (const char *p = text;; p++) {
        if (*p == '\n' || *p == '\0') {
            if (!touched && !tag_line && len > longest)
                longest = len;
            if (*p == '\0')
                return longest;
            len = 0;
            touched = in_brace;
            tag_line = p[1] == '[';
            continue;
        }
        len++;
        if (in_brace) {
            if (*p == '}')
                in_brace = false;
        } else if (*p == '{') {
            in_brace = touched = true;
        } else if (*p == ';') {
            touched = true;
            while (p[1] && p[1] != '\n')
                p++, len++;
        }
    }
}

typedef struct {
    long parsed, refused, other_errors, moves, long_lines, chess960;
} stats;

/* One game: write, re-read, compare, re-write. Appends the text to all (whole-file check). */
static void game_round_trip(const char *file, const uz_game *g, char **all, size_t *all_len, stats *st)
{
    char *text = NULL, *text2 = NULL;
    size_t len = 0, len2 = 0;
    uz_game g2;
    uz_diag diag;
    uz_game_init(&g2);
    uz_result rc = uz_pgn_game_to_string(g, &text, &len);
    check(rc == UZ_OK, file, g->number, "write");
    if (rc != UZ_OK)
        goto done;
    uz_pgn_reader *r = uz_pgn_reader_open_mem(text, len, "written");
    rc = uz_pgn_read_game(r, &g2, &diag);
    if (rc != UZ_OK)
        printf("  re-read error: %s\n", diag.message);
    check(rc == UZ_OK, file, g->number, "re-read written game");
    check(rc == UZ_OK && uz_game_equal(g, &g2), file, g->number, "parse(write(g)) == g");
    if (uz_pgn_game_to_string(&g2, &text2, &len2) == UZ_OK)
        check(len == len2 && memcmp(text, text2, len) == 0, file, g->number, "written text is a fixpoint");
    check(uz_pgn_read_game(r, &g2, &diag) == UZ_DONE, file, g->number, "written text holds one game");
    uz_pgn_reader_close(r);
    if (longest_plain_line(text) > 79)
        st->long_lines++;
    char *grown = realloc(*all, *all_len + len + 1);
    if (grown) {
        memcpy(grown + *all_len, text, len + 1);
        *all = grown;
        *all_len += len;
    }
done:
    free(text);
    free(text2);
    uz_game_clear(&g2);
}

static void test_file(const char *dir, int k)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, files[k].file);
    FILE *f = fopen(path, "rb");
    if (!f) {
        check(0, files[k].file, 0, "cannot open");
        return;
    }
    stats st = {0};
    uz_pgn_reader *r = uz_pgn_reader_open(f, files[k].file);
    uz_game g;
    uz_diag diag;
    uz_game_init(&g);
    char *all = NULL;
    size_t all_len = 0;
    uz_game *kept = NULL;
    long n_kept = 0;
    char reasons[512] = "";
    for (;;) {
        uz_result rc = uz_pgn_read_game(r, &g, &diag);
        if (rc == UZ_DONE)
            break;
        if (rc == UZ_ERR_UNSUPPORTED) {
            st.refused++;
            /* the reason: the message after "game N: ", up to ';' */
            const char *why = strstr(diag.message, "game ");
            why = why && strstr(why, ": ") ? strstr(why, ": ") + 2 : diag.message;
            char reason[128];
            snprintf(reason, sizeof reason, "%.*s", (int)strcspn(why, ";"), why);
            if (!strstr(reasons, reason) && strlen(reasons) + strlen(reason) + 3 < sizeof reasons)
                snprintf(reasons + strlen(reasons), sizeof reasons - strlen(reasons), "%s%s", reasons[0] ? "; " : "",
                         reason);
            continue;
        }
        if (rc != UZ_OK) {
            st.other_errors++;
            printf("  error: %s\n", diag.message);
            continue;
        }
        st.parsed++;
        st.chess960 += g.start.chess960;
        for (size_t i = 0; i < g.main.n_nodes; i++)
            st.moves++;
        game_round_trip(files[k].file, &g, &all, &all_len, &st);
        uz_game *grown = realloc(kept, (size_t)(n_kept + 1) * sizeof *kept);
        if (grown) {
            kept = grown;
            kept[n_kept++] = g;
            uz_game_init(&g); /* ownership moved to kept */
        }
    }
    uz_pgn_reader_close(r);
    fclose(f);

    /* The whole file written back to back reads back as the same sequence of games. */
    if (n_kept) {
        uz_pgn_reader *r2 = uz_pgn_reader_open_mem(all, all_len, "written file");
        long i = 0;
        bool same = true;
        uz_result rc;
        while ((rc = uz_pgn_read_game(r2, &g, &diag)) == UZ_OK) {
            if (i >= n_kept || !uz_game_equal(&g, &kept[i]))
                same = false;
            i++;
        }
        same = same && rc == UZ_DONE && i == n_kept;
        check(same, files[k].file, i, "whole file written and re-read gives the same games");
        uz_pgn_reader_close(r2);
    }

    check(st.parsed == files[k].games, files[k].file, 0, "number of games parsed");
    check(st.refused == 0, files[k].file, 0, "number of games refused");
    check(st.chess960 == (files[k].chess960 ? files[k].games : 0), files[k].file, 0, "games read as Chess960");
    check(st.other_errors == 0, files[k].file, 0, "no errors");
    printf("%-48s %5ld parsed %4ld refused%s%s%s, %6ld main-line moves, %ld games with a line > 79 cols outside comments\n",
           files[k].file, st.parsed, st.refused, reasons[0] ? " (" : "", reasons, reasons[0] ? ")" : "", st.moves,
           st.long_lines);
    check(st.long_lines == 0, files[k].file, 0, "lines wrapped at 79 columns");
    for (long i = 0; i < n_kept; i++)
        uz_game_clear(&kept[i]);
    free(kept);
    free(all);
    uz_game_clear(&g);
}

int main(void)
{
    char probe[4096];
    corpus_path(files[0].file, probe); /* skips (exit 77) without the corpus, except in CI */
    const char *dir = getenv("UZ_CORPUS_DIR");
    for (int k = 0; k < (int)(sizeof files / sizeof *files); k++)
        test_file(dir, k);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
