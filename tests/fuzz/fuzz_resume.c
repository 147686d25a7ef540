/* Fuzz target for the resume state parser (TMP.state files of interrupted compress
 * runs are untrusted: left on disk, editable): any text is a state, an edited state or
 * no state, never read out of bounds; a state it calls intact parses again alike. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_resume.h"
#include "fuzz_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cli_resume_state s, again;
    memset(&s, 0, sizeof s);
    int r = cli_resume_parse((const char *)data, size, &s);
    if (r < -1 || r > 1)
        abort();
    if (r == 0 && (s.games_read < 0 || s.games > s.games_read || cli_resume_parse((const char *)data, size, &again) != 0 ||
                   again.key != s.key || again.blocks != s.blocks || again.archive_hash != s.archive_hash))
        abort();
    return 0;
}
