/* backend_factory.c - creates a backend instance of the kind asked for, on the device asked
 * for. Host C11. The one file that knows every backend; the shared tables (deadray.c and the
 * others backend.h names) and the backends themselves know none of the others. */
#include "host/backend/backend.h"

RsBackendKind rs_backend_resolve_kind(RsBackendKind kind)
{
    if (kind == RS_BACKEND_AUTO)
        return rs_cuda_built() && rs_cuda_device_count() > 0 ? RS_BACKEND_CUDA : RS_BACKEND_CPU;
    return kind;
}

RsBackend* rs_backend_create(const RsBackendConfig* config, RsError* err)
{
    RsBackendKind kind = rs_backend_resolve_kind(config->kind);
    if (!rs_deadray_supported(config->deadray, kind)) {
        rs_error_set(err, "--deadray %s: the %s backend does not have this strategy (%s); `raystream info` lists "
                          "the strategies each backend has",
                     rs_deadray_name(config->deadray), kind == RS_BACKEND_CUDA ? "CUDA" : "CPU",
                     rs_deadray_help(config->deadray));
        return NULL;
    }
    if (kind == RS_BACKEND_CPU)
        return rs_backend_cpu_create(config, err);
    if (!rs_cuda_built()) {
        rs_error_set(err, "--backend cuda: this raystream was built without CUDA (rebuild with -Dcuda=enabled)");
        return NULL;
    }
    int devices = rs_cuda_device_count();
    if (devices <= 0) {
        rs_error_set(err, "--backend cuda: no CUDA device found (use --backend cpu or auto)");
        return NULL;
    }
    if (config->device < 0 || config->device >= devices) {
        rs_error_set(err, "CUDA device %d does not exist (this machine has %d: 0..%d)", config->device, devices,
                     devices - 1);
        return NULL;
    }
    return rs_backend_cuda_create(config, err);
}

void rs_backend_destroy(RsBackend* b)
{
    if (b)
        b->ops->destroy(b);
}
