//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

// The article's latest-wins search, made callable: a stored `Task`, cancelled
// on each call, and a check of `Task.isCancelled` before the result counts.
// Written as its users write it (Swift 5 mode, a class on the main actor in
// the article; here on no actor, so that the benchmark measures the pattern,
// not a hop).

public final class StoredTaskLatest<Value> {
  private var task: Task<Value, Error>?

  public init() {}

  /// Cancels the previous call's task, runs `operation` in a new one, and
  /// returns its result unless a newer call cancelled it.
  public func run(_ operation: @escaping () async throws -> Value) async throws -> Value {
    task?.cancel()
    let task = Task { try await operation() }
    self.task = task
    let value = try await task.value
    guard !task.isCancelled else { throw CancellationError() }
    return value
  }
}
