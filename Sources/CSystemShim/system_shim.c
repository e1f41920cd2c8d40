#define _GNU_SOURCE
#include "system_shim.h"

#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

struct page_out {
    long advised;
    int error;
};

static int page_out_main_program(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct page_out *result = data;
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[index];
        if (segment->p_type != PT_LOAD || (segment->p_flags & PF_W) != 0) continue;
        // Whole pages inside the segment only: a partial page at either end may hold another segment's data.
        uintptr_t start = (info->dlpi_addr + segment->p_vaddr + page - 1) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + segment->p_vaddr + segment->p_memsz) & ~(page - 1);
        if (end <= start) continue;
        if (madvise((void *)start, end - start, MADV_PAGEOUT) != 0) {
            result->error = errno;
            return 1;
        }
        result->advised += (long)(end - start);
    }
    return 1;  // the main program is the first object: stop after it
}

long thuis_page_out_executable_text(void) {
    struct page_out result = {0, 0};
    dl_iterate_phdr(page_out_main_program, &result);
    return result.error != 0 ? -(long)result.error : result.advised;
}
