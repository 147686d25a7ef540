/* Fuzz target for the engine settings text an archive header carries (applied by the
 * decoder before any engine starts): any text is applied or refused with a message,
 * never read out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "fuzz_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    uz_engine_settings s;
    uz_engine_settings_default(&s);
    uz_diag diag = {0};
    if (uz_engine_settings_apply_text(&s, text, &diag) != UZ_OK && !diag.message[0])
        abort(); /* every refusal says why */
    free(text);
    return 0;
}
