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
  /// for await query in searchField.texts.debounced(for: .milliseconds(300)) {
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
  ///   - interval: The quiet period that ends a burst; a negative one counts as zero.
  ///   - edges: Which elements of a burst are emitted: the last by default.
  ///   - clock: The clock that measures the interval; the continuous clock by default.
  public func debounced<C: Clock & Sendable>(
    for interval: Duration, edges: DebounceEdges<Duration> = .default, clock: C = ContinuousClock()
  ) -> AsyncPacedSequence<Self, DebounceStateMachine<Element, DriverInstant>> where C.Duration == Duration {
    AsyncPacedSequence(
      base: self,
      machine: DebounceStateMachine(interval: DriverDuration(interval), edges: edges.map(DriverDuration.init)),
      clock: clock)
  }

  /// Emits at most one element per interval: the first at once, then the
  /// latest element of each interval when it ends.
  ///
  ///     base:       abcdefghijk|
  ///     throttled:  a--d--g--j--[k|]      (interval: 3 steps)
  ///
  /// ```swift
  /// for await fraction in download.progress.throttled(for: .milliseconds(100)) {
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
  ///   - interval: The shortest time between two elements; a negative one counts as zero.
  ///   - edges: Which elements are emitted: leading and trailing by default.
  ///   - clock: The clock that measures the interval; the continuous clock by default.
  public func throttled<C: Clock & Sendable>(
    for interval: Duration, edges: ThrottleEdges = .default, clock: C = ContinuousClock()
  ) -> AsyncPacedSequence<Self, ThrottleStateMachine<Element, DriverInstant>> where C.Duration == Duration {
    AsyncPacedSequence(
      base: self, machine: ThrottleStateMachine(interval: DriverDuration(interval), edges: edges), clock: clock)
  }

  /// Runs the elements through a chain of stages, each feeding the next, with
  /// the timing contract's semantics.
  ///
  ///     base:                            aab-a--bb|
  ///     distinct, debounce 2:            ------a--[b|]
  ///
  /// ```swift
  /// for await query in texts.paced(by: .filter { !$0.isEmpty }, .distinct(), .debounce(for: .milliseconds(300))) {
  ///   await search(query)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - stages: The stages, left to right.
  ///   - clock: The clock that measures their durations; the continuous clock by default.
  public func paced<C: Clock & Sendable>(
    by stages: PacingStage<Element>..., clock: C = ContinuousClock()
  ) -> AsyncPacedSequence<Self, PacingPipeline<Element, DriverInstant>> where C.Duration == Duration {
    AsyncPacedSequence(
      base: self, machine: PacingPipeline(stages: stages, converting: DriverDuration.init), clock: clock)
  }

  /// Runs the elements through a chain of stages given as an array (built at
  /// run time, for instance parsed from text); see ``paced(by:clock:)-(PacingStage<Element>...,_)``.
  ///
  /// - Parameters:
  ///   - stages: The stages, left to right.
  ///   - clock: The clock that measures their durations; the continuous clock by default.
  public func paced<C: Clock & Sendable>(
    by stages: [PacingStage<Element>], clock: C = ContinuousClock()
  ) -> AsyncPacedSequence<Self, PacingPipeline<Element, DriverInstant>> where C.Duration == Duration {
    AsyncPacedSequence(
      base: self, machine: PacingPipeline(stages: stages, converting: DriverDuration.init), clock: clock)
  }

  /// Runs the elements through a policy of your own.
  ///
  ///     // SampleStateMachine: a policy you write (the README's "Chaining stages" shows one).
  ///     let paced = events.paced(by: SampleStateMachine(interval: .milliseconds(300)))
  ///
  /// A policy generic over its instant, like Pace's own, is written with
  /// ``DriverDuration``'s `.milliseconds(_:)` and its kin; the driver's instant
  /// type is inferred.
  ///
  /// - Parameters:
  ///   - machine: The policy, any ``PacingStateMachine`` on a driver's instants.
  ///   - clock: The clock that measures time; the continuous clock by default.
  public func paced<Machine: PacingStateMachine & Sendable, C: Clock & Sendable>(
    by machine: Machine, clock: C = ContinuousClock()
  ) -> AsyncPacedSequence<Self, Machine>
  where C.Duration == Duration, Machine.Value == Element, Machine.Instant == DriverInstant {
    AsyncPacedSequence(base: self, machine: machine, clock: clock)
  }
}
