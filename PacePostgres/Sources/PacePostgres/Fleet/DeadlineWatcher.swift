//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Synchronization

/// Something whose deadline ``DeadlineWatcher`` watches.
protocol DeadlineHolder: AnyObject, Sendable {
  /// The deadline of entry `id` has passed before it was removed.
  func deadlinePassed(_ id: UInt64)
}

/// The deadlines of this process's fleet pacers, watched by one sleeping
/// task for all of them: the database calls' time limits and the workers'
/// alarms.
///
/// Most of these deadlines never pass. A call's limit is seconds long and
/// its answer takes milliseconds; a worker's alarm is set for its next
/// round, and a finished delivery or a send wakes it first. A sleeping task
/// per deadline, as there was, armed a timer of the global executor each
/// time, which stayed armed after its task was cancelled and woke the
/// executor's timer thread when it passed. Counted in `fleet-compare`'s
/// load (a uprobe on `dispatch_after_f`, 2026-11-28), the probes armed 3.0
/// timers a send with them and 2.3 without; the rest are PostgresNIO's
/// pool's, 1.6 a statement in the floor's run.
///
/// Here a deadline is an entry in a table, and removing it arms nothing.
/// The watcher sleeps until the earliest deadline it knew of when it last
/// looked; when it wakes, it removes the entries whose deadline passed,
/// tells their holders, and sleeps until the earliest left. A deadline
/// earlier than the one it sleeps for starts a new watcher; the one before
/// ends when it wakes.
final class DeadlineWatcher: Sendable {
  /// The process's watcher.
  static let shared = DeadlineWatcher()

  private struct Entry {
    var deadline: ContinuousClock.Instant
    var holder: any DeadlineHolder
  }

  private struct State {
    var entries: [UInt64: Entry] = [:]
    var nextID: UInt64 = 0
    /// When the current watcher wakes; nil when none sleeps.
    var wakesAt: ContinuousClock.Instant?
    /// The current watcher's number: a watcher that finds another number
    /// has been replaced, and ends.
    var watcher: UInt64 = 0
  }

  private let state = Mutex(State())

  /// Watches `deadline` for `holder`; returns the entry's number, which
  /// removes it and which `holder` is told when the deadline passes.
  func add(_ holder: any DeadlineHolder, deadline: ContinuousClock.Instant) -> UInt64 {
    let (id, watcher) = state.withLock { state -> (UInt64, UInt64?) in
      state.nextID &+= 1
      state.entries[state.nextID] = Entry(deadline: deadline, holder: holder)
      if let wakesAt = state.wakesAt, wakesAt <= deadline { return (state.nextID, nil) }
      state.wakesAt = deadline
      state.watcher &+= 1
      return (state.nextID, state.watcher)
    }
    if let watcher { watch(number: watcher, until: deadline) }
    return id
  }

  /// Stops watching entry `id`, if it is still watched. Arms nothing.
  func remove(_ id: UInt64) {
    _ = state.withLock { $0.entries.removeValue(forKey: id) }
  }

  /// How many deadlines are watched, for tests.
  var count: Int { state.withLock { $0.entries.count } }

  private func watch(number: UInt64, until first: ContinuousClock.Instant) {
    Task {
      var wake = first
      while true {
        try? await Task.sleep(until: wake, clock: .continuous)
        let now = ContinuousClock.now
        let (passed, next) = state.withLock {
          state -> ([(id: UInt64, holder: any DeadlineHolder)], ContinuousClock.Instant?) in
          guard state.watcher == number else { return ([], nil) }  // Replaced by a watcher for an earlier deadline.
          var passed: [(id: UInt64, holder: any DeadlineHolder)] = []
          var next: ContinuousClock.Instant?
          for (id, entry) in state.entries {
            if entry.deadline <= now {
              passed.append((id, entry.holder))
            } else if next.map({ entry.deadline < $0 }) ?? true {
              next = entry.deadline
            }
          }
          for (id, _) in passed { state.entries[id] = nil }
          state.wakesAt = next
          return (passed, next)
        }
        for (id, holder) in passed { holder.deadlinePassed(id) }
        guard let next else { return }
        wake = next
      }
    }
  }
}
