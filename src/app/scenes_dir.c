/* scenes_dir.c - the folder of the example scenes (see scenes_dir.h). Host C11 (POSIX),
 * application layer. */
#include "app/scenes_dir.h"

#include <stdio.h>
#include <sys/stat.h>

#include "app/cli.h"

#ifndef RS_SCENES_DIR
#define RS_SCENES_DIR "scenes"
#endif
#ifndef RS_INSTALLED_SCENES_DIR
#define RS_INSTALLED_SCENES_DIR RS_SCENES_DIR
#endif

const char* rs_default_scene(const char* name)
{
    static char paths[8][RS_PATH_BYTES];
    static unsigned next;
    char* out = paths[next++ % 8];
    struct stat st;
    const char* dir = stat(RS_SCENES_DIR, &st) == 0 && S_ISDIR(st.st_mode) ? RS_SCENES_DIR : RS_INSTALLED_SCENES_DIR;
    snprintf(out, RS_PATH_BYTES, "%s/%s", dir, name);
    return out;
}
