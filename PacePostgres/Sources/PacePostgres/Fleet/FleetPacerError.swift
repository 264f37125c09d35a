//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import PostgresNIO

/// Why a fleet pacer could not send, or could not start its worker.
///
/// A send that throws was not recorded, or (when the connection broke after
/// its commit) may have been: sends are not idempotent, so a retry may count
/// twice.
public struct FleetPacerError: Error, CustomStringConvertible, Sendable {
  /// What went wrong, in one line.
  public var description: String
  /// The database client's error, as it describes itself in full.
  public var underlying: String

  init(namespace: PaceNamespace, pacer: String, doing: String, error: any Error) {
    let reason: String
    if let error = error as? PSQLError {
      if let message = error.serverInfo?[.message] {
        reason = "PostgreSQL refused: \(message)"
      } else {
        reason = "PostgreSQL did not answer (\(error.code))"
      }
    } else if let timeout = error as? AnswerTimeout {
      reason = timeout.reason
    } else {
      reason = "PostgreSQL did not answer (\(error))"
    }
    description = "Pace fleet pacer \(namespace.name).\(pacer) could not \(doing): \(reason)"
    underlying = String(reflecting: error)
  }
}

/// A database call that took longer than its limit (see `withAnswerTimeout`).
struct AnswerTimeout: Error {
  var limit: Duration

  /// Why, in words: a client that cannot connect (no server, a refused
  /// login, a database that does not exist) waits for a connection, and
  /// only its own logger says why.
  var reason: String {
    "PostgreSQL did not answer within \(limit) (a client that cannot connect waits for a connection; "
      + "its background logger says why, as \"Connection creation failed\", at level info)"
  }
}
