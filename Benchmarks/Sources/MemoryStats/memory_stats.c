//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

// Memory figures for the keyed benchmarks, in C because Swift's Glibc module
// does not export <malloc.h>.

#include "memory_stats.h"

#if defined(__linux__)
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <unistd.h>

int64_t c_pace_resident_bytes(void) {
  // /proc/self/statm: "size resident shared text lib data dt", in pages.
  int descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) return -1;
  char text[128];
  ssize_t length = read(descriptor, text, sizeof text - 1);
  close(descriptor);
  if (length <= 0) return -1;
  text[length] = 0;
  long long size = 0, resident = 0;
  if (sscanf(text, "%lld %lld", &size, &resident) != 2) return -1;
  return (int64_t)resident * (int64_t)sysconf(_SC_PAGESIZE);
}

int64_t c_pace_heap_bytes_in_use(void) {
  struct mallinfo2 info = mallinfo2();  // Every arena, not only the main one.
  return (int64_t)(info.uordblks + info.hblkhd);
}

void c_pace_release_free_memory(void) { malloc_trim(0); }

#elif defined(__APPLE__)
#include <mach/mach.h>
#include <malloc/malloc.h>

int64_t c_pace_resident_bytes(void) {
  mach_task_basic_info_data_t info;
  mach_msg_type_number_t count = MACH_TASK_BASIC_INFO_COUNT;
  if (task_info(mach_task_self(), MACH_TASK_BASIC_INFO, (task_info_t)&info, &count) != KERN_SUCCESS) return -1;
  return (int64_t)info.resident_size;
}

int64_t c_pace_heap_bytes_in_use(void) {
  malloc_statistics_t statistics;
  malloc_zone_statistics(NULL, &statistics);
  return (int64_t)statistics.size_in_use;
}

void c_pace_release_free_memory(void) { malloc_zone_pressure_relief(NULL, 0); }

#else
int64_t c_pace_resident_bytes(void) { return -1; }
int64_t c_pace_heap_bytes_in_use(void) { return -1; }
void c_pace_release_free_memory(void) {}
#endif
