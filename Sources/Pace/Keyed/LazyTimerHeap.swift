//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A binary min-heap of slot deadlines that is told only of earlier ones: a
/// key's later deadline (a debounce send) touches nothing here, and its
/// entry, popped early, is pushed back by the driver for the new deadline.
/// A disarmed or moved timer leaves its entry behind, stale, until it pops;
/// the driver rebuilds the heap when stale entries outnumber live keys.
///
/// 16 bytes per entry and no index: a push or pop costs O(log n), a send
/// that moves a deadline later costs nothing.
@usableFromInline
package struct LazyTimerHeap: KeyedTimerHeap {
  @usableFromInline package var entries: [KeyedTimerEntry] = []

  @inlinable
  package init() {}

  @inlinable
  package static var followsEveryMove: Bool { false }

  @inlinable
  package mutating func arm(_ slot: Int, at deadline: Int64) {
    entries.append(KeyedTimerEntry(deadline: deadline, slot: slot))
    var child = entries.count &- 1
    let entry = entries[child]
    while child > 0 {
      let parent = (child &- 1) >> 1
      guard entry.deadline < entries[parent].deadline else { break }
      entries[child] = entries[parent]
      child = parent
    }
    entries[child] = entry
  }

  /// Nothing to do: the entry pops stale, and the driver skips it.
  @inlinable
  package mutating func disarm(_ slot: Int, at deadline: Int64) {}

  @inlinable
  package mutating func moveSlot(from old: Int, to new: Int, armedAt deadline: Int64?) {
    // The entry for `old` goes stale; the key's timer needs one for `new`.
    if let deadline { arm(new, at: deadline) }
  }

  @inlinable
  package mutating func popDue(at now: Int64, into due: inout [KeyedTimerEntry]) {
    while let first = entries.first, first.deadline <= now {
      due.append(first)
      let last = entries.removeLast()
      guard !entries.isEmpty else { break }
      siftDown(last)
    }
    if entries.isEmpty, entries.capacity > TimerHeap<Int, Void>.retainedCapacity { entries = [] }
  }

  /// Puts `entry` at the root, where the first entry was, and sifts it down.
  @inlinable
  mutating func siftDown(_ entry: KeyedTimerEntry) {
    let count = entries.count
    var parent = 0
    while true {
      let left = 2 &* parent &+ 1
      guard left < count else { break }
      let right = left &+ 1
      let smaller = right < count && entries[right].deadline < entries[left].deadline ? right : left
      guard entries[smaller].deadline < entry.deadline else { break }
      entries[parent] = entries[smaller]
      parent = smaller
    }
    entries[parent] = entry
  }

  @usableFromInline
  package mutating func rebuild(from live: [KeyedTimerEntry]) {
    entries = live.sorted { $0.deadline < $1.deadline }  // A sorted array is a heap.
  }
}
