/* cli.h - small helpers shared by the subcommands: strict number parsing and messages.
 *
 * Host C11, application layer (the only layer that prints to stdout or decides exit codes).
 * Exit codes: 0 success, 1 failure (bad scene, I/O, device), 2 usage error, 130 interrupted.
 */
#ifndef RS_APP_CLI_H
#define RS_APP_CLI_H

#include <stdint.h>
#include <stdio.h>

#define RS_EXIT_OK 0
#define RS_EXIT_FAILURE 1
#define RS_EXIT_USAGE 2
#define RS_EXIT_INTERRUPTED 130

/* Room for a path the program writes, with what it may add to it (".partial", ".tmp-PID"). */
#define RS_PATH_BYTES 4096
#define RS_PATH_SUFFIX_ROOM 64

/* Parses an unsigned integer in [lo, hi]; on failure prints "raystream: OPTION: ..." and
 * returns -1. */
int rs_cli_uint(const char* option, const char* text, uint64_t lo, uint64_t hi, uint64_t* out);
int rs_cli_float(const char* option, const char* text, double lo, double hi, double* out);
/* Sizes like 512M, 2G, 65536 (bytes; K/M/G are powers of 1024). */
int rs_cli_size(const char* option, const char* text, uint64_t* out);

/* A path given to OPTION must not be empty and must leave room for the names raystream
 * derives from it: a path that would be cut short is an error, never a different file. */
int rs_cli_path(const char* option, const char* path);

/* Option with a value: matches "--name VALUE" and "--name=VALUE"; advances *i. Returns NULL if
 * argv[*i] is not this option, and sets *missing when the value is absent. */
const char* rs_cli_value(int argc, char** argv, int* i, const char* name, const char* alias, int* missing);

/* Lines on stderr, "raystream: ..." (warning: "raystream: warning: ..."), with control
 * characters escaped (message_text.h): errors, warnings, and notes about user files (what was
 * written, resumed, saved). Progress lines, which hold only numbers, print directly. */
void rs_cli_error(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
/* Where those lines go: stderr unless set (the command-line fuzzer sends them to /dev/null,
 * keeping stderr for its own reports). */
void rs_cli_set_messages(FILE* f);
FILE* rs_cli_messages(void);
void rs_cli_warning(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void rs_cli_note(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* RS_APP_CLI_H */
