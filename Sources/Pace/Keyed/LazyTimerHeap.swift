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
package struct LazyTimerHeap: KeyedTimerQueue {
  @usableFromInline var heap = MinHeap<KeyedTimerEntry>()

  @inlinable
  package init() {}

  @inlinable
  package static var followsEveryMove: Bool { false }

  @inlinable
  package var earliestDeadline: Int64? { heap.first?.deadline }

  @inlinable
  package var count: Int { heap.count }

  @inlinable
  package mutating func arm(_ slot: Int, at deadline: Int64) {
    heap.insert(KeyedTimerEntry(deadline: deadline, slot: slot))
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
    while let first = heap.first, first.deadline <= now { due.append(heap.removeFirst()) }
  }

  @inlinable
  package mutating func rebuild(from live: [KeyedTimerEntry]) {
    heap.replaceAll(with: live)
  }
}
