//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import PostgresNIO

/// The statements that take a namespace from one schema version to the next.
///
/// A released version's statements never change: a change to the tables is a
/// new version, appended here, whose statements start from the previous one.
/// `PaceSchema` runs them in order, in its migration transaction, and then
/// records the version. Each is one statement, as the extended query
/// protocol requires. Every instant default is the namespace's `pace_now()`
/// (see `PaceSchema`, "One clock").
enum SchemaMigrations {
  static func statements(toVersion version: Int, in namespace: PaceNamespace) -> [PostgresQuery] {
    let ns = namespace.quoted
    switch version {
    case 1:
      return [
        "CREATE SCHEMA IF NOT EXISTS \(unescaped: ns)",
        """
        CREATE FUNCTION \(unescaped: ns).pace_now() RETURNS timestamptz
          LANGUAGE sql VOLATILE PARALLEL SAFE
          AS 'SELECT \(unescaped: PaceSchema.clockExpression)'
        """,
        """
        CREATE TABLE \(unescaped: ns).schema_version (
          singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
          version integer NOT NULL,
          incarnation uuid NOT NULL DEFAULT gen_random_uuid(),
          migrated_at timestamptz NOT NULL DEFAULT \(unescaped: ns).pace_now()
        )
        """,
        """
        CREATE TABLE \(unescaped: ns).keys (
          pacer text NOT NULL,
          key text NOT NULL,
          state jsonb NOT NULL,
          deadline timestamptz,
          updated_at timestamptz NOT NULL DEFAULT \(unescaped: ns).pace_now(),
          PRIMARY KEY (pacer, key)
        )
        """,
        "CREATE INDEX keys_deadline ON \(unescaped: ns).keys (deadline) WHERE deadline IS NOT NULL",
        // The idempotency keys: the namespace's, never a key's, and never owned
        // by a table, so that no removed row or rebuilt table can restart it.
        "CREATE SEQUENCE \(unescaped: ns).emission_id AS bigint NO CYCLE",
        """
        CREATE TABLE \(unescaped: ns).outbox (
          id bigint PRIMARY KEY DEFAULT nextval('\(unescaped: ns).emission_id'),
          pacer text NOT NULL,
          key text NOT NULL,
          value jsonb NOT NULL,
          emitted_at timestamptz NOT NULL DEFAULT \(unescaped: ns).pace_now(),
          lease_owner text,
          lease_expires_at timestamptz,
          deliveries integer NOT NULL DEFAULT 0,
          CHECK ((lease_owner IS NULL) = (lease_expires_at IS NULL))
        )
        """,
        "CREATE INDEX outbox_key_order ON \(unescaped: ns).outbox (pacer, key, id)",
        """
        CREATE TABLE \(unescaped: ns).sends (
          id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          pacer text NOT NULL,
          key text NOT NULL,
          value jsonb NOT NULL,
          sent_at timestamptz NOT NULL DEFAULT \(unescaped: ns).pace_now()
        )
        """,
        "CREATE INDEX sends_key_order ON \(unescaped: ns).sends (pacer, key, id)",
      ]
    default:
      preconditionFailure("Invalid schema version \(version): this library knows 1...\(PaceSchema.version)")
    }
  }
}
