/* Subcommands of the ucizip program. Each takes the arguments after its name
 * (argv[0] is the subcommand) and returns the process exit status. */
#ifndef UCIZIP_CLI_H
#define UCIZIP_CLI_H

int cmd_pgn(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_compress(int argc, char **argv);
int cmd_decompress(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_ratings(int argc, char **argv);
int cmd_split(int argc, char **argv);
/* -l (--list) in a compress command line: zstd's table, one line per archive. */
int cmd_archive_table(int argc, char **argv);
int cmd_transcode(int argc, char **argv);

#endif
