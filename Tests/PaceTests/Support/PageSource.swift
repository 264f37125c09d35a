//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// A page loader whose every call waits, ignoring cancellation, until the
/// test answers it; calls are numbered from 0 in the order they arrive. An
/// answer may come before its call does: the call then returns it at once.
final class PageSource: Sendable {
  typealias Answer = Result<Page<String, Int>, any Error>

  private struct Call {
    let cursor: Int?
    var continuation: CheckedContinuation<Answer, Never>?
    var isCancelled = false
  }

  private struct State {
    var calls: [Call] = []
    /// The answers given, by call number, whether or not the call has come.
    var answers: [Int: Answer] = [:]
    var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = LockedState(State())

  /// The cursor of every call so far, in order.
  var cursors: [Int?] { state.withLock { $0.calls.map(\.cursor) } }

  /// Whether the task of call `number` has been cancelled.
  func isCancelled(_ number: Int) -> Bool { state.withLock { $0.calls[number].isCancelled } }

  /// The loader: waits for the test's answer, even when cancelled.
  @Sendable func load(_ cursor: Int?) async throws -> Page<String, Int> {
    let (number, arrived) = state.withLock { state in
      state.calls.append(Call(cursor: cursor))
      let arrived = state.arrivalWaiters.filter { $0.count <= state.calls.count }.map(\.continuation)
      state.arrivalWaiters.removeAll { $0.count <= state.calls.count }
      return (state.calls.count - 1, arrived)
    }
    for waiter in arrived { waiter.resume() }
    let answer = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
        let answered = state.withLock { state -> Answer? in
          if state.answers[number] == nil { state.calls[number].continuation = continuation }
          return state.answers[number]
        }
        if let answered { continuation.resume(returning: answered) }
      }
    } onCancel: {
      state.withLock { $0.calls[number].isCancelled = true }
    }
    return try answer.get()
  }

  /// Returns once `count` calls have arrived.
  func requested(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let arrived = state.withLock { state in
        guard state.calls.count < count else { return true }
        state.arrivalWaiters.append((count, continuation))
        return false
      }
      if arrived { continuation.resume() }
    }
  }

  /// Call `number` returns `items`, followed by the page at `next`.
  func answer(_ number: Int, _ items: [String], next: Int?) {
    respond(number, .success(Page(items: items, next: next)))
  }

  /// Call `number` throws `error`.
  func fail(_ number: Int, with error: any Error) {
    respond(number, .failure(error))
  }

  private func respond(_ number: Int, _ answer: Answer) {
    let continuation = state.withLock { state -> CheckedContinuation<Answer, Never>? in
      state.answers[number] = answer
      guard state.calls.indices.contains(number) else { return nil }  // It will find its answer.
      defer { state.calls[number].continuation = nil }
      return state.calls[number].continuation
    }
    continuation?.resume(returning: answer)
  }
}
