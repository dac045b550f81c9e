/* main.c - the raystream program: dispatches to a subcommand. Host C11, application layer. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "app/cli.h"
#include "app/commands.h"
#include "version.h"

static void usage(FILE* f)
{
    fprintf(f,
            "raystream %s - a wavefront path tracer\n"
            "\n"
            "usage: raystream COMMAND [options]\n"
            "\n"
            "commands:\n"
            "  render SCENE -o FILE   render a scene to PNG / EXR / HDR / PFM\n"
            "  view SCENE             interactive progressive viewer (SDL2 window, or --headless)\n"
            "  convert SCENE -o F     write any scene raystream reads as raystream's scene JSON\n"
            "  bench                  FPS per depth for every dead-ray strategy, ray statistics\n"
            "  bench-compact          stream-compaction micro-benchmark (GPU)\n"
            "  bench-trace            rays/s per acceleration structure and kind of ray\n"
            "  bench-quality          error against time per integrator, sampler, light sampler, ...\n"
            "  info [SCENE]           version, build and devices; acceleration structures over SCENE\n"
            "  help COMMAND           options of a command (same as COMMAND --help)\n"
            "\n"
            "Example: raystream render scenes/cornell.json -o cornell.png --spp 64\n",
            RS_VERSION);
}

typedef struct Command {
    const char* name;
    int (*run)(int argc, char** argv);
} Command;

static const Command commands[] = {
    {"render", rs_cmd_render},
    {"view", rs_cmd_view},
    {"convert", rs_cmd_convert},
    {"info", rs_cmd_info},
    {"bench", rs_cmd_bench},
    {"bench-compact", rs_cmd_bench_compact},
    {"bench-trace", rs_cmd_bench_trace},
    {"bench-quality", rs_cmd_bench_quality},
};

static const Command* find(const char* name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

int main(int argc, char** argv)
{
    /* Past a file size limit (ulimit -f) a write fails with EFBIG, which raystream reports like a
     * full disk, instead of SIGXFSZ killing the process and everything it had rendered. */
    signal(SIGXFSZ, SIG_IGN);
    /* A reader that went away (`raystream render ... 2>&1 | head -1`) makes writes to stdout or
     * stderr fail with EPIPE, which only loses those messages: the render goes on and writes its
     * files. The save signals end nothing: a command that can save listens for them
     * (interrupt.h); the others ignore them. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGUSR1, SIG_IGN);
    signal(SIGUSR2, SIG_IGN);
    if (argc < 2) {
        usage(stderr);
        return RS_EXIT_USAGE;
    }
    const char* name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        usage(stdout);
        return RS_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("raystream %s\n", RS_VERSION);
        return RS_EXIT_OK;
    }
    if (strcmp(name, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return RS_EXIT_OK;
        }
        const Command* c = find(argv[2]);
        if (!c) {
            rs_cli_error("help: unknown command '%s'", argv[2]);
            return RS_EXIT_USAGE;
        }
        char help[] = "--help";
        char* args[] = {help, NULL};
        return c->run(1, args);
    }
    const Command* c = find(name);
    if (!c) {
        rs_cli_error("unknown command '%s' (see raystream --help)", name);
        return RS_EXIT_USAGE;
    }
    return c->run(argc - 2, argv + 2);
}
