//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The one timer structure of a keyed driver: the deadline of every key with
/// an armed timer, by slot number (see ``KeyedSlots``), earliest first.
///
/// The driver keeps each key's armed deadline in its slot and checks every
/// entry a queue hands back against it, so a queue may hand back entries
/// that are stale (the key's timer was moved, disarmed, or its slot now
/// holds another key): the driver skips them. Three structures were measured
/// (the README's "Pacing per key" says which won and why; the two not chosen
/// are in the `KeyedTimerCandidates` target, for the comparison and the tests):
/// - ``LazyTimerHeap``: a binary heap that is told only of earlier deadlines;
///   a later one (a debounce send) writes nothing but the key's slot, and the
///   entry, popped early, is pushed back for the new deadline.
/// - `EagerTimerHeap`: a binary heap with each slot's place in it, moved on
///   every change of a key's deadline (O(log n) per debounce send).
/// - `TimerWheel`: a hierarchical wheel of 1 ms ticks whose entries keep
///   their exact deadline.
@usableFromInline
package protocol KeyedTimerQueue: Sendable {
  init()

  /// Whether the driver tells the queue of every change of a key's deadline;
  /// otherwise only of earlier ones, and a key's timer fires early and is
  /// armed again.
  static var followsEveryMove: Bool { get }

  /// The earliest deadline held (perhaps a stale one), or `nil` when none is.
  var earliestDeadline: Int64? { get }

  /// The number of entries held, stale ones included.
  var count: Int { get }

  /// Arms the timer of `slot` at `deadline` (moving it, if it has one).
  mutating func arm(_ slot: Int, at deadline: Int64)

  /// Disarms the timer of `slot`, which is armed at `deadline`.
  mutating func disarm(_ slot: Int, at deadline: Int64)

  /// The key of slot `old` moved to slot `new` (its timer armed at
  /// `deadline`, if any); slot `old` is gone.
  mutating func moveSlot(from old: Int, to new: Int, armedAt deadline: Int64?)

  /// Takes out every entry due at or before `now`, earliest first, into `due`.
  mutating func popDue(at now: Int64, into due: inout [KeyedTimerEntry])

  /// Replaces every entry with `entries` (the armed slots), dropping stale ones.
  mutating func rebuild(from entries: [KeyedTimerEntry])
}

/// A slot's timer: its deadline in nanoseconds, and the slot number.
@usableFromInline
package struct KeyedTimerEntry: MinHeapElement, Sendable {
  @usableFromInline package var deadline: Int64
  @usableFromInline package var slot: Int32

  @inlinable
  package init(deadline: Int64, slot: Int) {
    self.deadline = deadline
    self.slot = Int32(truncatingIfNeeded: slot)
  }
}

extension KeyedTimerEntry {
  /// The earlier deadline comes first.
  @inlinable
  package func comesBefore(_ other: KeyedTimerEntry) -> Bool { deadline < other.deadline }
}
