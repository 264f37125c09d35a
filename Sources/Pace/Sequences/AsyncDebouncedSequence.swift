//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits an element only once things settle: the last element of each burst,
  /// optionally also the first, and at least every `maxWait` while a burst goes on.
  ///
  ///     base:       abcd----e---f-g-|
  ///     debounced:  ------d----e----[g|]      (interval: 3 steps)
  ///
  /// ```swift
  /// for await query in try searchField.texts.debounced(for: .milliseconds(300)) {
  ///   await search(query)
  /// }
  /// ```
  ///
  /// When the base finishes, a pending element is emitted at once, then the
  /// finish. When it fails, a pending element is dropped and the error is
  /// thrown. Cancelling the consuming task ends the sequence, cancels its timer
  /// and stops consuming the base. The timing is ``DebounceStateMachine``'s.
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst.
  ///   - leading: Emit the element that starts a burst at once.
  ///   - trailing: Emit the latest element when the burst ends.
  ///   - maxWait: The longest an element waits while a burst goes on, if any.
  ///   - clock: The clock that measures the interval.
  /// - Throws: ``PacingConfigurationError`` for options that could never emit
  ///   or a negative duration.
  public func debounced<C: Clock>(
    for interval: Duration,
    leading: Bool = false,
    trailing: Bool = true,
    maxWait: Duration? = nil,
    clock: C
  ) throws(PacingConfigurationError) -> AsyncDebouncedSequence<Self, C> where C.Duration == Duration {
    AsyncDebouncedSequence(
      base: self,
      machine: try DebounceStateMachine(
        interval: DriverDuration(interval), leading: leading, trailing: trailing,
        maxWait: maxWait.map(DriverDuration.init)),
      clock: clock)
  }

  /// Emits an element only once things settle, measured on the continuous clock;
  /// see ``debounced(for:leading:trailing:maxWait:clock:)``.
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst.
  ///   - leading: Emit the element that starts a burst at once.
  ///   - trailing: Emit the latest element when the burst ends.
  ///   - maxWait: The longest an element waits while a burst goes on, if any.
  /// - Throws: ``PacingConfigurationError`` for options that could never emit
  ///   or a negative duration.
  public func debounced(
    for interval: Duration,
    leading: Bool = false,
    trailing: Bool = true,
    maxWait: Duration? = nil
  ) throws(PacingConfigurationError) -> AsyncDebouncedSequence<Self, ContinuousClock> {
    try debounced(for: interval, leading: leading, trailing: trailing, maxWait: maxWait, clock: ContinuousClock())
  }
}

/// An asynchronous sequence that emits its base's elements once things settle;
/// created by `debounced(for:leading:trailing:maxWait:clock:)`.
public struct AsyncDebouncedSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable, C.Duration == Duration {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure
  @usableFromInline typealias Machine = DebounceStateMachine<Element, DriverInstant>

  let base: Base
  let machine: Machine
  let clock: C

  init(base: Base, machine: Machine, clock: C) {
    self.base = base
    self.machine = machine
    self.clock = clock
  }

  public func makeAsyncIterator() -> Iterator {
    Iterator(
      lifetime: PacedSequenceLifetime(
        storage: PacedSequenceStorage(base: base, machine: machine, clock: makeDriverClock(clock))))
  }

  /// The iterator of a debounced sequence.
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

    /// Not API: returns once the policy has handled `count` upstream events.
    @_spi(Testing)
    public func _waitUntilUpstreamEventsHandled(_ count: Int) async {
      await lifetime.storage.waitUntilUpstreamEventsHandled(count)
    }

    /// Not API: whether `next()` would return without suspending.
    @_spi(Testing)
    public func _hasOutput() -> Bool {
      lifetime.storage.hasOutput()
    }
  }
}

@available(*, unavailable)
extension AsyncDebouncedSequence.Iterator: Sendable {}
