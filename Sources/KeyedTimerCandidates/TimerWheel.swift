//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// A hierarchical timer wheel of 1 ms ticks (6 levels of 64 buckets, about
/// 2.2 years; a later deadline waits in an overflow list until it comes
/// within reach) whose entries keep their exact deadline: a bucket of the
/// first level is handed out only as its entries fall due.
///
/// Each bucket is a doubly linked list through per-slot links, so arming,
/// moving and disarming a timer cost O(1) and leave nothing stale; a firing
/// moves each entry down at most once per level. 18 bytes per slot (links,
/// bucket, deadline). Measured beside `LazyTimerHeap` and
/// `EagerTimerHeap`; see `KeyedTimerQueue`.
@usableFromInline
package struct TimerWheel: KeyedTimerQueue {
  @inlinable static var tick: Int64 { 1_000_000 }
  @inlinable static var levels: Int { 6 }
  /// The bucket of the deadlines beyond the wheel's reach.
  @inlinable static var overflow: Int { 6 * 64 }

  /// A slot's place in its bucket's list, and its exact deadline.
  @usableFromInline
  struct Link: Sendable {
    @usableFromInline var next: Int32 = -1
    @usableFromInline var previous: Int32 = -1
    @usableFromInline var deadline: Int64 = 0
    /// Level × 64 + index, or -1 when the slot has no timer.
    @usableFromInline var bucket: Int16 = -1

    @inlinable
    init() {}
  }

  /// Every tick before `elapsed` has been handed out.
  @usableFromInline var elapsed: Int64 = 0
  /// The first slot of each bucket's list (level × 64 + index, then the
  /// overflow list), or -1.
  @usableFromInline var heads = [Int32](repeating: -1, count: 6 * 64 + 1)
  /// When the first deadline of the overflow list comes within the wheel's
  /// reach: when `elapsed` enters its span of 64⁶ ticks.
  @usableFromInline var overflowReach: Int64?
  /// Which buckets of each level hold a list.
  @usableFromInline var occupied = [UInt64](repeating: 0, count: 6)
  /// Per slot number.
  @usableFromInline var links: [Link] = []
  @usableFromInline package private(set) var count = 0
  /// The earliest deadline, kept up to date, so that a send (which reads
  /// it) never scans a bucket.
  @usableFromInline package private(set) var earliestDeadline: Int64?

  @inlinable
  package init() {}

  @inlinable
  package static var followsEveryMove: Bool { false }

  @inlinable
  package mutating func arm(_ slot: Int, at deadline: Int64) {
    if slot >= links.count { links.append(contentsOf: repeatElement(Link(), count: slot &+ 1 &- links.count)) }
    let wasEarliest = links[slot].bucket >= 0 && contribution(of: slot) == earliestDeadline
    if links[slot].bucket >= 0 { unlink(slot) }
    links[slot].deadline = deadline
    link(slot)
    let added = contribution(of: slot)
    if wasEarliest {
      findEarliest()
    } else {
      earliestDeadline = earliestDeadline.map { Swift.min($0, added) } ?? added
    }
  }

  @inlinable
  package mutating func disarm(_ slot: Int, at deadline: Int64) {
    guard slot < links.count, links[slot].bucket >= 0 else { return }
    let wasEarliest = contribution(of: slot) == earliestDeadline
    unlink(slot)
    if wasEarliest { findEarliest() }
  }

  @inlinable
  package mutating func moveSlot(from old: Int, to new: Int, armedAt deadline: Int64?) {
    // `new` was dropped with no timer; `old` is the last slot.
    guard old < links.count else { return }
    if links[old].bucket >= 0 {
      links[new] = links[old]
      let (before, after) = (Int(links[new].previous), Int(links[new].next))
      if before >= 0 { links[before].next = Int32(truncatingIfNeeded: new) } else { heads[Int(links[new].bucket)] = Int32(truncatingIfNeeded: new) }
      if after >= 0 { links[after].previous = Int32(truncatingIfNeeded: new) }
    }
    links.removeLast(links.count &- old)
    if links.capacity > 256, links.count &* 4 < links.capacity { links = Array(links) }
  }

  @usableFromInline
  package mutating func popDue(at now: Int64, into due: inout [KeyedTimerEntry]) {
    let nowTick = Self.ticks(now)
    defer { findEarliest() }
    repeat {
      bucketLoop: while let (level, index, start) = nextBucket(), start <= nowTick {
        elapsed = Swift.max(elapsed, start)
        let bucket = level &* 64 &+ index
        var slot = Int(heads[bucket])
        heads[bucket] = -1
        occupied[level] &= ~(1 << UInt64(index))
        var waits = false
        while slot >= 0 {
          let following = Int(links[slot].next)
          count &-= 1
          links[slot].bucket = -1
          if level == 0, links[slot].deadline <= now {
            due.append(KeyedTimerEntry(deadline: links[slot].deadline, slot: slot))
          } else {
            // A later level's entry moves down; an entry of this tick not due yet waits in it.
            waits = waits || level == 0
            link(slot)
          }
          slot = following
        }
        if waits { break bucketLoop }
      }
      elapsed = Swift.max(elapsed, nowTick)
    } while placeOverflow(at: now)  // What came within reach may be due already.
  }

  @usableFromInline
  package mutating func rebuild(from live: [KeyedTimerEntry]) {
    // The wheel leaves nothing stale; the driver asks only after it renumbers slots (a bulk drop).
    self = TimerWheel()
    for entry in live { arm(Int(entry.slot), at: entry.deadline) }
  }

  // MARK: Buckets

  @inlinable
  static func ticks(_ nanoseconds: Int64) -> Int64 {
    nanoseconds >= 0 ? nanoseconds / tick : (nanoseconds &- tick &+ 1) / tick
  }

  /// Puts `slot` (its deadline set) in the bucket for its deadline as seen from `elapsed`.
  @inlinable
  mutating func link(_ slot: Int) {
    let tick = Swift.max(Self.ticks(links[slot].deadline), elapsed)
    let difference = UInt64(bitPattern: tick ^ elapsed)
    let level = difference == 0 ? 0 : (63 &- difference.leadingZeroBitCount) / 6
    let index = Int(truncatingIfNeeded: tick >> Int64(6 &* Swift.min(level, Self.levels))) & 63
    // Farther than the wheel reaches: the overflow list, until it comes within reach.
    let bucket = level < Self.levels ? level &* 64 &+ index : Self.overflow
    let head = heads[bucket]
    links[slot].next = head
    links[slot].previous = -1
    links[slot].bucket = Int16(truncatingIfNeeded: bucket)
    if head >= 0 { links[Int(head)].previous = Int32(truncatingIfNeeded: slot) }
    heads[bucket] = Int32(truncatingIfNeeded: slot)
    count &+= 1
    if bucket == Self.overflow {
      let reach = contribution(of: slot)
      overflowReach = overflowReach.map { Swift.min($0, reach) } ?? reach
    } else {
      occupied[level] |= 1 << UInt64(index)
    }
  }

  @inlinable
  mutating func unlink(_ slot: Int) {
    let bucket = Int(links[slot].bucket)
    let (before, after) = (links[slot].previous, links[slot].next)
    if before >= 0 { links[Int(before)].next = after } else { heads[bucket] = after }
    if after >= 0 { links[Int(after)].previous = before }
    if bucket == Self.overflow {
      if heads[bucket] < 0 { overflowReach = nil }  // Kept otherwise: an earlier reach only wakes the driver early.
    } else if heads[bucket] < 0 {
      occupied[bucket / 64] &= ~(1 << UInt64(bucket % 64))
    }
    links[slot].bucket = -1
    count &-= 1
  }

  /// The tick at which the bucket `index` of `level` starts, seen from `elapsed`.
  @inlinable
  func start(level: Int, index: Int) -> Int64 {
    let shift = Int64(6 &* level)
    let current = Int(truncatingIfNeeded: elapsed >> shift) & 63
    // Only the top level's farthest bucket lies behind the current one: it wraps round.
    let window = (elapsed >> (shift &+ 6)) &+ (index >= current ? 0 : 1)
    return ((window << 6) | Int64(index)) << shift
  }

  /// The first bucket that holds a list, with the tick at which it starts.
  @inlinable
  func nextBucket() -> (level: Int, index: Int, start: Int64)? {
    for level in 0..<Self.levels where occupied[level] != 0 {
      let current = Int(truncatingIfNeeded: elapsed >> Int64(6 &* level)) & 63
      let ahead = occupied[level] & (~0 << UInt64(current))
      let index = (ahead != 0 ? ahead : occupied[level]).trailingZeroBitCount
      return (level, index, start(level: level, index: index))
    }
    return nil
  }

  /// What `slot` adds to the earliest deadline: its exact deadline in the
  /// first level, else the instant its bucket moves down (the driver fires
  /// then, early, and is asked again).
  @inlinable
  func contribution(of slot: Int) -> Int64 {
    let bucket = Int(links[slot].bucket)
    guard bucket >= 64 else { return links[slot].deadline }
    // The overflow list is placed again when its deadline comes within reach.
    guard bucket != Self.overflow else { return (Self.ticks(links[slot].deadline) >> 36) << 36 &* Self.tick }
    return start(level: bucket / 64, index: bucket % 64) &* Self.tick
  }

  /// Finds the earliest deadline again: in the first bucket that holds a list.
  @usableFromInline
  mutating func findEarliest() {
    earliestDeadline = overflowReach
    guard let (level, index, start) = nextBucket() else { return }
    var earliest = Int64.max
    if level == 0 {
      var slot = Int(heads[index])
      while slot >= 0 {
        earliest = Swift.min(earliest, links[slot].deadline)
        slot = Int(links[slot].next)
      }
    } else {
      earliest = start &* Self.tick
    }
    earliestDeadline = earliestDeadline.map { Swift.min($0, earliest) } ?? earliest
  }

  /// Places the overflow list again, once its earliest deadline is within
  /// reach; returns whether any of it went into the wheel.
  @usableFromInline
  mutating func placeOverflow(at now: Int64) -> Bool {
    guard let reach = overflowReach, reach <= now else { return false }
    var slot = Int(heads[Self.overflow])
    (heads[Self.overflow], overflowReach) = (-1, nil)
    var placed = false
    while slot >= 0 {
      let following = Int(links[slot].next)
      count &-= 1
      link(slot)  // In the wheel now, or in the overflow list again.
      placed = placed || links[slot].bucket != Self.overflow
      slot = following
    }
    return placed
  }
}
