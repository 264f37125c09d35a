//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// One timer per key, ordered by deadline: a binary min-heap, plus the place
/// of each key in it, so that arming, moving and disarming a timer each take
/// O(log n).
///
/// A value type with no lock: its user keeps it behind its own. Generic over
/// the key and what a timer carries, so that the kernel scheduler (a key per
/// driver) and a keyed pacer (a key per user key) share it.
///
///     var heap = TimerHeap<String, Int>()
///     heap.arm("a", at: 30, payload: 1)
///     heap.arm("b", at: 10, payload: 2)
///     heap.popFirst(dueAt: 20)?.key  // "b"
@usableFromInline
package struct TimerHeap<Key: Hashable, Payload> {
  @usableFromInline
  package struct Entry {
    @usableFromInline package var deadline: Int64
    @usableFromInline package var key: Key
    /// What the timer carries (for a driver: itself, kept alive while armed, and its callback).
    @usableFromInline package var payload: Payload

    @inlinable
    package init(deadline: Int64, key: Key, payload: Payload) {
      self.deadline = deadline
      self.key = key
      self.payload = payload
    }
  }

  /// The capacity an empty heap keeps; beyond it, emptying frees the storage.
  @inlinable
  package static var retainedCapacity: Int { 256 }

  /// The heap: every entry's deadline is at or before its children's.
  @usableFromInline package private(set) var entries: [Entry] = []
  /// Where each key's entry is in `entries`.
  @usableFromInline var positions: [Key: Int] = [:]

  /// An empty heap.
  @inlinable
  package init() {}

  /// The earliest deadline, or `nil` when no timer is armed.
  @inlinable
  package var earliestDeadline: Int64? { entries.first?.deadline }

  /// The number of armed timers.
  package var count: Int { entries.count }

  /// The deadline of `key`'s timer, if it has one.
  package func deadline(of key: Key) -> Int64? {
    positions[key].map { entries[$0].deadline }
  }

  /// Arms `key`'s timer for `deadline`, or moves it there (with its new
  /// payload) if it is armed; returns the payload it replaced, so that the
  /// caller can release it outside its lock.
  @inlinable @discardableResult
  package mutating func arm(_ key: Key, at deadline: Int64, payload: Payload) -> Payload? {
    if let position = positions[key] {
      let earlier = deadline < entries[position].deadline
      entries[position].deadline = deadline
      let replaced = entries[position].payload
      entries[position].payload = payload
      if earlier { siftUp(from: position) } else { siftDown(from: position) }
      return replaced
    }
    entries.append(Entry(deadline: deadline, key: key, payload: payload))
    positions[key] = entries.count - 1
    siftUp(from: entries.count - 1)
    return nil
  }

  /// Disarms `key`'s timer; returns its entry if it had one, so that the
  /// caller can release its payload outside its lock.
  @inlinable @discardableResult
  package mutating func disarm(_ key: Key) -> Entry? {
    guard let position = positions.removeValue(forKey: key) else { return nil }
    return removeEntry(at: position)
  }

  /// Takes out the earliest entry if its deadline is at or before `now`.
  @inlinable
  package mutating func popFirst(dueAt now: Int64) -> Entry? {
    guard let first = entries.first, first.deadline <= now else { return nil }
    positions[first.key] = nil
    return removeEntry(at: 0)
  }

  /// Removes the entry at `position` (whose key is already out of `positions`).
  @inlinable
  mutating func removeEntry(at position: Int) -> Entry {
    let last = entries.count - 1
    if position != last {
      entries.swapAt(position, last)
      positions[entries[position].key] = position
    }
    let removed = entries.removeLast()
    if position < entries.count {
      siftDown(from: position)
      siftUp(from: position)
    } else if entries.isEmpty, entries.capacity > Self.retainedCapacity {
      // A burst of pending timers is over: give its memory back.
      entries = []
      positions = [:]
    }
    return removed
  }

  @inlinable
  mutating func siftUp(from start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard entries[child].deadline < entries[parent].deadline else { return }
      swapEntries(child, parent)
      child = parent
    }
  }

  @inlinable
  mutating func siftDown(from start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      guard left < entries.count else { return }
      let right = left + 1
      let smaller = right < entries.count && entries[right].deadline < entries[left].deadline ? right : left
      guard entries[smaller].deadline < entries[parent].deadline else { return }
      swapEntries(smaller, parent)
      parent = smaller
    }
  }

  @inlinable
  mutating func swapEntries(_ first: Int, _ second: Int) {
    entries.swapAt(first, second)
    positions[entries[first].key] = first
    positions[entries[second].key] = second
  }
}
