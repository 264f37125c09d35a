//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

// The single-flight guard users write by hand: an actor with a dictionary of
// in-flight tasks; a caller joins the task for its key, or starts one and
// removes it (by key) when it ends.

public actor TaskDictionarySingleFlight<Key: Hashable, Value> {
  private var inFlight: [Key: Task<Value, Error>] = [:]

  public init() {}

  public func run(key: Key, _ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
    if let task = inFlight[key] {
      return try await task.value
    }
    let task = Task { try await operation() }
    inFlight[key] = task
    defer { inFlight[key] = nil }
    return try await task.value
  }
}
