/* The engine a member needs when the installed one does not fit: the engine store's copy
 * (engine/engine_store.h) found by the header's fingerprint, the settings that store
 * recorded, and a refusal that names what is needed and how to get it. */
#ifndef UCIZIP_ARCHIVE_ENGINE_H
#define UCIZIP_ARCHIVE_ENGINE_H

#include "archive/archive.h"
#include "engine/engine.h"

/* Settings that run the store's copy of the engine with fingerprint h->fingerprint.
 * UZ_DONE when the store has none (diag says where it looked), else as
 * uz_engine_store_find / uz_engine_store_settings. */
uz_result uz_archive_engine_from_store(const uz_archive_header *h, uz_engine_settings *s, uz_diag *diag);

/* Replaces diag with the refusal for a member no engine here can decode: what the archive
 * needs (engine, fingerprint, summary: the settings it records), why the engines tried did not
 * do (why_installed, why_store) and how to get the engine. Code UZ_ERR_MISMATCH. */
void uz_archive_engine_refusal(const uz_archive_header *h, const char *summary, const char *why_installed,
                               const char *why_store, uz_diag *diag);

#endif
