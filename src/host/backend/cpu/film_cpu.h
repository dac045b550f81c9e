/* film_cpu.h - the CPU backend's film operations (film_cpu.c): its RsBackendOps entries for
 * reading and writing the film, whole or one span, making an image from it, and the display
 * (backend.h says what each does). Host C11; not part of any public API.
 */
#ifndef RS_HOST_FILM_CPU_H
#define RS_HOST_FILM_CPU_H

#include "host/backend/cpu/cpu_backend.h"

int rs_cpu_read_film(RsBackend* base, RsFloat4* film, RsError* err);
int rs_cpu_write_film(RsBackend* base, const RsFloat4* film, RsError* err);
int rs_cpu_read_film_span(RsBackend* base, uint32_t first, uint32_t pixels, RsFloat4* values, RsError* err);
int rs_cpu_write_film_span(RsBackend* base, uint32_t first, uint32_t pixels, const RsFloat4* values, RsError* err);
int rs_cpu_make_image(RsBackend* base, const RsImageRequest* request, RsError* err);
int rs_cpu_read_image(RsBackend* base, RsFloat4* image, RsError* err);
int rs_cpu_display(RsBackend* base, const RsDisplaySettings* settings, uint8_t* rgba, RsDisplayStats* stats,
                   RsError* err);

#endif /* RS_HOST_FILM_CPU_H */
