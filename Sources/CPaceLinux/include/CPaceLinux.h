//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

// Pace's C glue. On Linux, what Swift's Glibc module does not import: the
// timer thread's calls (<sys/timerfd.h>, and `pthread_setname_np`, which needs
// _GNU_SOURCE), and the futex lock behind `LockedState` and the pacers. On
// every system, `c_pace_prefetch`, which Swift cannot spell.

#ifndef C_PACE_LINUX_H
#define C_PACE_LINUX_H

#ifdef __linux__

#include <stdint.h>

/// A close-on-exec timerfd on CLOCK_BOOTTIME (the clock of Swift's
/// ContinuousClock on Linux), or -1 with errno set.
int c_pace_timerfd_create(void);

/// Arms `fd` to expire once at `deadline_ns` nanoseconds of CLOCK_BOOTTIME;
/// returns 0, or -1 with errno set.
int c_pace_timerfd_arm(int fd, int64_t deadline_ns);

/// A lock in one 32-bit word, initially 0: 0 unlocked, 1 locked, 2 locked
/// with waiters. The algorithm of Rust's standard library futex mutex (after
/// Drepper, "Futexes Are Tricky"): an uncontended lock or unlock is one atomic
/// instruction, a contended one spins briefly, then sleeps on the futex.
///
/// Written in C so that its atomics are compiled (and, under
/// ThreadSanitizer, instrumented) in this package: the sanitizer then sees
/// every lock and unlock as acquire and release.
void c_pace_lock(uint32_t *word);
void c_pace_unlock(uint32_t *word);

/// Sleeps while `*word` equals `expected` (or until a wake-up or a signal);
/// the kernel compares and sleeps atomically, so a wake-up is never lost.
void c_pace_futex_wait(uint32_t *word, uint32_t expected);

/// As `c_pace_futex_wait`, but for at most `timeout_ns` nanoseconds (a
/// negative one counts as zero).
void c_pace_futex_wait_for(uint32_t *word, uint32_t expected, int64_t timeout_ns);

/// Wakes one thread sleeping in `c_pace_futex_wait` on `word`.
void c_pace_futex_wake_one(uint32_t *word);

/// Stores `value` in `*word` with release ordering, for a waiter to see.
void c_pace_store_release(uint32_t *word, uint32_t value);

/// Loads `*word` with acquire ordering.
uint32_t c_pace_load_acquire(uint32_t *word);

/// Names the calling thread (at most 15 bytes are kept), for debuggers and `top -H`.
void c_pace_name_this_thread(const char *name);

#endif  // __linux__

/// Asks the processor to start loading the cache line at `address`, and
/// returns at once. A hint only: it never faults, whatever `address` is (a
/// stale one, one of freed memory, null), and it waits for nothing, not even
/// a lock taken after it. Swift has no spelling of it; every platform's C
/// compiler has.
static inline void c_pace_prefetch(const void *address) { __builtin_prefetch(address); }

#endif  // C_PACE_LINUX_H
