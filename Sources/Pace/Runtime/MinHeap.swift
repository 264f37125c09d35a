//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// What a ``MinHeap`` orders: whether one element comes before another.
@usableFromInline
package protocol MinHeapElement {
  func comesBefore(_ other: Self) -> Bool
}

/// A binary min-heap with no index: the one heap under every lazy deadline
/// queue (a keyed driver's ``LazyTimerHeap``, the ``KeyedPacingRunner``'s
/// key deadlines), whose users leave stale entries in it and skip them when
/// they come to the top. (``TimerHeap`` keeps each key's place, to move and
/// disarm timers in place; it is the kernel timer thread's.)
///
///     var heap = MinHeap<KeyedTimerEntry>()
///     heap.insert(KeyedTimerEntry(deadline: 30, slot: 1))
///     heap.insert(KeyedTimerEntry(deadline: 10, slot: 2))
///     heap.removeFirst().slot  // 2
@usableFromInline
package struct MinHeap<Element: MinHeapElement> {
  /// The heap: every element comes before its children or ties with them.
  @usableFromInline package private(set) var elements: [Element] = []

  @inlinable
  package init() {}

  /// The element that comes first, if any.
  @inlinable
  package var first: Element? { elements.first }

  @inlinable
  package var count: Int { elements.count }

  @inlinable
  package var isEmpty: Bool { elements.isEmpty }

  @inlinable
  package mutating func insert(_ element: Element) {
    elements.append(element)
    var child = elements.count &- 1
    while child > 0 {
      let parent = (child &- 1) >> 1
      guard element.comesBefore(elements[parent]) else { break }
      elements[child] = elements[parent]
      child = parent
    }
    elements[child] = element
  }

  /// Removes the element that comes first; the heap must not be empty. An
  /// emptied heap gives its memory back beyond a small capacity.
  @inlinable @discardableResult
  package mutating func removeFirst() -> Element {
    let first = elements[0]
    let last = elements.removeLast()
    if elements.isEmpty {
      if elements.capacity > TimerHeap<Int, Void>.retainedCapacity { elements = [] }
      return first
    }
    // The last element goes down from the root to where it belongs.
    let count = elements.count
    var parent = 0
    while true {
      let left = 2 &* parent &+ 1
      guard left < count else { break }
      let right = left &+ 1
      let earlier = right < count && elements[right].comesBefore(elements[left]) ? right : left
      guard elements[earlier].comesBefore(last) else { break }
      elements[parent] = elements[earlier]
      parent = earlier
    }
    elements[parent] = last
    return first
  }

  /// Replaces every element with `elements` (a sorted array is a heap).
  @inlinable
  package mutating func replaceAll(with elements: [Element]) {
    self.elements = elements.sorted { $0.comesBefore($1) }
  }
}

extension MinHeap: Sendable where Element: Sendable {}
