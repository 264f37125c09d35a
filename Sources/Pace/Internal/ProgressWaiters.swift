//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Tasks that wait until their owner's progress meets a condition: the one
/// way a test of any task type, sequence or view model waits until work has
/// settled ("three calls came", "every search ended"), with no sleep.
///
/// The owner keeps it beside its state and, after each change that a
/// condition may read, takes the reached waiters out and resumes them after
/// its lock.
@usableFromInline
package struct ProgressWaiters<Progress> {
  @usableFromInline
  struct Entry {
    @usableFromInline let id: UInt64
    @usableFromInline let condition: @Sendable (Progress) -> Bool
    @usableFromInline let continuation: CheckedContinuation<Void, Never>
  }

  @usableFromInline var entries: [Entry] = []
  @usableFromInline var lastID: UInt64 = 0

  @inlinable
  package init() {}

  /// Whether no task waits: the owner skips building its progress then.
  @inlinable
  package var isEmpty: Bool { entries.isEmpty }

  /// The waiters whose condition `progress` meets, taken out.
  @inlinable
  package mutating func takeReached(_ progress: Progress) -> [CheckedContinuation<Void, Never>] {
    var reached: [CheckedContinuation<Void, Never>] = []
    entries.removeAll { entry in
      guard entry.condition(progress) else { return false }
      reached.append(entry.continuation)
      return true
    }
    return reached
  }

  /// Every waiter, taken out: nothing more will happen (the owner ended).
  package mutating func takeAll() -> [CheckedContinuation<Void, Never>] {
    defer { entries = [] }
    return entries.map(\.continuation)
  }

  /// A number for the next waiter, so that its cancellation finds it.
  package mutating func nextID() -> UInt64 {
    lastID &+= 1
    return lastID
  }

  /// Keeps a waiter, or resumes it at once when `progress` meets it already.
  package mutating func add(
    id: UInt64, _ condition: @escaping @Sendable (Progress) -> Bool, progress: Progress,
    continuation: CheckedContinuation<Void, Never>
  ) -> Bool {
    guard !condition(progress) else { return false }
    entries.append(Entry(id: id, condition: condition, continuation: continuation))
    return true
  }

  /// Takes out the waiter `id`, if it still waits.
  package mutating func remove(id: UInt64) -> CheckedContinuation<Void, Never>? {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
    return entries.remove(at: index).continuation
  }
}

extension ProgressWaiters: Sendable {}
extension ProgressWaiters.Entry: Sendable {}

extension LockedState {
  /// Returns once `condition` holds for the progress that `progress` reads
  /// from the state; the state's `waiters` keeps the waiting task until its
  /// owner finds it reached. A cancelled waiter returns at once.
  package func wait<Progress>(
    in waiters: any WritableKeyPath<State, ProgressWaiters<Progress>> & Sendable,
    until condition: @escaping @Sendable (Progress) -> Bool,
    now progress: @Sendable (State) -> Progress
  ) async {
    let id = withLock { $0[keyPath: waiters].nextID() }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let kept = withLock { state in
          // A waiter cancelled before it is kept reads the flag here, under the lock its handler takes.
          !Task.isCancelled
            && state[keyPath: waiters].add(id: id, condition, progress: progress(state), continuation: continuation)
        }
        if !kept { continuation.resume() }
      }
    } onCancel: {
      withLock { $0[keyPath: waiters].remove(id: id) }?.resume()
    }
  }
}
