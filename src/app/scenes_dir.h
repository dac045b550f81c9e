/* scenes_dir.h - where the example scenes are, for the commands that default to them (bench,
 * bench-trace, bench-quality). Host C11, application layer.
 *
 * A binary run where it was built finds them in its source tree (RS_SCENES_DIR, set by
 * meson.build); an installed one, whose source tree may be gone, in the installed copy
 * (RS_INSTALLED_SCENES_DIR: PREFIX/share/raystream/scenes, which `meson install` fills).
 */
#ifndef RS_APP_SCENES_DIR_H
#define RS_APP_SCENES_DIR_H

/* "cornell.json" -> ".../scenes/cornell.json". The text lives in one of 8 static buffers, used
 * in turn: enough for every default list, which is all it is for. */
const char* rs_default_scene(const char* name);

#endif /* RS_APP_SCENES_DIR_H */
