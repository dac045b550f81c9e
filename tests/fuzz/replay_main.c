/* replay_main.c - runs a fuzz harness over files without libFuzzer: its corpus and every input
 * that ever made the fuzzer fail (tests/fuzz/HARNESS/corpus, .../regressions). Arguments are
 * files or directories of them. Unit suite. Host C11. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static int replay_file(const char* path)
{
    FILE* f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", path);
        return -1;
    }
    uint8_t* data = malloc(1 << 20);
    size_t n = fread(data, 1, 1 << 20, f);
    fclose(f);
    LLVMFuzzerTestOneInput(data, n);
    free(data);
    return 0;
}

int main(int argc, char** argv)
{
    int replayed = 0, bad = 0;
    for (int i = 1; i < argc; ++i) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR* d = opendir(argv[i]);
            for (struct dirent* e; d && (e = readdir(d)) != NULL;) {
                if (e->d_name[0] == '.')
                    continue;
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
                bad |= replay_file(path);
                ++replayed;
            }
            if (d)
                closedir(d);
        } else {
            bad |= replay_file(argv[i]);
            ++replayed;
        }
    }
    printf("replayed %d inputs without a crash\n", replayed);
    return replayed > 0 && !bad ? 0 : 1;
}
