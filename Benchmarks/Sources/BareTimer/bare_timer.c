//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

// The fire latency benchmark's reference: how late the kernel wakes a thread
// that sleeps once until a deadline and does nothing else. In C because
// Swift's Glibc module does not export <sys/timerfd.h>.

#include "bare_timer.h"

#include <errno.h>
#include <time.h>

#if defined(__linux__)
#include <sys/timerfd.h>
#include <unistd.h>

#define BARE_TIMER_CLOCK CLOCK_BOOTTIME

int c_pace_bare_timer_wait_until(int64_t deadline) {
  // One descriptor per thread, made once, as Pace's timer thread keeps one.
  static __thread int descriptor = -1;
  if (descriptor < 0) descriptor = timerfd_create(BARE_TIMER_CLOCK, TFD_CLOEXEC);
  if (descriptor < 0) return -1;
  // A zero it_value would disarm the timer: a deadline at the clock's epoch is due.
  if (deadline < 1) deadline = 1;
  struct itimerspec spec = {0};
  spec.it_value.tv_sec = (time_t)(deadline / 1000000000);
  spec.it_value.tv_nsec = (long)(deadline % 1000000000);
  if (timerfd_settime(descriptor, TFD_TIMER_ABSTIME, &spec, NULL) != 0) return -1;
  uint64_t expirations;
  while (read(descriptor, &expirations, sizeof expirations) < 0) {
    if (errno != EINTR) return -1;
  }
  return 0;
}

#else

#if defined(__APPLE__)
#define BARE_TIMER_CLOCK CLOCK_MONOTONIC_RAW  // What ContinuousClock reads on Darwin.
#else
#define BARE_TIMER_CLOCK CLOCK_MONOTONIC
#endif

int64_t c_pace_bare_timer_now(void);

int c_pace_bare_timer_wait_until(int64_t deadline) {
  // Darwin has no absolute clock_nanosleep: sleep for what is left, again
  // after an interruption.
  for (int64_t left; (left = deadline - c_pace_bare_timer_now()) > 0;) {
    struct timespec span = {(time_t)(left / 1000000000), (long)(left % 1000000000)};
    if (nanosleep(&span, NULL) != 0 && errno != EINTR) return -1;
  }
  return 0;
}

#endif

int64_t c_pace_bare_timer_now(void) {
  struct timespec now;
  clock_gettime(BARE_TIMER_CLOCK, &now);
  return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}
