// The few system calls SystemSupport needs that Swift's Glibc module does not import (<link.h>).
#ifndef THUIS_SYSTEM_SHIM_H
#define THUIS_SYSTEM_SHIM_H

#include <stddef.h>

/// Advises the kernel (madvise MADV_PAGEOUT) to reclaim the resident pages of the executable's read-only
/// segments (code, read-only data, the loader's tables) that this process alone maps; they are read again from
/// the file when next touched. Finds the segments with dl_iterate_phdr (the main program is its first object).
/// Returns the bytes advised, or -errno of the first failed madvise (EINVAL: a kernel before 5.4).
long thuis_page_out_executable_text(void);

#endif
