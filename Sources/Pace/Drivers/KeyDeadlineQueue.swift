//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The keys' deadlines in the order they are due, for ``KeyedPacingRunner``:
/// a ``MinHeap`` of (deadline, order, key), generic over the instant (a
/// replay's or a marble's, not only the drivers' nanoseconds).
///
/// It keeps no place per key: an entry that no longer stands for its key's
/// deadline stays until it comes to the top, where the runner discards it
/// or queues the key again (its deadline moved later). `order` breaks ties
/// between equal deadlines, and tells a key's current entry from its stale ones.
@usableFromInline
typealias KeyDeadlineQueue<Key, Instant: InstantProtocol> = MinHeap<KeyDeadline<Key, Instant>>

/// One entry of a ``KeyDeadlineQueue``.
@usableFromInline
struct KeyDeadline<Key, Instant: InstantProtocol>: MinHeapElement {
  @usableFromInline var deadline: Instant
  @usableFromInline var order: UInt64
  @usableFromInline var key: Key

  @inlinable
  init(deadline: Instant, order: UInt64, key: Key) {
    self.deadline = deadline
    self.order = order
    self.key = key
  }

  /// The earlier deadline comes first; at equal deadlines, the one queued first.
  @inlinable
  func comesBefore(_ other: KeyDeadline) -> Bool {
    deadline < other.deadline || (deadline == other.deadline && order < other.order)
  }
}
