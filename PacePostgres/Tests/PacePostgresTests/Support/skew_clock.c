// Pace test support (see FleetProcessTests, clock skew): a host whose wall
// clock is off by PACE_SKEW_SECONDS. Preloaded into one fleet probe, it moves
// only the wall clock (CLOCK_REALTIME and its kin, gettimeofday, time), as on
// a skewed host, and leaves the monotonic clocks, and the timers built on
// them, alone. (Debian's libfaketime 0.9.10 also rewrites timerfd_settime,
// which leaves Dispatch's timers, and so every Task.sleep, asleep for good.)
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long skew_seconds(void) {
  const char *text = getenv("PACE_SKEW_SECONDS");
  return text ? atol(text) : 0;
}

int clock_gettime(clockid_t clock, struct timespec *spec) {
  static int (*real)(clockid_t, struct timespec *);
  if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
  int result = real(clock, spec);
  if (result == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE || clock == CLOCK_TAI)) {
    spec->tv_sec += skew_seconds();
  }
  return result;
}

int gettimeofday(struct timeval *restrict value, void *restrict zone) {
  struct timespec spec;
  int result = clock_gettime(CLOCK_REALTIME, &spec);
  if (result == 0 && value) {
    value->tv_sec = spec.tv_sec;
    value->tv_usec = spec.tv_nsec / 1000;
  }
  (void)zone;
  return result;
}

time_t time(time_t *out) {
  struct timespec spec;
  clock_gettime(CLOCK_REALTIME, &spec);
  if (out) *out = spec.tv_sec;
  return spec.tv_sec;
}
