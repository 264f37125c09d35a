//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Runs a pacer's `async` handler for each value the policy emits, as the
/// pacer's ``OnBusy`` answer says when the handler still runs for an earlier
/// value: ``OnBusyStateMachine`` decides, this does.
///
/// The pacer's own handler only hands values in (it never waits), so a
/// slow handler never holds back the policy's timing; each handler call runs
/// in a task of its own, on the handler's isolation.
package final class AsyncHandlerRunner<Value: Sendable>: Sendable {
  /// Calls the handler; false when its owner is gone, which ends the runner.
  package typealias Call = @Sendable (Value) async -> Bool

  private let state: LockedState<WorkRunner<Value, Void>>
  /// What one request runs: the handler call, and the end of the runner
  /// when its owner is gone. Made once, so that a request allocates no
  /// closure of its own.
  private let work: @Sendable (Value) async throws -> Void

  package init(onBusy: OnBusy, call: @escaping Call) {
    let state = LockedState(WorkRunner<Value, Void>(onBusy: onBusy))
    self.state = state
    work = { value in
      if await !call(value) { Self.shutDown(state) }
    }
  }

  /// Whether a handler call runs.
  var isBusy: Bool {
    state.withLock { $0.isRunning }
  }

  /// Returns once `count` calls have ended; for tests.
  package func waitUntil(ended count: Int) async {
    await state.waitUntil(ended: count)
  }

  /// The pacer emitted `value`: it runs, waits or is dropped, as the on-busy policy says.
  package func requested(_ value: Value) {
    // Not on this thread: a value is handed in on the timer's thread, which must not run the handler.
    state.perform(state.withLock { $0.requested(value) }, in: \.self, immediately: false, work: work)
  }

  /// The pacer is gone: the running call is cancelled, the waiting one dropped, later ones never run.
  func shutDown() {
    Self.shutDown(state)
  }

  private static func shutDown(_ state: LockedState<WorkRunner<Value, Void>>) {
    // Nothing starts after a shut down: the work is never called.
    state.perform(state.withLock { $0.cancelAll(shutDown: true) }, in: \.self, immediately: false) { _ in }
  }
}

final class AsyncHandlerLifetime<Value: Sendable>: Sendable {
  let runner: AsyncHandlerRunner<Value>

  init(_ runner: AsyncHandlerRunner<Value>) {
    self.runner = runner
  }

  deinit {
    runner.shutDown()
  }
}
