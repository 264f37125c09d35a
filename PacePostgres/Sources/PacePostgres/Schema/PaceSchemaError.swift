//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Why ``PaceSchema/migrate(on:logger:answerTimeout:)`` refused a database, or a
/// ``FleetPacer`` refused to use a namespace.
///
/// Each of these is thrown before anything is changed: the migration's
/// transaction is rolled back and the database is as it was.
public enum PaceSchemaError: Error, Hashable, CustomStringConvertible {
  /// The namespace records a schema version newer than this library knows:
  /// a newer Pace has migrated it. Upgrade this process's Pace.
  case newerVersion(namespace: String, found: Int, supported: Int)
  /// The namespace's version table holds no version, or one that no Pace
  /// release ever wrote (zero or negative): it was damaged by hand.
  case unknownVersion(namespace: String, found: Int?)
  /// The schema exists and holds objects, but no Pace version table: it
  /// belongs to something else. Choose another namespace.
  case notAPaceSchema(namespace: String, objects: [String])
  /// A fleet pacer found no Pace tables in the namespace: call
  /// ``PaceSchema/migrate(on:logger:answerTimeout:)`` when the process starts.
  case notMigrated(namespace: String)
  /// A fleet pacer found the namespace at an older version than this
  /// library's: call ``PaceSchema/migrate(on:logger:answerTimeout:)`` when the process starts.
  case olderVersion(namespace: String, found: Int, supported: Int)
  /// ``PaceSchema/migrate(on:logger:answerTimeout:)`` had no answer from the
  /// database in time: it is away, or cannot be reached.
  case noAnswer(namespace: String, within: Duration)

  public var description: String {
    switch self {
    case .newerVersion(let namespace, let found, let supported):
      "Pace namespace \(namespace.debugDescription) has schema version \(found), newer than this library's "
        + "\(supported); upgrade Pace in this process (nothing was changed)"
    case .unknownVersion(let namespace, let found):
      "Pace namespace \(namespace.debugDescription) records "
        + (found.map { "an unknown schema version \($0)" } ?? "no schema version")
        + " in its version table; it was not written by Pace (nothing was changed)"
    case .notAPaceSchema(let namespace, let objects):
      "schema \(namespace.debugDescription) already holds objects that Pace did not create "
        + "(\(objects.joined(separator: ", "))); choose another namespace (nothing was changed)"
    case .notMigrated(let namespace):
      "Pace namespace \(namespace.debugDescription) has no Pace tables; "
        + "call PaceSchema(namespace:).migrate(on:) when the process starts"
    case .noAnswer(let namespace, let limit):
      "Pace namespace \(namespace.debugDescription) could not be migrated: \(AnswerTimeout(limit: limit).reason)"
    case .olderVersion(let namespace, let found, let supported):
      "Pace namespace \(namespace.debugDescription) has schema version \(found), older than this library's "
        + "\(supported); call PaceSchema(namespace:).migrate(on:) when the process starts"
    }
  }
}
