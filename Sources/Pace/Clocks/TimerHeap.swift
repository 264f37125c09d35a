//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// One timer per target, ordered by deadline: a binary min-heap, plus the
/// place of each target in it, so that arming, moving and cancelling a
/// target's timer each take O(log n).
///
/// A value type with no lock: ``TimerService`` keeps it behind its own.
struct TimerHeap {
  typealias Target = any TimerTarget

  struct Entry {
    var deadline: Int64
    let target: Target
  }

  /// The heap: every entry's deadline is at or before its children's.
  private(set) var entries: [Entry] = []
  /// Where each target's entry is in `entries`.
  private var positions: [ObjectIdentifier: Int] = [:]

  /// The earliest deadline, or `nil` when no timer is armed.
  var earliestDeadline: Int64? { entries.first?.deadline }

  var count: Int { entries.count }

  /// The deadline of `target`'s timer, if it has one.
  func deadline(of target: Target) -> Int64? {
    positions[ObjectIdentifier(target)].map { entries[$0].deadline }
  }

  /// Arms `target`'s timer for `deadline`, or moves it there if it is armed.
  mutating func schedule(_ target: Target, at deadline: Int64) {
    if let position = positions[ObjectIdentifier(target)] {
      let earlier = deadline < entries[position].deadline
      entries[position].deadline = deadline
      if earlier { siftUp(from: position) } else { siftDown(from: position) }
      return
    }
    entries.append(Entry(deadline: deadline, target: target))
    positions[ObjectIdentifier(target)] = entries.count - 1
    siftUp(from: entries.count - 1)
  }

  /// Disarms `target`'s timer; returns the target if it had one, so that the
  /// caller can release it outside its lock.
  @discardableResult
  mutating func remove(_ target: Target) -> Target? {
    guard let position = positions.removeValue(forKey: ObjectIdentifier(target)) else { return nil }
    return removeEntry(at: position).target
  }

  /// Moves the targets whose deadline is at or before `now` to `due`, earliest first.
  mutating func popDue(at now: Int64, into due: inout [Target]) {
    while let first = entries.first, first.deadline <= now {
      positions[ObjectIdentifier(first.target)] = nil
      due.append(removeEntry(at: 0).target)
    }
  }

  /// Removes the entry at `position` (whose target is already out of `positions`).
  private mutating func removeEntry(at position: Int) -> Entry {
    let last = entries.count - 1
    if position != last {
      entries.swapAt(position, last)
      positions[ObjectIdentifier(entries[position].target)] = position
    }
    let removed = entries.removeLast()
    if position < entries.count {
      siftDown(from: position)
      siftUp(from: position)
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
    positions[ObjectIdentifier(entries[first].target)] = first
    positions[ObjectIdentifier(entries[second].target)] = second
  }
}
