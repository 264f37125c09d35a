//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// An asynchronous sequence of the results of an asynchronous transform of
/// its base's elements, where a newer element cancels the work on an older
/// one: only results that nothing superseded come out; created by
/// `mapLatest(_:)`.
///
///     for try await results in queries.mapLatest({ query in try await api.search(query) }) {
///       show(results)    // never the results of a query typed over
///     }
///
/// The base is consumed eagerly by a task of its own, and each element's
/// operation runs in a task of its own; the results come out one at a time,
/// and a result the consumer has not taken yet is superseded by a newer
/// element too. When the base finishes, the running operation completes and
/// its result comes out before the finish; when it fails, the running
/// operation is cancelled and its result dropped, then the base's error is
/// thrown. When the transform throws, the sequence throws that error and
/// stops consuming the base. Cancelling the consuming task, or dropping the
/// iterator, ends the sequence (`next()` returns `nil`) and cancels the
/// running operation and the consumption of the base.
public struct AsyncMapLatestSequence<Base: AsyncSequence & Sendable, Transformed: Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  public typealias Element = Transformed
  public typealias Failure = any Error

  @usableFromInline let base: Base
  @usableFromInline let transform: @Sendable @isolated(any) (Base.Element) async throws -> Transformed

  init(base: Base, transform: @escaping @Sendable @isolated(any) (Base.Element) async throws -> Transformed) {
    self.base = base
    self.transform = transform
  }

  /// Creates an iterator; each iterator consumes the base on its own.
  public func makeAsyncIterator() -> Iterator {
    Iterator(lifetime: MapLatestLifetime(storage: MapLatestStorage(base: base, transform: transform)))
  }

  /// The iterator of a map-latest sequence.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let lifetime: MapLatestLifetime<Base, Transformed>

    @usableFromInline
    init(lifetime: MapLatestLifetime<Base, Transformed>) {
      self.lifetime = lifetime
    }

    /// The next result that no newer element superseded, or `nil` at the end
    /// or on cancellation.
    ///
    /// - Throws: The base's error, or the transform's.
    @inlinable
    public mutating func next() async throws -> Transformed? {
      try await lifetime.storage.next()
    }

    /// The next result that no newer element superseded, or `nil` at the end
    /// or on cancellation.
    ///
    /// - Throws: The base's error, or the transform's.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Transformed? {
      try await lifetime.storage.next()
    }

    /// Returns once `condition` holds for the sequence's progress, once the
    /// sequence is cancelled, or once the waiting task is; for the marble
    /// runner and the tests. Starts consuming the base.
    package func waitUntil(_ condition: @escaping @Sendable (MapLatestProgress) -> Bool) async {
      await lifetime.storage.waitUntil(condition)
    }

    /// Whether `next()` would return without suspending; for the marble runner.
    package func hasOutput() -> Bool {
      lifetime.storage.hasOutput()
    }
  }
}

@available(*, unavailable)
extension AsyncMapLatestSequence.Iterator: Sendable {}
