//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The result of a call: its value or whether it was cancelled.
enum Outcome<Value: Sendable & Equatable>: Sendable, Equatable {
  case value(Value)
  case cancelled
  case failed(String)

  init(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value) async {
    do {
      self = .value(try await body())
    } catch is CancellationError {
      self = .cancelled
    } catch {
      self = .failed("\(error)")
    }
  }
}
