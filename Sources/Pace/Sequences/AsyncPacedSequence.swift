//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// An asynchronous sequence that emits what a policy lets through of its
/// base, when it lets it through; created by `debounced(for:edges:clock:)`,
/// `throttled(for:edges:clock:)` and `paced(by:clock:)`.
///
///     for await query in searchTexts.paced(by: .distinct(), .debounce(for: .milliseconds(300))) {
///       await showResults(for: query)
///     }
///
/// When the base finishes, the policy's finish rule applies (nothing pending is
/// lost); when it fails, a pending element is dropped and the base's error is
/// thrown, with its own type. Cancelling the consuming task, or dropping the
/// iterator, ends the sequence, cancels its timer and stops consuming the base.
public struct AsyncPacedSequence<Base: AsyncSequence & Sendable, Machine: PacingStateMachine & Sendable>: AsyncSequence,
  Sendable
where Base.Element: Sendable, Machine.Value == Base.Element, Machine.Instant == DriverInstant {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  let base: Base
  let machine: Machine
  let makeScheduler: @Sendable () -> TimerScheduler

  init<C: Clock>(base: Base, machine: Machine, clock: C) where C.Duration == Duration, C: Sendable {
    self.base = base
    self.machine = machine
    self.makeScheduler = { makeTimerScheduler(clock) }
  }

  public func makeAsyncIterator() -> Iterator {
    Iterator(
      lifetime: PacedSequenceLifetime(
        storage: PacedSequenceStorage(base: base, machine: machine, scheduler: makeScheduler())))
  }

  /// The iterator of a paced sequence.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let lifetime: PacedSequenceLifetime<Base, Machine>

    @usableFromInline
    init(lifetime: PacedSequenceLifetime<Base, Machine>) {
      self.lifetime = lifetime
    }

    /// The next element once it is due, or `nil` at the end or on cancellation.
    @inlinable
    public mutating func next() async throws -> Element? {
      try await lifetime.storage.next().get()
    }

    /// The next element once it is due, or `nil` at the end or on cancellation.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      try await lifetime.storage.next().get()
    }

    /// Returns once the policy has handled `count` upstream events; for the
    /// marble runner.
    package func waitUntil(upstreamEventsHandled count: Int) async {
      await lifetime.storage.waitUntil(upstreamEventsHandled: count)
    }

    /// Whether `next()` would return without suspending; for the marble runner.
    package func hasOutput() -> Bool {
      lifetime.storage.hasOutput()
    }
  }
}

@available(*, unavailable)
extension AsyncPacedSequence.Iterator: Sendable {}
