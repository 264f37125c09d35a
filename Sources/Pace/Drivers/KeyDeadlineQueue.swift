//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The keys' deadlines in the order they are due, for ``KeyedPacingRunner``:
/// a binary min-heap of (deadline, order, key), generic over the instant (a
/// replay's or a marble's, not only the drivers' nanoseconds, as
/// `TimerHeap` is).
///
/// It keeps no place per key: an entry that no longer stands for its key's
/// deadline stays until it comes to the top, where the runner discards it
/// or queues the key again (its deadline moved later). `order` breaks ties
/// between equal deadlines, and tells a key's current entry from its stale ones.
@usableFromInline
struct KeyDeadlineQueue<Key, Instant: InstantProtocol> {
  @usableFromInline
  struct Entry {
    @usableFromInline var deadline: Instant
    @usableFromInline var order: UInt64
    @usableFromInline var key: Key

    @inlinable
    init(deadline: Instant, order: UInt64, key: Key) {
      self.deadline = deadline
      self.order = order
      self.key = key
    }

    @inlinable
    func isDue(before other: Entry) -> Bool {
      deadline < other.deadline || (deadline == other.deadline && order < other.order)
    }
  }

  @usableFromInline var entries: [Entry] = []

  @inlinable
  init() {}

  /// The entry due first.
  @inlinable
  var first: Entry? { entries.first }

  @inlinable
  var count: Int { entries.count }

  @inlinable
  mutating func insert(_ entry: Entry) {
    entries.append(entry)
    var child = entries.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard entries[child].isDue(before: entries[parent]) else { return }
      entries.swapAt(child, parent)
      child = parent
    }
  }

  /// Removes the entry due first.
  @inlinable @discardableResult
  mutating func removeFirst() -> Entry {
    let first = entries[0]
    let last = entries.removeLast()
    guard !entries.isEmpty else { return first }
    entries[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < entries.count else { break }
      let right = left + 1
      let earlier = right < entries.count && entries[right].isDue(before: entries[left]) ? right : left
      guard entries[earlier].isDue(before: entries[parent]) else { break }
      entries.swapAt(earlier, parent)
      parent = earlier
    }
    return first
  }
}
