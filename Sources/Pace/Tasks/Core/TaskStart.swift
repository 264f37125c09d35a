//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

extension LockedState {
  /// Starts `work` in a task, then hands the task to `attach` under the
  /// lock; when `attach` answers false (its execution lost or ended while
  /// the task was being created) the task is cancelled at once.
  ///
  /// The one home of the start race of every task type: a task is created
  /// outside the lock (it may run at once, and end, before `attach`), so a
  /// caller that loses in between is answered by whoever took it out, and
  /// the task by this.
  ///
  /// - Parameters:
  ///   - immediately: Run `work` on this thread until it first suspends,
  ///     where the platform allows (`Task.immediate`); false on a timer's
  ///     thread, which must not run user code.
  ///   - work: The task's body. Generic, as `Task`'s own is: a closure
  ///     literal is formed with the representation `Task` takes, where a
  ///     concrete `() async throws -> Void` would be converted to it by a
  ///     thunk, at the cost of an allocation per start.
  ///   - attach: Stores the task in the state, or answers false.
  @inlinable
  package func startTask<Success>(
    immediately: Bool = true,
    _ work: sending @escaping @isolated(any) () async throws -> Success,
    attach: (inout State, Task<Success, any Error>) -> Bool
  ) {
    startTask(immediately: immediately, work) { state, task in (attach(&state, task), ()) }
  }

  /// ``startTask(immediately:_:attach:)``, where `attach` also returns what
  /// the caller needs after the lock.
  @inlinable
  package func startTask<Success, Outcome>(
    immediately: Bool = true,
    _ work: sending @escaping @isolated(any) () async throws -> Success,
    attach: (inout State, Task<Success, any Error>) -> (isKept: Bool, outcome: Outcome)
  ) -> Outcome {
    let task = Pace.startTask(immediately: immediately, work)
    let (isKept, outcome) = withLock { attach(&$0, task) }
    if !isKept { task.cancel() }
    return outcome
  }
}
