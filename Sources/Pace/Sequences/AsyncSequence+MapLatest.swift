//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Transforms each element with an asynchronous operation, cancelling the
  /// operation before when a newer element arrives: only results that no
  /// newer element superseded come out.
  ///
  ///     base:       a-b-----c---|
  ///     mapLatest:  -----B-----C|        (each operation takes 3 steps, and uppercases)
  ///
  /// ```swift
  /// for try await results in searchField.texts.mapLatest({ query in try await api.search(query) }) {
  ///   show(results)    // never the results of a query the user has typed over
  /// }
  /// ```
  ///
  /// Which operation is the latest is decided by the order the elements came
  /// in, never by comparing them; a superseded operation is cancelled, and
  /// its result, even when it ignores cancellation and returns anyway, never
  /// comes out, nor does its error.
  ///
  /// - Backpressure: the base is consumed eagerly, by a task of its own, so
  ///   that a newer element can cancel older work while the consumer waits.
  ///   Results come out one at a time; a result that the consumer has not
  ///   taken yet is superseded by a newer element, like a running operation.
  /// - Finish: when the base finishes, the running operation completes and
  ///   its result comes out, then the sequence finishes.
  /// - Failure: when the base fails, the running operation is cancelled and
  ///   its result dropped, then the base's error is thrown (a result already
  ///   out of its operation comes first). When the transform throws, unless
  ///   its operation was superseded, the sequence throws that error, ends,
  ///   and stops consuming the base.
  /// - The finish and the errors come only once every operation started has
  ///   ended, superseded ones too: no operation of a sequence that has ended
  ///   still runs. A superseded operation that ignores cancellation delays
  ///   the end until it returns.
  /// - Cancellation: cancelling the consuming task, or dropping the iterator,
  ///   ends the sequence at once: `next()` returns `nil`, as a paced sequence
  ///   does, and the running operation and the consumption of the base are
  ///   cancelled.
  ///
  /// Each operation runs in a task of its own, started with `Task.immediate`
  /// where the platform has it: it runs on the base's task until it first
  /// suspends, so an operation that returns without suspending costs no
  /// thread hop. It runs on the transform's isolation: a closure marked
  /// `@MainActor` runs on the main actor; an unmarked one on no actor.
  ///
  /// - Parameter transform: The operation on each element. It should stop
  ///   when its task is cancelled (superseded); its errors end the sequence.
  /// - Returns: The results of the operations that no newer element superseded.
  public func mapLatest<Transformed: Sendable>(
    _ transform: @escaping @Sendable @isolated(any) (Element) async throws -> Transformed
  ) -> AsyncMapLatestSequence<Self, Transformed> {
    AsyncMapLatestSequence(base: self, transform: transform)
  }
}
