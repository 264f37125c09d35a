//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits at most one element per interval: the first at once, then the
  /// latest element of each interval when it ends.
  ///
  ///     base:       abcdefghijk|
  ///     throttled:  a--d--g--j--[k|]      (interval: 3 steps)
  ///
  /// ```swift
  /// for await fraction in try download.progress.throttled(for: .milliseconds(100)) {
  ///   progressBar.value = fraction
  /// }
  /// ```
  ///
  /// Elements are always at least `interval` apart. When the base finishes with
  /// an element pending, the finish waits for the interval to end and comes
  /// right after that element; with nothing pending it passes at once. When the
  /// base fails, a pending element is dropped and the error is thrown.
  /// Cancelling the consuming task ends the sequence, cancels its timer and
  /// stops consuming the base. The timing is ``ThrottleStateMachine``'s.
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two elements.
  ///   - leading: Emit an element that arrives while idle at once.
  ///   - trailing: Emit an interval's latest element when it ends.
  ///   - clock: The clock that measures the interval.
  /// - Throws: ``PacingConfigurationError`` for options that could never emit
  ///   or a negative interval.
  public func throttled<C: Clock>(
    for interval: Duration,
    leading: Bool = true,
    trailing: Bool = true,
    clock: C
  ) throws(PacingConfigurationError) -> AsyncThrottledSequence<Self, C> where C.Duration == Duration {
    AsyncThrottledSequence(
      base: self,
      machine: try ThrottleStateMachine(interval: DriverDuration(interval), leading: leading, trailing: trailing),
      clock: clock)
  }

  /// Emits at most one element per interval, measured on the continuous clock;
  /// see ``throttled(for:leading:trailing:clock:)``.
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two elements.
  ///   - leading: Emit an element that arrives while idle at once.
  ///   - trailing: Emit an interval's latest element when it ends.
  /// - Throws: ``PacingConfigurationError`` for options that could never emit
  ///   or a negative interval.
  public func throttled(
    for interval: Duration,
    leading: Bool = true,
    trailing: Bool = true
  ) throws(PacingConfigurationError) -> AsyncThrottledSequence<Self, ContinuousClock> {
    try throttled(for: interval, leading: leading, trailing: trailing, clock: ContinuousClock())
  }
}

/// An asynchronous sequence that emits at most one of its base's elements per
/// interval; created by `throttled(for:leading:trailing:clock:)`.
public struct AsyncThrottledSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable, C.Duration == Duration {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure
  @usableFromInline typealias Machine = ThrottleStateMachine<Element, DriverInstant>

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

  /// The iterator of a throttled sequence.
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
extension AsyncThrottledSequence.Iterator: Sendable {}
