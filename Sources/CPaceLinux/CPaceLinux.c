//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include "CPaceLinux.h"

#ifdef __linux__

#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

int c_pace_timerfd_create(void) {
  return timerfd_create(CLOCK_BOOTTIME, TFD_CLOEXEC);
}

int c_pace_timerfd_arm(int fd, int64_t deadline_ns) {
  struct itimerspec spec = {0};
  // A zero it_value would disarm the timer: a deadline at or before the epoch
  // of the clock is due, so arm it for the first nanosecond instead.
  if (deadline_ns < 1) deadline_ns = 1;
  spec.it_value.tv_sec = (time_t)(deadline_ns / 1000000000);
  spec.it_value.tv_nsec = (long)(deadline_ns % 1000000000);
  return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

enum { UNLOCKED = 0, LOCKED = 1, CONTENDED = 2 };

static _Atomic uint32_t *atomic_word(uint32_t *word) {
  return (_Atomic uint32_t *)word;
}

/// Spins while the lock is held with no waiters, for a short while; returns the state seen last.
static uint32_t spin(_Atomic uint32_t *word) {
  for (int spins = 100;; spins--) {
    uint32_t state = atomic_load_explicit(word, memory_order_relaxed);
    if (state != LOCKED || spins == 0) return state;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
  }
}

static void lock_contended(_Atomic uint32_t *word) {
  uint32_t state = spin(word);
  if (state == UNLOCKED) {
    uint32_t expected = UNLOCKED;
    if (atomic_compare_exchange_strong_explicit(word, &expected, LOCKED, memory_order_acquire,
                                                memory_order_relaxed)) {
      return;
    }
    state = expected;
  }
  for (;;) {
    // Mark the lock contended, so that its holder wakes a waiter when it unlocks.
    if (state != CONTENDED &&
        atomic_exchange_explicit(word, CONTENDED, memory_order_acquire) == UNLOCKED) {
      return;
    }
    // Sleeps only if the word is still CONTENDED; EINTR and EAGAIN just retry.
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, CONTENDED, NULL, NULL, 0);
    state = spin(word);
  }
}

void c_pace_lock(uint32_t *raw) {
  _Atomic uint32_t *word = atomic_word(raw);
  uint32_t expected = UNLOCKED;
  if (!atomic_compare_exchange_strong_explicit(word, &expected, LOCKED, memory_order_acquire,
                                               memory_order_relaxed)) {
    lock_contended(word);
  }
}

void c_pace_unlock(uint32_t *raw) {
  _Atomic uint32_t *word = atomic_word(raw);
  if (atomic_exchange_explicit(word, UNLOCKED, memory_order_release) == CONTENDED) {
    syscall(SYS_futex, raw, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
  }
}

void c_pace_futex_wait(uint32_t *word, uint32_t expected) {
  syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void c_pace_futex_wait_for(uint32_t *word, uint32_t expected, int64_t timeout_ns) {
  if (timeout_ns < 0) timeout_ns = 0;
  struct timespec timeout = {(time_t)(timeout_ns / 1000000000), (long)(timeout_ns % 1000000000)};
  syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, &timeout, NULL, 0);
}

void c_pace_futex_wake_one(uint32_t *word) {
  syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void c_pace_store_release(uint32_t *word, uint32_t value) {
  atomic_store_explicit(atomic_word(word), value, memory_order_release);
}

uint32_t c_pace_load_acquire(uint32_t *word) {
  return atomic_load_explicit(atomic_word(word), memory_order_acquire);
}

void c_pace_name_this_thread(const char *name) {
  pthread_setname_np(pthread_self(), name);
}

#endif  // __linux__
