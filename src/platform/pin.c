/* pin.c: see iks_pin_modules in platform.h. */
#include "platform/platform.h"

#ifdef IKS_SANITIZE
#include <dlfcn.h>
#include <link.h>

static int pin_module(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (info->dlpi_name && info->dlpi_name[0]) dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}

void iks_pin_modules(void) { dl_iterate_phdr(pin_module, NULL); }
#else
void iks_pin_modules(void) {}
#endif
