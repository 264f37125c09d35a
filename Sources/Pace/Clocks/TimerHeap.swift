//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// One timer per owner, ordered by deadline: a binary min-heap, plus the
/// place of each owner in it, so that arming, moving and cancelling a
/// timer each take O(log n).
///
/// A value type with no lock: ``TimerService`` keeps it behind its own.
struct TimerHeap {
  struct Entry {
    var deadline: Int64
    /// The driver whose timer this is, kept alive while it is armed.
    var owner: TimerOwner
    var fire: TimerCallback
  }

  /// The capacity an empty heap keeps; beyond it, emptying frees the storage.
  static let retainedCapacity = 256

  /// The heap: every entry's deadline is at or before its children's.
  private(set) var entries: [Entry] = []
  /// Where each owner's entry is in `entries`.
  private var positions: [ObjectIdentifier: Int] = [:]

  /// The earliest deadline, or `nil` when no timer is armed.
  var earliestDeadline: Int64? { entries.first?.deadline }

  var count: Int { entries.count }

  /// The deadline of `owner`'s timer, if it has one.
  func deadline(of owner: ObjectIdentifier) -> Int64? {
    positions[owner].map { entries[$0].deadline }
  }

  /// Arms `owner`'s timer for `deadline`, or moves it there (with its new
  /// callback) if it is armed; returns whether it was armed.
  @discardableResult
  mutating func schedule(_ owner: TimerOwner, at deadline: Int64, fire: @escaping TimerCallback) -> Bool {
    if let position = positions[owner.id] {
      let earlier = deadline < entries[position].deadline
      entries[position].deadline = deadline
      entries[position].fire = fire
      if earlier { siftUp(from: position) } else { siftDown(from: position) }
      return true
    }
    entries.append(Entry(deadline: deadline, owner: owner, fire: fire))
    positions[owner.id] = entries.count - 1
    siftUp(from: entries.count - 1)
    return false
  }

  /// Disarms `owner`'s timer; returns its entry if it had one, so that the
  /// caller can release the owner outside its lock.
  @discardableResult
  mutating func remove(_ owner: ObjectIdentifier) -> Entry? {
    guard let position = positions.removeValue(forKey: owner) else { return nil }
    return removeEntry(at: position)
  }

  /// Takes out the earliest entry if its deadline is at or before `now`.
  mutating func popFirst(dueAt now: Int64) -> Entry? {
    guard let first = entries.first, first.deadline <= now else { return nil }
    positions[first.owner.id] = nil
    return removeEntry(at: 0)
  }

  /// Removes the entry at `position` (whose owner is already out of `positions`).
  private mutating func removeEntry(at position: Int) -> Entry {
    let last = entries.count - 1
    if position != last {
      entries.swapAt(position, last)
      positions[entries[position].owner.id] = position
    }
    let removed = entries.removeLast()
    if position < entries.count {
      siftDown(from: position)
      siftUp(from: position)
    } else if entries.isEmpty, entries.capacity > Self.retainedCapacity {
      // A burst of pending pacers is over: give its memory back.
      entries = []
      positions = [:]
    }
    return removed
  }

  private mutating func siftUp(from start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard entries[child].deadline < entries[parent].deadline else { return }
      swapEntries(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(from start: Int) {
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

  private mutating func swapEntries(_ first: Int, _ second: Int) {
    entries.swapAt(first, second)
    positions[entries[first].owner.id] = first
    positions[entries[second].owner.id] = second
  }
}
