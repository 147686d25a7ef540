/* The engine's output lines as the bridge reads them, without an engine: info lines as
 * Stockfish and Ethereal print them and malformed variants, numbers at the edges of
 * long, and the control-character check on every byte position of a line. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../common/uz_test.h"
#include "engine/engine_internal.h"

static void test_stockfish_lines(void)
{
    uz__info in;
    CHECK(uz__parse_info("info depth 1 seldepth 1 multipv 3 score cp -25 nodes 60 nps 30000 hashfull 0 tbhits 0 "
                         "time 2 pv g1f3",
                         &in));
    CHECK(in.depth == 1 && in.multipv == 3 && in.has_score && !in.score_mate && in.score == -25);
    CHECK(in.nodes == 60 && in.time_ms == 2 && strcmp(in.pv_first, "g1f3") == 0);

    CHECK(uz__parse_info("info depth 9 multipv 1 score mate -3 wdl 0 0 1000 nodes 5 time 0 pv e7e8q d1d8", &in));
    CHECK(in.score_mate && in.score == -3 && strcmp(in.pv_first, "e7e8q") == 0);

    CHECK(uz__parse_info("info depth 4 score cp 12 lowerbound nodes 9 pv a2a3", &in));
    CHECK(in.bound && in.score == 12);

    /* A line with no score, and free text. */
    CHECK(uz__parse_info("info string NNUE evaluation using nn-ad9b42354671.nnue enabled", &in));
    CHECK(!in.has_score && in.depth == -1 && in.nodes == -1 && in.pv_first[0] == '\0');
    CHECK(uz__parse_info("info currmove e2e4 currmovenumber 1", &in) && !in.has_score);
    CHECK(uz__parse_info("  info\tdepth 2 unknownkey score cp +7 pv b1c3", &in) && in.score == 7 && in.depth == 2);
}

static void test_malformed_lines(void)
{
    uz__info in;
    CHECK(!uz__parse_info("information depth 1", &in));
    CHECK(!uz__parse_info("info depth x", &in));
    CHECK(!uz__parse_info("info depth", &in));
    CHECK(!uz__parse_info("info depth -1", &in));
    CHECK(!uz__parse_info("info depth 10001", &in));
    CHECK(!uz__parse_info("info multipv 0", &in));
    CHECK(!uz__parse_info("info score cq 5", &in));
    CHECK(!uz__parse_info("info score cp 5x", &in));
    CHECK(!uz__parse_info("info score cp -", &in));
    CHECK(!uz__parse_info("info score cp +", &in));
    CHECK(!uz__parse_info("info score cp 1-2", &in));
    CHECK(!uz__parse_info("info nodes 99999999999999999999", &in)); /* beyond long */
    CHECK(!uz__parse_info("info wdl 1 2", &in));
    CHECK(!uz__parse_info("info pv e2e4e2e4e2e4e2e4", &in)); /* a 16-byte first move */

    /* The edges of long. */
    char line[96];
    snprintf(line, sizeof line, "info score cp %ld", LONG_MAX);
    CHECK(uz__parse_info(line, &in) && in.score == LONG_MAX);
    snprintf(line, sizeof line, "info score cp %ld", LONG_MIN);
    CHECK(uz__parse_info(line, &in) && in.score == LONG_MIN);
    snprintf(line, sizeof line, "info score cp %lu", (unsigned long)LONG_MAX + 1);
    CHECK(!uz__parse_info(line, &in));
    snprintf(line, sizeof line, "info score cp -%lu", (unsigned long)LONG_MAX + 2);
    CHECK(!uz__parse_info(line, &in));
}

/* Every position of a control character in lines of 1 to 40 bytes: the check reads eight
 * bytes at a time and must not miss one in any lane or in the tail. */
static void test_garbage_positions(void)
{
    const unsigned char bad[] = {0x00, 0x01, 0x0b, 0x0d, 0x1b, 0x1f, 0x7f};
    const unsigned char good[] = {'\t', ' ', '~', 0x80, 0xc3, 0xa9, 0xff};
    char line[48];
    int missed = 0, false_alarms = 0;
    for (size_t len = 1; len <= 40; len++) {
        for (size_t pos = 0; pos < len; pos++) {
            for (size_t b = 0; b < sizeof bad; b++) {
                memset(line, 'a', len);
                line[pos] = (char)bad[b];
                missed += !uz__line_is_garbage(line, len);
            }
            for (size_t g = 0; g < sizeof good; g++) {
                memset(line, 'a', len);
                line[pos] = (char)good[g];
                false_alarms += uz__line_is_garbage(line, len);
            }
        }
    }
    CHECK(missed == 0, "%d control characters missed", missed);
    CHECK(false_alarms == 0, "%d clean lines called garbage", false_alarms);
    CHECK(!uz__line_is_garbage("", 0));
}

int main(void)
{
    test_stockfish_lines();
    test_malformed_lines();
    test_garbage_positions();
    return test_finish();
}
