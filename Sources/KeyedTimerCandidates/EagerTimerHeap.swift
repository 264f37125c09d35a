//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// A binary min-heap of slot deadlines that always holds each key's exact
/// deadline: every change moves the key's entry (O(log n) for each debounce
/// send), found through the place of each slot in the heap.
///
/// 16 bytes per entry, and 4 per slot for its place. Measured beside
/// `LazyTimerHeap` and `TimerWheel`; see `KeyedTimerQueue`.
@usableFromInline
package struct EagerTimerHeap: KeyedTimerQueue {
  @usableFromInline package var entries: [KeyedTimerEntry] = []

  @inlinable
  package var earliestDeadline: Int64? { entries.first?.deadline }

  @inlinable
  package var count: Int { entries.count }
  /// The place of each slot's entry in `entries`, or -1 when it has none.
  @usableFromInline var places: [Int32] = []

  @inlinable
  package init() {}

  @inlinable
  package static var followsEveryMove: Bool { true }

  @inlinable
  package mutating func arm(_ slot: Int, at deadline: Int64) {
    if slot >= places.count { places.append(contentsOf: repeatElement(-1, count: slot &+ 1 &- places.count)) }
    let place = Int(places[slot])
    if place >= 0 {
      let earlier = deadline < entries[place].deadline
      entries[place].deadline = deadline
      if earlier { siftUp(place) } else { siftDown(place) }
      return
    }
    entries.append(KeyedTimerEntry(deadline: deadline, slot: slot))
    places[slot] = Int32(truncatingIfNeeded: entries.count &- 1)
    siftUp(entries.count &- 1)
  }

  @inlinable
  package mutating func disarm(_ slot: Int, at deadline: Int64) {
    guard slot < places.count, places[slot] >= 0 else { return }
    remove(at: Int(places[slot]))
  }

  @inlinable
  package mutating func moveSlot(from old: Int, to new: Int, armedAt deadline: Int64?) {
    // `new` was dropped with no timer; `old` is the last slot.
    if old < places.count {
      let place = places[old]
      if place >= 0 {
        entries[Int(place)].slot = Int32(truncatingIfNeeded: new)
        places[new] = place
      }
      places.removeLast(places.count &- old)
    }
    if places.capacity > 256, places.count &* 4 < places.capacity {
      places = Array(places)
    }
  }

  @inlinable
  package mutating func popDue(at now: Int64, into due: inout [KeyedTimerEntry]) {
    while let first = entries.first, first.deadline <= now {
      due.append(first)
      remove(at: 0)
    }
  }

  @usableFromInline
  package mutating func rebuild(from live: [KeyedTimerEntry]) {
    (entries, places) = ([], [])
    for entry in live { arm(Int(entry.slot), at: entry.deadline) }
  }

  /// Removes the entry at `place`, moving the last entry into it.
  @inlinable
  mutating func remove(at place: Int) {
    places[Int(entries[place].slot)] = -1
    let last = entries.removeLast()
    if place < entries.count {
      entries[place] = last
      places[Int(last.slot)] = Int32(truncatingIfNeeded: place)
      siftDown(place)
      siftUp(place)
    } else if entries.isEmpty, entries.capacity > 256 {
      entries = []
    }
  }

  @inlinable
  mutating func siftUp(_ start: Int) {
    var child = start
    let entry = entries[child]
    while child > 0 {
      let parent = (child &- 1) >> 1
      guard entry.deadline < entries[parent].deadline else { break }
      put(entries[parent], at: child)
      child = parent
    }
    put(entry, at: child)
  }

  @inlinable
  mutating func siftDown(_ start: Int) {
    var parent = start
    let entry = entries[parent]
    let count = entries.count
    while true {
      let left = 2 &* parent &+ 1
      guard left < count else { break }
      let right = left &+ 1
      let smaller = right < count && entries[right].deadline < entries[left].deadline ? right : left
      guard entries[smaller].deadline < entry.deadline else { break }
      put(entries[smaller], at: parent)
      parent = smaller
    }
    put(entry, at: parent)
  }

  @inlinable
  mutating func put(_ entry: KeyedTimerEntry, at place: Int) {
    entries[place] = entry
    places[Int(entry.slot)] = Int32(truncatingIfNeeded: place)
  }
}
