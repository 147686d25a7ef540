/* The ten-line program of the installed-library test: PGN file -> archive -> stdout
 * (argv[3]: the engine, e.g. "builtin"; decoding takes it from the archive). */
#include <ucizip.h>
int main(int argc, char **argv) {
    uz_options o; uz_compressor *c; uz_decompressor *d; uz_diag e = {0};
    uz_options_init(&o); o.depth = 1; o.engine = argc == 4 ? argv[3] : NULL;
    FILE *ucz = argc >= 3 ? fopen(argv[2], "wb+") : NULL;
    if (!ucz || uz_compressor_open(&c, &o, &e) || uz_compressor_begin(c, ucz, &e) ||
        uz_compressor_add_file(c, argv[1], &e) || uz_compressor_finish(c, &e)) return fprintf(stderr, "%s\n", e.message), 1;
    uz_compressor_close(c); rewind(ucz); o.engine = NULL;
    if (uz_decompressor_open(&d, &o, &e) || uz_decompressor_decode(d, ucz, argv[2], stdout, NULL, &e)) return fprintf(stderr, "%s\n", e.message), 1;
    uz_decompressor_close(d); return fclose(ucz);
}
