/* mtl_check.h - reading an MTL file's map statements the way assimp 5.2 does, to find the maps
 * it would drop or misread without a word.
 *
 * Host C11. assimp's MTL reader skips an option it does not know (such as the standard -cc)
 * as one token, so its argument becomes part of the map's path; it reads -o, -s and -t as
 * three numbers, so "-s 2 2 tex.png" loses the map; a path of 1024 bytes or more does not fit
 * its strings and the map silently disappears. A negative -bm would be a bump scale raystream
 * cannot use. This check names the file, the line and the problem instead.
 */
#ifndef RS_HOST_MTL_CHECK_H
#define RS_HOST_MTL_CHECK_H

#include <stddef.h>
#include <stdio.h>

/* Reads the MTL file `f` (named `path` in messages). Returns 0 if every map statement is one
 * assimp reads as written, or -1 with "path:line: problem" in why[]. */
int rs_mtl_check(FILE* f, const char* path, char* why, size_t why_size);

#endif /* RS_HOST_MTL_CHECK_H */
