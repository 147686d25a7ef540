/* A member's engine from the engine store, and the refusal when there is none. */
#include "gamecode/archive_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine_store.h"

uz_result uz_archive_engine_from_store(const uz_archive_header *h, uz_engine_settings *s, uz_diag *diag)
{
    char dir[UZ_ENGINE_PATH_MAX];
    uz_engine_store_entry *e = malloc(sizeof *e);
    if (!e) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    uz_result r = uz_engine_store_dir(dir, sizeof dir, diag);
    if (r == UZ_OK)
        r = uz_engine_store_find(dir, h->fingerprint, e, diag);
    if (r == UZ_DONE)
        uz_diag_set(diag, UZ_DONE, 0, 0, "none with fingerprint %s in %s", h->fingerprint, dir);
    if (r == UZ_OK)
        r = uz_engine_store_settings(e, s, diag);
    free(e);
    return r;
}

/* The Debian package of an engine, by the first word of its "id name". */
static const char *debian_package(const char *engine_name)
{
    static const char *const known[][2] = {{"Stockfish", "stockfish"}, {"Ethereal", "ethereal-chess"}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t n = strlen(known[i][0]);
        if (strncmp(engine_name, known[i][0], n) == 0 && (engine_name[n] == ' ' || engine_name[n] == '\0'))
            return known[i][1];
    }
    return NULL;
}

/* s cut to at most max bytes, ending with "..." when cut (into out, of max + 1 bytes). */
static void cut_to(char *out, size_t max, const char *s)
{
    size_t n = strlen(s);
    if (n <= max)
        memcpy(out, s, n + 1);
    else if (max >= 3)
        snprintf(out, max + 1, "%.*s...", (int)(max - 3), s);
    else
        out[0] = '\0';
}

void uz_archive_engine_refusal(const uz_archive_header *h, const char *summary, const char *why_installed,
                               const char *why_store, uz_diag *diag)
{
    const char *package = debian_package(h->engine_name);
    const char *version = strchr(h->engine_name, ' ');
    char install[UZ_ENGINE_NAME_MAX + 64], head[256], get[UZ_ENGINE_NAME_MAX + 160];
    if (package)
        snprintf(install, sizeof install, "the Debian package %s %.40s", package, version ? version + 1 : "");
    else
        snprintf(install, sizeof install, "%s installed", h->engine_name);
    snprintf(head, sizeof head, "no engine here can decode this archive: it needs %.120s, fingerprint %s", summary,
             h->fingerprint);
    snprintf(get, sizeof get, ". Get it with `ucizip engine --import DIR` (a copy made by --export) or %s", install);
    /* The whole message fits diag's: what is needed and how to get it in full, the two
     * reasons in what is left, the store's (where it looked) first, the installed one's
     * in at least a fifth of it. */
    static const char installed_label[] = ". Installed: ", store_label[] = ". Engine store: ";
    size_t fixed = strlen(head) + strlen(get) + sizeof installed_label - 1 + sizeof store_label - 1;
    size_t room = fixed < sizeof diag->message - 1 ? sizeof diag->message - 1 - fixed : 0;
    char installed[sizeof diag->message], store[sizeof diag->message];
    size_t installed_len = strlen(why_installed), kept_for_installed = room / 5;
    if (installed_len < kept_for_installed)
        kept_for_installed = installed_len;
    cut_to(store, room - kept_for_installed, why_store); /* (why_store may be diag's own message) */
    cut_to(installed, room - strlen(store), why_installed);
    uz_diag_set(diag, UZ_ERR_MISMATCH, 0, 0, "%s%s%s%s%s%s", head, installed_label, installed, store_label, store,
                get);
}
