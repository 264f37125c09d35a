//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#ifndef PACE_BENCHMARKS_BARE_TIMER_H
#define PACE_BENCHMARKS_BARE_TIMER_H

#include <stdint.h>

/// The clock of ``c_pace_bare_timer_wait_until``, in nanoseconds: the clock `ContinuousClock` reads (Linux's
/// CLOCK_BOOTTIME, Darwin's CLOCK_MONOTONIC_RAW, else CLOCK_MONOTONIC).
int64_t c_pace_bare_timer_now(void);

/// Blocks the calling thread until its clock reads `deadline_ns` (Linux: an
/// absolute timerfd and one blocking read, the way Pace's timer thread
/// waited before it learnt to wake early; elsewhere: `nanosleep` for what is
/// left, again after an interruption). Returns 0, or -1 if the timer could
/// not be made or the wait failed.
int c_pace_bare_timer_wait_until(int64_t deadline_ns);

#endif
