//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import PostgresNIO

/// The benchmark's floor, `--floor --prepared`: the bare upsert of a send,
/// prepared once per connection, as Pace's frequent calls are.
struct FloorUpsert: PostgresPreparedStatement {
  typealias Row = ()

  static let sql = """
    INSERT INTO public.floor (key, value) VALUES ($1, $2)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value
    """
  static let bindingDataTypes: [PostgresDataType] = [.text, .text]

  var key: String
  var value: String

  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 2)
    bindings.append(key)
    bindings.append(value)
    return bindings
  }

  func decodeRow(_ row: PostgresRow) throws {}
}
