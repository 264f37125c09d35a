//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#ifndef PACE_BENCHMARKS_MEMORY_STATS_H
#define PACE_BENCHMARKS_MEMORY_STATS_H

#include <stdint.h>

/// The process's resident set size in bytes, or -1 if it cannot be read.
int64_t c_pace_resident_bytes(void);

/// The bytes the C allocator has handed out and not yet taken back (glibc:
/// mallinfo2's in-use chunks plus mmapped blocks; Darwin: the default zone's
/// size in use), or -1 where unknown.
int64_t c_pace_heap_bytes_in_use(void);

/// Returns the allocator's free pages to the system where it can (glibc
/// malloc_trim), so that a resident-size baseline counts live memory only.
void c_pace_release_free_memory(void);

#endif
