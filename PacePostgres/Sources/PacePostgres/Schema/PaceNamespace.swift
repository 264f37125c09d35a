//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The PostgreSQL schema that holds one set of fleet pacer tables.
///
/// A namespace is the name of a schema that Pace owns entirely: ``PaceSchema``
/// creates it and its tables, and nothing else should live in it. Many pacers
/// share one namespace; processes that name the same namespace in the same
/// database share their keys.
///
/// A name is 1 to 63 characters: lowercase ASCII letters, digits and `_`,
/// starting with a letter or `_`. It may not be `public` or
/// `information_schema`, nor start with `pg_` (PostgreSQL reserves those).
/// Only lowercase is accepted so that the name means the same schema quoted or
/// unquoted, in `psql` as in Pace.
///
/// ```swift
/// let namespace = try PaceNamespace("notifications")
/// try await PaceSchema(namespace: namespace).migrate(on: client)
/// ```
public struct PaceNamespace: Sendable, Hashable, CustomStringConvertible {
  /// The schema's name, as validated.
  public let name: String

  /// Validates `name` as a namespace.
  ///
  /// - Parameter name: The schema's name, for example from a configuration
  ///   file or a command line.
  /// - Throws: ``PaceNamespaceError`` saying what is wrong with `name`.
  public init(_ name: String) throws(PaceNamespaceError) {
    let bytes = Array(name.utf8)
    guard let first = bytes.first else {
      throw PaceNamespaceError(name: name, reason: .empty)
    }
    guard bytes.count <= Self.maximumLength else {
      throw PaceNamespaceError(name: name, reason: .tooLong(length: bytes.count))
    }
    if let offending = name.first(where: { character in !(character.asciiValue.map(Self.isAllowed) ?? false) }) {
      throw PaceNamespaceError(name: name, reason: .invalidCharacter(offending))
    }
    guard !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
      throw PaceNamespaceError(name: name, reason: .startsWithDigit)
    }
    guard !name.hasPrefix("pg_"), name != "public", name != "information_schema" else {
      throw PaceNamespaceError(name: name, reason: .reserved)
    }
    self.name = name
  }

  /// The longest name PostgreSQL keeps without truncating it (`NAMEDATALEN - 1`).
  public static let maximumLength = 63

  public var description: String { name }

  /// The name as an SQL identifier. Safe to splice into a statement: the
  /// validation allows no quote, no space and no uppercase.
  package var quoted: String { "\"\(name)\"" }

  private static func isAllowed(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
    default: false
    }
  }
}

/// A namespace name that ``PaceNamespace/init(_:)`` refused, and why.
public struct PaceNamespaceError: Error, Hashable, CustomStringConvertible {
  /// What is wrong with a namespace name.
  public enum Reason: Sendable, Hashable {
    /// The name is the empty string.
    case empty
    /// The name is longer than ``PaceNamespace/maximumLength`` bytes.
    case tooLong(length: Int)
    /// The name contains a character other than `a`–`z`, `0`–`9` and `_`.
    case invalidCharacter(Character)
    /// The name starts with a digit.
    case startsWithDigit
    /// The name is `public`, `information_schema` or starts with `pg_`.
    case reserved
  }

  /// The name that was refused.
  public let name: String
  /// Why it was refused.
  public let reason: Reason

  public var description: String {
    let why =
      switch reason {
      case .empty: "it is empty"
      case .tooLong(let length): "it is \(length) bytes long, and PostgreSQL keeps \(PaceNamespace.maximumLength)"
      case .invalidCharacter(let character):
        "it contains \(character.debugDescription); use lowercase letters, digits and _"
      case .startsWithDigit: "it starts with a digit; start with a lowercase letter or _"
      case .reserved: "PostgreSQL reserves it (public, information_schema, pg_*); choose another name"
      }
    return "invalid Pace namespace \(name.debugDescription): \(why)"
  }
}
