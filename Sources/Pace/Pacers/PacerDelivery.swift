//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Where a pacer's handler runs when a timer emits a value.
///
/// The default, ``separate``, keeps handlers off every thread that other pacers
/// share; ``inline`` trades that for a few microseconds of latency.
///
///     let log = Debouncer<String>(for: .milliseconds(50), delivery: .inline) { line in
///       counter.add(line.count)       // short, never blocks: fine on the timer thread
///     }
public enum PacerDelivery: Hashable, Sendable {
  /// Off the timer's thread, on the handler's isolation (the default): a
  /// handler isolated to an actor runs in a task on it; one with no
  /// isolation runs, on Linux, on Pace's delivery threads, a pool that grows
  /// whenever all its threads are busy (elsewhere in a task). A slow or
  /// blocking handler delays only its own pacer's later values, never another
  /// pacer, and never holds a thread of Swift's cooperative pool.
  case separate
  /// Right where the timer fires, for a handler with no isolation of its own:
  /// on Linux, on Pace's one timer thread, which every pacer on the continuous
  /// clock shares. It saves a thread wake-up (see the README's fire latency
  /// figures), but a handler that blocks or runs long delays every other
  /// pacer's timer in the process. Use it only for handlers known to be
  /// short and non-blocking. A handler isolated to an actor, a value emitted
  /// by `send` (a leading edge) and a clock other than the continuous clock on
  /// Linux deliver as with ``separate``.
  case inline
}
