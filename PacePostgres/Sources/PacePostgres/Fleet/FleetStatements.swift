//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import PostgresNIO

/// The namespace's functions behind a fleet pacer: each step a worker or a
/// sender takes is one call, one round trip. They are created by the
/// schema's migration (version 1); a change to one is a new version.
///
/// Instants cross the wire as microseconds since the Unix epoch of the
/// database's clock (`pace_micros`, `pace_instant`), the precision of
/// `timestamptz`. The locking rules that make the instants exact:
///
/// - `pace_send` and `pace_send_step` lock the key's row (making it for
///   a new key) before they read the clock, so per key the instants of
///   sends are in the order their transactions commit. Both first take
///   the key's senders' lock (a transaction-level advisory lock that no
///   holder of a row lock waits for), so no other send makes the key's row,
///   or makes it and sees a fire remove it, between a send's look for the
///   row and its insert.
/// - `pace_claim` locks the keys it folds, then reads the clock, then the
///   sends: every send committed before the lock is read, and every later
///   send waits for the fold's commit, so its instant is after the fold's.
/// - `pace_fire` locks the due keys it fires, then looks for their sends:
///   a key with a send committed before the lock is left to a fold, and a
///   later send waits for the fire's commit, so its instant is after the
///   deadline the fire emitted on.
enum FleetStatements {
  static func functions(in namespace: PaceNamespace) -> [PostgresQuery] {
    let ns = namespace.quoted
    let channel = namespace.name
    return [
      // A notification to the processes of pacer `p`: "<pacer> <µs>", the
      // instant by which their workers look again (now, for an emission
      // left free; a deadline; the end of a lease given back). The one
      // place its form is written; a worker reads it in `heard(_:)`.
      """
      CREATE FUNCTION \(unescaped: ns).pace_notify(p text, micros bigint) RETURNS void
        LANGUAGE sql VOLATILE AS $$SELECT pg_notify('\(unescaped: channel)', p || ' ' || micros)$$
      """,
      // A send: lock the key's row, read the instant, record the send. The
      // row becomes due a grace period later: the sending process folds it at
      // once; another process takes over only if that one went away.
      """
      CREATE FUNCTION \(unescaped: ns).pace_send(p text, k text, v jsonb, grace interval) RETURNS bigint
        LANGUAGE plpgsql AS $$
      DECLARE
        sent timestamptz;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended(p || chr(10) || k, 1));
        INSERT INTO \(unescaped: ns).keys AS x (pacer, key, due_at) VALUES (p, k, \(unescaped: ns).pace_now() + grace)
          ON CONFLICT (pacer, key) DO UPDATE SET due_at = \(unescaped: ns).pace_now() + grace
          WHERE x.due_at IS NULL OR x.due_at > \(unescaped: ns).pace_now() + grace;
        sent := \(unescaped: ns).pace_now();
        INSERT INTO \(unescaped: ns).sends (pacer, key, value, sent_at) VALUES (p, k, v, sent);
        RETURN \(unescaped: ns).pace_micros(sent);
      END $$
      """,
      // A send to a built-in policy whose step the database takes itself
      // when no emission comes of it: `policy` is 'debounce'
      // (`DebounceStateMachine`, of interval `i` and max-wait `w`
      // microseconds) or 'throttle' (`ThrottleStateMachine`, of interval
      // `i`). The step is taken for a key with no row and no leading edge,
      // or for a burst or window that goes on, its deadline not yet come and
      // no send waiting for a fold. The key's row takes the state a fold
      // would store, in the same JSON, and the fire a fold would work out
      // (for `pace_fire`), so that a fold or a fire later reads it as its
      // own. Any other send is `pace_send`'s, for a fold. Returns the
      // instant and, when the step was taken here, the key's deadline
      // (`s_due`), and whether it told the fleet (`s_told`). The key is
      // locked (its senders' lock, then its row, made for a new key) before
      // the clock is read, as in `pace_send`. With `tell`, a deadline
      // earlier than `known` (the earliest the sending process knows of) is
      // told to the fleet; so is any, when `lapses` (a process whose worker
      // does not run, which learns of no deadline but the ones it told) and
      // `known` is due within 50 ms: the fleet may know of none after it.
      """
      CREATE FUNCTION \(unescaped: ns).pace_send_step(
        p text, k text, v jsonb, grace interval, policy text, i bigint, w bigint, lead boolean, trail boolean,
        keep_log boolean, known bigint, lapses boolean, tell boolean
      ) RETURNS TABLE (s_micros bigint, s_due bigint, s_told boolean)
        LANGUAGE plpgsql AS $$
      DECLARE
        shape text := CASE policy WHEN 'debounce' THEN 'bursting' ELSE 'window' END;
        cur jsonb;
        cur_due timestamptz;
        sent timestamptz;
        t bigint;
        q bigint;
        m bigint;
        d bigint;
        pend jsonb;
        inner_state jsonb;
        next_state jsonb;
        next_fire jsonb;
      BEGIN
        -- Senders to the key, one at a time (the sends' own lock, which no
        -- holder of a row lock waits for): no row of the key can be made,
        -- or made and removed, between this send's look and its insert.
        PERFORM pg_advisory_xact_lock(hashtextextended(p || chr(10) || k, 1));
        -- Runs once: each EXIT leaves the send to `pace_send`, below.
        LOOP
          SELECT x.state, x.due_at INTO cur, cur_due FROM \(unescaped: ns).keys x
            WHERE x.pacer = p AND x.key = k FOR UPDATE;
          IF FOUND THEN
            EXIT WHEN cur IS NULL OR cur_due IS NULL OR cur ? 'terminated' OR cur ? 'stalledDeadline'
              OR jsonb_typeof(cur -> 'policy' -> shape) IS DISTINCT FROM 'object';
            sent := \(unescaped: ns).pace_now();
            EXIT WHEN cur_due <= sent;
            EXIT WHEN EXISTS (SELECT FROM \(unescaped: ns).sends y WHERE y.pacer = p AND y.key = k);
            t := \(unescaped: ns).pace_micros(sent);
            IF policy = 'debounce' THEN
              -- The burst goes on: the value replaces the pending one and
              -- moves the quiet deadline; the max-wait deadline stays. (One
              -- stored under options with a max-wait that these lack is a
              -- fold's: the machine does not step it the same way.)
              q := t + i;
              m := (cur -> 'policy' -> 'bursting' ->> 'maxWaitDeadline')::bigint / 1000;
              EXIT WHEN w IS NULL AND m IS NOT NULL;
            ELSE
              -- Inside the window: the latest value waits for its end.
              q := (cur -> 'policy' -> 'window' ->> 'end')::bigint / 1000;
            END IF;
          ELSE
            EXIT WHEN lead;
            sent := \(unescaped: ns).pace_now();
            t := \(unescaped: ns).pace_micros(sent);
            q := t + i;
            m := CASE WHEN policy = 'debounce' AND w IS NOT NULL THEN t + w END;
          END IF;
          pend := CASE WHEN trail THEN v END;
          -- What the deadline does if no send comes first
          -- (`timerFired(at:)`): a debounce's quiet period ends the burst, a
          -- max-wait before it emits and waits again; a throttle's window
          -- ends with its pending value, and a new window, or at rest.
          IF policy = 'debounce' THEN
            inner_state := jsonb_build_object('quietDeadline', to_jsonb(q * 1000))
              || CASE WHEN pend IS NOT NULL THEN jsonb_build_object('pending', pend) ELSE '{}' END
              || CASE WHEN m IS NOT NULL THEN jsonb_build_object('maxWaitDeadline', to_jsonb(m * 1000)) ELSE '{}' END;
            IF m IS NULL OR q <= m THEN
              d := q;
              next_fire := jsonb_build_object(
                'emissions', CASE WHEN pend IS NOT NULL THEN jsonb_build_array(jsonb_build_array(q, pend)) ELSE '[]' END);
            ELSE
              d := m;
              next_state := jsonb_build_object('policy', jsonb_build_object('bursting', jsonb_build_object(
                'quietDeadline', to_jsonb(q * 1000), 'maxWaitDeadline', to_jsonb((m + w) * 1000))));
              next_fire := jsonb_build_object(
                'emissions', CASE WHEN pend IS NOT NULL THEN jsonb_build_array(jsonb_build_array(m, pend)) ELSE '[]' END,
                'state', next_state, 'due', least(q, m + w), 'pending', false);
            END IF;
          ELSE
            d := q;
            inner_state := jsonb_build_object('end', to_jsonb(q * 1000))
              || CASE WHEN pend IS NOT NULL THEN jsonb_build_object('pending', pend) ELSE '{}' END;
            IF pend IS NULL THEN
              next_fire := jsonb_build_object('emissions', '[]'::jsonb);
            ELSE
              next_state := jsonb_build_object('policy', jsonb_build_object('window', jsonb_build_object('end', to_jsonb((q + i) * 1000))));
              next_fire := jsonb_build_object(
                'emissions', jsonb_build_array(jsonb_build_array(q, pend)), 'state', next_state, 'due', q + i, 'pending', false);
            END IF;
          END IF;
          IF cur_due IS NOT NULL THEN
            UPDATE \(unescaped: ns).keys x
              SET state = jsonb_build_object('policy', jsonb_build_object(shape, inner_state)),
                  due_at = \(unescaped: ns).pace_instant(d), pending = pend IS NOT NULL, fire = next_fire, updated_at = sent
              WHERE x.pacer = p AND x.key = k;
          ELSE
            -- A plain insert: only senders make a key's row, under the
            -- senders' lock this call holds, so none can have come since the
            -- look above. (`ON CONFLICT` would make it a speculative insert,
            -- one more record in the write-ahead log: 46 of its 1,081 bytes
            -- a send, in `fleet-compare`.)
            INSERT INTO \(unescaped: ns).keys (pacer, key, state, due_at, pending, fire, updated_at)
              VALUES (p, k, jsonb_build_object('policy', jsonb_build_object(shape, inner_state)),
                      \(unescaped: ns).pace_instant(d), pend IS NOT NULL, next_fire, sent);
          END IF;
          IF keep_log THEN
            INSERT INTO \(unescaped: ns).send_log (id, pacer, key, value, sent_at)
              VALUES (nextval(pg_get_serial_sequence('\(unescaped: ns).sends', 'id')), p, k, v, sent);
          END IF;
          s_told := tell AND (known IS NULL OR d < known OR (lapses AND known <= t + 50000));
          IF s_told THEN
            PERFORM \(unescaped: ns).pace_notify(p, d);
          END IF;
          s_micros := t;
          s_due := d;
          RETURN NEXT;
          RETURN;
        END LOOP;
        s_micros := \(unescaped: ns).pace_send(p, k, v, grace);
        s_due := NULL;
        s_told := false;
        RETURN NEXT;
      END $$
      """,
      // A fold's claim: the keys this process sent to, then due keys, each
      // locked or skipped; then the instant; then their states and sends.
      // Keys are looked up one by one, on the primary key: a plan that
      // cannot go wrong on a young table whose statistics say it is empty.
      // Due keys are those due by an instant read before the search, a
      // bound the index can stop at (a volatile `pace_now()` in the filter
      // made every search walk every key of the pacer with a deadline).
      """
      CREATE FUNCTION \(unescaped: ns).pace_claim(p text, mine text[], lim bigint)
        RETURNS TABLE (c_key text, c_state text, c_ids bigint[], c_values text[], c_sent bigint[], c_now bigint)
        LANGUAGE plpgsql AS $$
      DECLARE
        k text;
        claimed text[] := '{}';
        due text[] := '{}';
        due_by timestamptz;
        instant timestamptz;
      BEGIN
        FOREACH k IN ARRAY coalesce(mine, '{}') LOOP
          PERFORM FROM \(unescaped: ns).keys x WHERE x.pacer = p AND x.key = k FOR UPDATE SKIP LOCKED;
          IF FOUND THEN claimed := claimed || k; END IF;
        END LOOP;
        IF lim > cardinality(claimed) THEN
          due_by := \(unescaped: ns).pace_now();
          SELECT coalesce(array_agg(c.key), '{}') INTO due FROM (
            SELECT x.key FROM \(unescaped: ns).keys x
            WHERE x.pacer = p AND x.due_at <= due_by AND NOT (x.key = ANY(claimed))
            ORDER BY x.due_at LIMIT lim - cardinality(claimed) FOR UPDATE SKIP LOCKED) c;
        END IF;
        claimed := claimed || due;
        IF cardinality(claimed) = 0 THEN RETURN; END IF;
        instant := \(unescaped: ns).pace_now();
        FOREACH k IN ARRAY claimed LOOP
          RETURN QUERY
            SELECT x.key, x.state::text, s.ids, s.vals, s.ats, \(unescaped: ns).pace_micros(instant)
            FROM \(unescaped: ns).keys x
            LEFT JOIN LATERAL (
              SELECT array_agg(y.id ORDER BY y.sent_at, y.id) AS ids,
                     array_agg(y.value::text ORDER BY y.sent_at, y.id) AS vals,
                     array_agg(\(unescaped: ns).pace_micros(y.sent_at) ORDER BY y.sent_at, y.id) AS ats
              FROM \(unescaped: ns).sends y WHERE y.pacer = p AND y.key = k) s ON true
            WHERE x.pacer = p AND x.key = k;
        END LOOP;
      END $$
      """,
      // A fold's result, in the claim's transaction: the new states (each
      // with what its key does at its deadline if no send comes first, for
      // `pace_fire`), the keys that go, the sends folded, and the emissions
      // (`pace_emit`).
      """
      CREATE FUNCTION \(unescaped: ns).pace_apply(
        p text, kept text[], states text[], due bigint[], pendings boolean[], fires text[], gone text[], folded bigint[],
        out_keys text[], out_values text[], out_at bigint[], keep_log boolean, notify_at bigint,
        owner text, lease interval, lim bigint, tell boolean
      ) RETURNS TABLE (o_id bigint, o_key text, o_value text, o_emitted bigint, o_leased boolean, o_behind boolean)
        LANGUAGE plpgsql AS $$
      DECLARE
        i integer;
        k text;
      BEGIN
        FOR i IN 1 .. coalesce(cardinality(kept), 0) LOOP
          UPDATE \(unescaped: ns).keys x
            SET state = states[i]::jsonb, due_at = \(unescaped: ns).pace_instant(NULLIF(due[i], -1)),
                pending = pendings[i], fire = NULLIF(fires[i], '')::jsonb, updated_at = \(unescaped: ns).pace_now()
            WHERE x.pacer = p AND x.key = kept[i];
        END LOOP;
        FOREACH k IN ARRAY coalesce(gone, '{}') LOOP
          DELETE FROM \(unescaped: ns).keys x WHERE x.pacer = p AND x.key = k;
        END LOOP;
        IF keep_log THEN
          WITH f AS (DELETE FROM \(unescaped: ns).sends y WHERE y.id = ANY(folded)
                     RETURNING y.id, y.pacer, y.key, y.value, y.sent_at)
          INSERT INTO \(unescaped: ns).send_log (id, pacer, key, value, sent_at) SELECT * FROM f;
        ELSE
          DELETE FROM \(unescaped: ns).sends y WHERE y.id = ANY(folded);
        END IF;
        RETURN QUERY SELECT * FROM \(unescaped: ns).pace_emit(p, out_keys, out_values, out_at, notify_at, owner, lease, lim, tell);
      END $$
      """,
      // Emissions into the outbox, in the caller's transaction (a fold's
      // `pace_apply`, a `pace_fire`), and a notification when a deadline
      // became earlier than the fleet knew (`notify_at`). An emission that is
      // first in its key's line is leased to the caller's process at once (up
      // to `lim`) and returned: it needs no claim of its own. One behind
      // another of its key (`o_behind`) is leased by the statement that
      // removes the one before it; one left for want of room waits for a
      // delivery round that looks around: here, or, when the caller says its
      // handlers hold all its places (`tell`), told by a notification, in
      // any process.
      //
      // The emitting keys are locked (transaction-level advisory locks, in
      // order) as `pace_settle` locks the keys it removes from: an insert
      // behind a head and that head's removal never pass each other unseen.
      """
      CREATE FUNCTION \(unescaped: ns).pace_emit(
        p text, out_keys text[], out_values text[], out_at bigint[], notify_at bigint,
        owner text, lease interval, lim bigint, tell boolean
      ) RETURNS TABLE (o_id bigint, o_key text, o_value text, o_emitted bigint, o_leased boolean, o_behind boolean)
        LANGUAGE plpgsql AS $$
      DECLARE
        i integer;
        k text;
        seen text[] := '{}';
        is_head boolean;
        leased bigint := 0;
        waits boolean := false;
      BEGIN
        FOR k IN SELECT DISTINCT u.key FROM unnest(out_keys) AS u(key) ORDER BY 1 LOOP
          PERFORM pg_advisory_xact_lock(hashtextextended(p || chr(10) || k, 0));
        END LOOP;
        FOR i IN 1 .. coalesce(cardinality(out_keys), 0) LOOP
          o_key := out_keys[i];
          o_value := out_values[i];
          o_emitted := out_at[i];
          is_head := NOT (o_key = ANY(seen)) AND NOT EXISTS (
            SELECT FROM \(unescaped: ns).outbox e WHERE e.pacer = p AND e.key = o_key);
          seen := seen || o_key;
          o_behind := NOT is_head;
          o_leased := is_head AND leased < lim;
          INSERT INTO \(unescaped: ns).outbox (pacer, key, value, emitted_at, lease_owner, lease_expires_at, deliveries)
            VALUES (p, o_key, o_value::jsonb, \(unescaped: ns).pace_instant(o_emitted),
                    CASE WHEN o_leased THEN owner END,
                    CASE WHEN o_leased THEN \(unescaped: ns).pace_now() + lease END,
                    CASE WHEN o_leased THEN 1 ELSE 0 END)
            RETURNING id INTO o_id;
          IF o_leased THEN leased := leased + 1; END IF;
          waits := waits OR (is_head AND NOT o_leased);
          RETURN NEXT;
        END LOOP;
        -- A first emission left for want of room here is the fleet's to
        -- deliver when this process will not soon have room (`tell`): told
        -- at once (which also tells of any deadline), as `pace_settle`
        -- tells of one it cannot lease.
        IF waits AND tell THEN
          PERFORM \(unescaped: ns).pace_notify(p, \(unescaped: ns).pace_micros(\(unescaped: ns).pace_now()));
        ELSIF notify_at IS NOT NULL THEN
          PERFORM \(unescaped: ns).pace_notify(p, notify_at);
        END IF;
      END $$
      """,
      // A due key's fire, in one statement, without a fold: the keys of
      // pacer `p` due by now whose next step the fold that stored them
      // worked out (`fire`), each locked or skipped as a claim locks, and
      // with no send since (that one is a fold's); each takes the row its
      // fire gives (or goes) and emits what it gives, on the deadline's
      // instant, through `pace_emit`. Returns the emissions; then, in a last
      // row with a null `o_id`, in `o_emitted`, a count that is not zero
      // when a due key needs a fold (one with a send, one no fold worked
      // out, one due again at once, or more than the batch), and the
      // alarm's reading after the fire (`pace_alarm`): the worker's next
      // alarm needs no statement of its own. Keys that another process
      // holds are not counted: they are its, and that reading looks again.
      //
      // As in `pace_claim`, the keys are locked before the check for sends
      // (a statement of its own: it sees every send committed before the
      // lock), and a send that comes later waits for this commit, so its
      // instant is after the fire's.
      """
      CREATE FUNCTION \(unescaped: ns).pace_fire(p text, batch bigint, owner text, lease interval, lim bigint, tell boolean)
        RETURNS TABLE (
          o_id bigint, o_key text, o_value text, o_emitted bigint, o_leased boolean, o_behind boolean,
          a_now bigint, a_due bigint, a_lease_end bigint)
        LANGUAGE plpgsql AS $$
      DECLARE
        due_by timestamptz;
        locked text[];
        k text;
        f jsonb;
        e jsonb;
        left_over bigint := 0;
        keys_out text[] := '{}';
        values_out text[] := '{}';
        at_out bigint[] := '{}';
      BEGIN
        due_by := \(unescaped: ns).pace_now();
        SELECT coalesce(array_agg(c.key), '{}') INTO locked FROM (
          SELECT x.key FROM \(unescaped: ns).keys x
          WHERE x.pacer = p AND x.due_at <= due_by AND x.fire IS NOT NULL
          ORDER BY x.due_at LIMIT batch FOR UPDATE SKIP LOCKED) c;
        FOREACH k IN ARRAY locked LOOP
          IF EXISTS (SELECT FROM \(unescaped: ns).sends y WHERE y.pacer = p AND y.key = k) THEN
            left_over := left_over + 1;
            CONTINUE;
          END IF;
          SELECT x.fire INTO f FROM \(unescaped: ns).keys x WHERE x.pacer = p AND x.key = k;
          IF coalesce(f -> 'state', 'null') = 'null'::jsonb THEN  -- The key goes.
            DELETE FROM \(unescaped: ns).keys x WHERE x.pacer = p AND x.key = k;
          ELSE
            UPDATE \(unescaped: ns).keys x
              SET state = f -> 'state', due_at = \(unescaped: ns).pace_instant((f ->> 'due')::bigint),
                  pending = (f ->> 'pending')::boolean, fire = NULL, updated_at = \(unescaped: ns).pace_now()
              WHERE x.pacer = p AND x.key = k;
            IF (f ->> 'due')::bigint <= \(unescaped: ns).pace_micros(due_by) THEN left_over := left_over + 1; END IF;
          END IF;
          FOR e IN SELECT a.e FROM jsonb_array_elements(f -> 'emissions') WITH ORDINALITY AS a(e, n) ORDER BY a.n LOOP
            keys_out := keys_out || k;
            values_out := values_out || (e -> 1)::text;
            at_out := at_out || (e ->> 0)::bigint;
          END LOOP;
        END LOOP;
        -- A full batch may have left more: a fold takes them.
        IF cardinality(locked) >= batch THEN left_over := left_over + 1; END IF;
        -- Due keys that no fold worked out (a send not yet folded whose
        -- process went away, a fire that could not be stored): a fold's.
        IF EXISTS (SELECT FROM \(unescaped: ns).keys x
                   WHERE x.pacer = p AND x.due_at <= due_by AND x.fire IS NULL) THEN
          left_over := left_over + 1;
        END IF;
        RETURN QUERY SELECT e.*, NULL::bigint, NULL::bigint, NULL::bigint
          FROM \(unescaped: ns).pace_emit(p, keys_out, values_out, at_out, NULL, owner, lease, lim, tell) e;
        RETURN QUERY SELECT NULL::bigint, NULL::text, NULL::text, left_over, NULL::boolean, NULL::boolean, a.*
          FROM \(unescaped: ns).pace_alarm(p) a;
      END $$
      """,
      // The alarm's reading: the database's instant, the pacer's earliest
      // deadline and its earliest lease end. A function, so that its plan is
      // made once per connection (as a statement of its own, planning it
      // took 0.24 ms a call, more than running it).
      """
      CREATE FUNCTION \(unescaped: ns).pace_alarm(p text)
        RETURNS TABLE (a_now bigint, a_due bigint, a_lease_end bigint)
        LANGUAGE plpgsql AS $$
      BEGIN
        RETURN QUERY SELECT \(unescaped: ns).pace_micros(\(unescaped: ns).pace_now()),
          \(unescaped: ns).pace_micros((SELECT min(x.due_at) FROM \(unescaped: ns).keys x
            WHERE x.pacer = p AND x.due_at IS NOT NULL)),
          \(unescaped: ns).pace_micros((SELECT min(e.lease_expires_at) FROM \(unescaped: ns).outbox e
            WHERE e.pacer = p AND e.lease_expires_at IS NOT NULL));
      END $$
      """,
      // A lease of a key's first emission, and only it, if it is free (or
      // its lease expired) and not locked; when `expected` is given, only if the
      // first is that one. Never the one after: one at a time per key.
      """
      CREATE FUNCTION \(unescaped: ns).pace_lease_first(p text, k text, expected bigint, owner text, lease interval)
        RETURNS TABLE (o_removed boolean, o_id bigint, o_key text, o_value text, o_emitted bigint, o_deliveries integer)
        LANGUAGE plpgsql AS $$
      DECLARE
        head bigint;
      BEGIN
        SELECT min(e.id) INTO head FROM \(unescaped: ns).outbox e WHERE e.pacer = p AND e.key = k;
        IF head IS NULL OR head <> coalesce(expected, head) THEN RETURN; END IF;
        RETURN QUERY
          WITH h AS (
            SELECT e.id, e.lease_expires_at FROM \(unescaped: ns).outbox e WHERE e.id = head FOR UPDATE SKIP LOCKED)
          UPDATE \(unescaped: ns).outbox o
            SET lease_owner = owner, lease_expires_at = \(unescaped: ns).pace_now() + lease, deliveries = o.deliveries + 1
            FROM h WHERE o.id = h.id
              AND (h.lease_expires_at IS NULL OR h.lease_expires_at <= \(unescaped: ns).pace_now())
            RETURNING false, o.id, o.key, o.value::text, \(unescaped: ns).pace_micros(o.emitted_at), o.deliveries;
      END $$
      """,
      // A delivery round: remove the emissions whose handlers returned here
      // (those whose lease another process took are left, and not returned);
      // lease the next emission of each key removed, if free and there is
      // room, and tell the fleet (a notification for now) of one left free;
      // and, when asked to look around, claim the first emission of each key
      // whose lease is free or expired, oldest first. When the caller left
      // a first emission waiting that the fleet was not told of (`tell`),
      // and this call does not lease every free one (its room ran out: the
      // next emission of a key removed took it, or there was none; or it
      // does not look), the fleet is told too. The keys removed from
      // are locked first, in order, as `pace_emit` locks the keys it emits
      // for. One call; each step sees the ones before.
      //
      // The look around goes row by row, each key's first row found through
      // the key's index, and a key whose line is held tried once: a plan
      // that cannot turn quadratic. (An anti-join of the outbox with itself
      // could, on a young table whose statistics say it is empty: a second
      // for 4,000 waiting rows, and a backlog that grows as it slows.)
      """
      CREATE FUNCTION \(unescaped: ns).pace_settle(
        p text, owner text, done bigint[], lease interval, lim bigint, look boolean, tell boolean
      )
        RETURNS TABLE (o_removed boolean, o_id bigint, o_key text, o_value text, o_emitted bigint, o_deliveries integer)
        LANGUAGE plpgsql AS $$
      DECLARE
        removed text[];
        k text;
        leased bigint := 0;
        n bigint;
        candidate record;
        held text[] := '{}';
        told boolean := false;
      BEGIN
        FOR k IN SELECT DISTINCT o.key FROM \(unescaped: ns).outbox o
                 WHERE o.id = ANY(done) AND o.lease_owner = owner ORDER BY 1 LOOP
          PERFORM pg_advisory_xact_lock(hashtextextended(p || chr(10) || k, 0));
        END LOOP;
        WITH r AS (DELETE FROM \(unescaped: ns).outbox o WHERE o.id = ANY(done) AND o.lease_owner = owner
                   RETURNING o.id, o.key)
        SELECT array_agg(r.id), coalesce(array_agg(DISTINCT r.key), '{}') INTO done, removed FROM r;
        RETURN QUERY SELECT true, d, NULL::text, NULL::text, NULL::bigint, NULL::integer FROM unnest(done) AS d;
        -- The keys removed from that have another emission: the others
        -- (a debounce's, mostly) need neither a lease nor a look. Each key
        -- is probed on the key's index: a subquery used as a value is never
        -- made a join (`LIMIT 1` keeps it to one row). An `EXISTS` here was
        -- planned as one that, on a young table whose statistics say it is
        -- small, read every outbox row of the pacer, dead ones included.
        SELECT coalesce(array_agg(r.k), '{}') INTO removed FROM unnest(removed) AS r(k)
          WHERE (SELECT true FROM \(unescaped: ns).outbox e WHERE e.pacer = p AND e.key = r.k LIMIT 1);
        FOREACH k IN ARRAY removed LOOP
          EXIT WHEN leased >= lim;
          RETURN QUERY SELECT * FROM \(unescaped: ns).pace_lease_first(p, k, NULL, owner, lease);
          GET DIAGNOSTICS n = ROW_COUNT;
          leased := leased + n;
        END LOOP;
        -- The look claims free first emissions while there is room; once
        -- the room ran out (or there was none), and only when asked
        -- (`tell`), it goes on to find whether a free first emission waits,
        -- to tell the fleet of it. Not asked, it stops: a round that runs
        -- out of room under a backlog would otherwise tell every time.
        IF (look AND leased < lim) OR tell THEN
          FOR candidate IN SELECT o.id, o.key FROM \(unescaped: ns).outbox o
                 WHERE o.pacer = p AND (o.lease_expires_at IS NULL OR o.lease_expires_at <= \(unescaped: ns).pace_now())
                 ORDER BY o.id LOOP
            EXIT WHEN NOT tell AND NOT (look AND leased < lim);
            -- A key whose line is held (its first row leased elsewhere, or
            -- locked) is tried once: none of its later rows can lead. Few are:
            -- no more than the emissions leased across the fleet.
            CONTINUE WHEN candidate.key = ANY(held);
            IF look AND leased < lim THEN
              RETURN QUERY SELECT * FROM \(unescaped: ns).pace_lease_first(p, candidate.key, candidate.id, owner, lease);
              GET DIAGNOSTICS n = ROW_COUNT;
              leased := leased + n;
              IF n = 0 THEN held := held || candidate.key; END IF;
            ELSIF candidate.id = (SELECT min(e.id) FROM \(unescaped: ns).outbox e
                                  WHERE e.pacer = p AND e.key = candidate.key) THEN
              told := true;
              EXIT;
            ELSE
              held := held || candidate.key;
            END IF;
          END LOOP;
        END IF;
        -- Checked last, so that a first row this call's look leased is not
        -- told of. Key by key, on the key's index (over `ANY(removed)` the
        -- plan read every row of the pacer, dead ones included), and only
        -- the first of each key: one behind a first leased here waits for it.
        FOREACH k IN ARRAY removed LOOP
          EXIT WHEN told;
          IF (SELECT e.lease_owner IS NULL FROM \(unescaped: ns).outbox e
              WHERE e.pacer = p AND e.key = k ORDER BY e.id LIMIT 1) THEN
            told := true;
          END IF;
        END LOOP;
        IF told THEN
          PERFORM \(unescaped: ns).pace_notify(p, \(unescaped: ns).pace_micros(\(unescaped: ns).pace_now()));
        END IF;
      END $$
      """,
    ]
  }
}
