/* replay_main.c - runs the fuzz harness over files without libFuzzer: the seed corpus and
 * every input that ever made the fuzzer fail (tests/fuzz/regressions/). Unit suite. Host C11. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv)
{
    int replayed = 0;
    for (int i = 1; i < argc; ++i) {
        FILE* f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 1;
        }
        uint8_t* data = malloc(1 << 20);
        size_t n = fread(data, 1, 1 << 20, f);
        fclose(f);
        LLVMFuzzerTestOneInput(data, n);
        free(data);
        ++replayed;
    }
    printf("replayed %d inputs without a crash\n", replayed);
    return replayed > 0 ? 0 : 1;
}
