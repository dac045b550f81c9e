/* header_test_main.c - entry point of the header compile tests; the real test is that every
 * src/kernel header compiled as C11 and as C++ (see tests/meson.build). */
#include <stdio.h>

int main(void)
{
    puts("every src/kernel header compiled on its own");
    return 0;
}
