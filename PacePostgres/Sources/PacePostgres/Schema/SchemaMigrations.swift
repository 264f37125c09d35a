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
        // STABLE, as their bodies are (time zone arithmetic): a function
        // declared stricter than its body is never inlined, and a call that
        // is not costs about 20 µs.
        """
        CREATE FUNCTION \(unescaped: ns).pace_micros(instant timestamptz) RETURNS bigint
          LANGUAGE sql STABLE STRICT PARALLEL SAFE
          AS 'SELECT (extract(epoch FROM instant) * 1000000)::bigint'
        """,
        """
        CREATE FUNCTION \(unescaped: ns).pace_instant(micros bigint) RETURNS timestamptz
          LANGUAGE sql STABLE STRICT PARALLEL SAFE
          AS $$SELECT timestamptz 'epoch' + micros * interval '1 microsecond'$$
        """,
        """
        CREATE TABLE \(unescaped: ns).schema_version (
          singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
          version integer NOT NULL,
          incarnation uuid NOT NULL DEFAULT gen_random_uuid(),
          migrated_at timestamptz NOT NULL DEFAULT \(unescaped: ns).pace_now()
        )
        """,
        // One row per live key: its runner's stored state (null until the
        // first fold), when a worker must next look at it (the policy's
        // deadline, or a send not yet folded in), whether the policy holds a
        // value it may still emit, and what it does at that deadline if no
        // send comes first (`pace_fire`; null: a fold works it out).
        """
        CREATE TABLE \(unescaped: ns).keys (
          pacer text NOT NULL,
          key text NOT NULL,
          state jsonb,
          due_at timestamptz,
          pending boolean NOT NULL DEFAULT false,
          fire jsonb,
          updated_at timestamptz NOT NULL DEFAULT \(unescaped: ns).pace_now(),
          PRIMARY KEY (pacer, key)
        )
        """,
        "CREATE INDEX keys_due ON \(unescaped: ns).keys (pacer, due_at) WHERE due_at IS NOT NULL",
        // The idempotency keys: the namespace's, never a key's, and never owned
        // by a table, so that no removed row or rebuilt table can restart it.
        "CREATE SEQUENCE \(unescaped: ns).emission_id AS bigint NO CYCLE",
        """
        CREATE TABLE \(unescaped: ns).outbox (
          id bigint PRIMARY KEY DEFAULT nextval('\(unescaped: ns).emission_id'),
          pacer text NOT NULL,
          key text NOT NULL,
          value jsonb NOT NULL,
          emitted_at timestamptz NOT NULL,
          lease_owner text,
          lease_expires_at timestamptz,
          deliveries integer NOT NULL DEFAULT 0,
          CHECK ((lease_owner IS NULL) = (lease_expires_at IS NULL))
        )
        """,
        "CREATE INDEX outbox_key_order ON \(unescaped: ns).outbox (pacer, key, id)",
        "CREATE INDEX outbox_leases ON \(unescaped: ns).outbox (pacer, lease_expires_at) WHERE lease_expires_at IS NOT NULL",
        // Sends not yet folded into their key's state, each with its instant.
        """
        CREATE TABLE \(unescaped: ns).sends (
          id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          pacer text NOT NULL,
          key text NOT NULL,
          value jsonb NOT NULL,
          sent_at timestamptz NOT NULL
        )
        """,
        "CREATE INDEX sends_key_order ON \(unescaped: ns).sends (pacer, key, sent_at, id)",
        // Folded sends, kept only for pacers that ask to (tests, audits).
        """
        CREATE TABLE \(unescaped: ns).send_log (
          id bigint PRIMARY KEY,
          pacer text NOT NULL,
          key text NOT NULL,
          value jsonb NOT NULL,
          sent_at timestamptz NOT NULL
        )
        """,
      ] + FleetStatements.functions(in: namespace)
    default:
      preconditionFailure("Invalid schema version \(version): this library knows 1...\(PaceSchema.version)")
    }
  }
}
