//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import PostgresNIO
import Synchronization

/// A call of one of a namespace's functions, as a statement the server
/// prepares once per connection: an unnamed statement, PostgresNIO's
/// default, is parsed and planned at every call. The sends, fires, delivery
/// rounds and alarms of a fleet pacer are such calls (see ``FleetCalls``).
///
/// PostgresNIO takes a prepared statement's name, text and parameter types
/// from its type, while a namespace is known only at run time. So they are
/// read from ``current``, a task-local value that ``rows(on:logger:)`` sets
/// around the call: PostgresNIO reads them in the calling task, as it sends
/// the statement.
///
///     let text = PreparedCall.Text(
///       sql: "SELECT a_now FROM \(namespace.quoted).pace_alarm($1)", types: [.text])
///     var bindings = PostgresBindings()
///     bindings.append(pacerName)
///     for try await row in try await PreparedCall(text, bindings).rows(on: client, logger: logger) { … }
struct PreparedCall: PostgresPreparedStatement {
  typealias Row = PostgresRow

  /// A statement: its name, its SQL text and the types of its parameters.
  struct Text: Sendable {
    /// Short and unique in the process (`pace_fleet_1`, `pace_fleet_2`, …):
    /// the server keeps 63 bytes of a statement's name, too few for a
    /// namespace's name and a function's, and a connection must never run
    /// one namespace's statement for another's. A text gets a new name
    /// after a call of it fails on the server (see ``rows(on:logger:)``).
    var name: String { slot.name.withLock { $0 } }
    let sql: String
    let types: [PostgresDataType]
    private let slot: Slot

    /// The statement of `sql`, whose parameters `$1`, `$2`, … are of `types`.
    init(sql: String, types: [PostgresDataType]) {
      self.slot = Text.names.withLock { names in
        if let slot = names.slots[sql] { return slot }
        let slot = Slot(name: names.nextName())
        names.slots[sql] = slot
        return slot
      }
      self.sql = sql
      self.types = types
    }

    private init() {
      (slot, sql, types) = (Slot(name: ""), "", [])
    }

    /// Gives the text a name never used before: a connection on which it
    /// failed to prepare (its namespace not there yet, a `DISCARD ALL`)
    /// keeps that failure under the old name, and PostgresNIO returns it to
    /// every later call of that name there.
    func rename() {
      let fresh = Text.names.withLock { $0.nextName() }
      slot.name.withLock { $0 = fresh }
    }

    /// The name of every text with the same SQL.
    private final class Slot: Sendable {
      let name: Mutex<String>
      init(name: String) { self.name = Mutex(name) }
    }

    private struct Names {
      var slots: [String: Slot] = [:]
      var given = 0
      mutating func nextName() -> String {
        given += 1
        return "pace_fleet_\(given)"
      }
    }

    /// The texts so far, one entry per statement and namespace used in the
    /// process.
    private static let names = Mutex(Names())

    static let none = Text()
  }

  /// The statement being executed in this task.
  @TaskLocal static var current = Text.none

  static var name: String { current.name }
  static var sql: String { current.sql }
  static var bindingDataTypes: [PostgresDataType] { current.types }

  let text: Text
  let bindings: PostgresBindings

  init(_ text: Text, _ bindings: PostgresBindings) {
    self.text = text
    self.bindings = bindings
  }

  func makeBindings() throws -> PostgresBindings { bindings }

  func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }

  /// Runs the call on a connection of `client`, preparing it there first if
  /// it was not yet; returns its rows.
  func rows(on client: PostgresClient, logger: Logger) async throws -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow> {
    do {
      return try await Self.$current.withValue(text) { try await client.execute(self, logger: logger) }
    } catch let error as PSQLError where error.serverInfo != nil {
      // The server refused the call, maybe its preparation: the next call
      // prepares it anew, under a new name, on whatever connection.
      text.rename()
      throw error
    }
  }
}
