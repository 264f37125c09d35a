//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Why ``PaceSchema/migrate(on:logger:)`` refused a database.
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
    }
  }
}
