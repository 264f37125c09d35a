//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// How a ``FleetPacer``'s worker claims, delivers and waits.
///
/// The defaults suit a server; tests shorten the lease to see a crash
/// recovered in seconds.
///
/// ```swift
/// var configuration = FleetConfiguration()
/// configuration.lease = .seconds(10)          // a dead process's emission is redelivered within ~10 s
/// configuration.maximumConcurrentDeliveries = 4
/// ```
public struct FleetConfiguration: Sendable, Hashable {
  /// How long a claimed emission is this process's alone. The worker renews
  /// the lease every third of it while the handler runs; when the process
  /// dies, another delivers the emission once the lease has expired. 30 s
  /// by default; at least 1 s.
  public var lease: Duration = .seconds(30)

  /// How long after a send another process may fold it in, should the
  /// sending process go away first: the sending process's worker folds its
  /// own sends at once (within ``foldInterval``). 2 s by default.
  public var foldGrace: Duration = .seconds(2)

  /// How often the worker looks for work that no notification told it
  /// about (a lost notification, a process that died before folding). It
  /// otherwise sleeps until the earliest deadline or lease expiry it knows.
  /// 5 s by default.
  public var safetyPollInterval: Duration = .seconds(5)

  /// The shortest time between two folds of this process's own sends. A
  /// send is folded at once unless the worker began a fold round (whatever
  /// woke it: a send, a deadline, a notification) less than this interval
  /// ago; then it waits for the interval's end, and the sends of the
  /// interval are folded together (in one transaction, up to
  /// ``foldBatchSize`` keys). A longer interval makes fewer round trips per
  /// send when the worker is busy, and starts an emission that a send makes
  /// at once (a leading edge) later, by at most the interval. Deadlines are
  /// not held: a debounce fires on its instant. 10 ms by default; zero folds
  /// after each send; at most half of ``foldGrace``.
  public var foldInterval: Duration = .milliseconds(10)

  /// How many emissions, of distinct keys, this process delivers at once.
  /// An emission holds its place from its lease until its removal, one
  /// round trip after its handler returns, so a busy process holds more
  /// places than it runs handlers; an emission that finds none waits for a
  /// later round. 64 by default (at 16, in a run of fleet-compare's load, a
  /// process emitting 250 times a second left 44% of its emissions to wait,
  /// and p99 lateness was 312 ms; at 64, 54 ms).
  public var maximumConcurrentDeliveries = 64

  /// How many keys one fold takes in one transaction, and one fire of due
  /// keys (`pace_fire`) in one statement. 500 by default.
  public var foldBatchSize = 500

  /// How long an emission whose handler threw waits before it is delivered
  /// again (by any process). 1 s by default.
  public var retryDelay: Duration = .seconds(1)

  /// How long a send, and the first send's and the worker's check of the
  /// namespace's schema, each wait for the database to answer before they
  /// throw a ``FleetPacerError``: a database that is away is an error, not
  /// a hang. Also about how long a starting worker waits for a namespace
  /// not yet migrated (or at an older version) to be migrated, and the most a
  /// stopping worker waits for its calls still under way. 10 s by default.
  public var answerTimeout: Duration = .seconds(10)

  /// The longest one round of the worker (a fold, a delivery round) may
  /// wait for the database; a round that waits longer fails and is tried
  /// again on a new connection. 30 s by default; at least 1 s.
  public var roundTimeout: Duration = .seconds(30)

  /// Whether folded sends are kept in the namespace's `send_log` table, with
  /// their instants, so that a test or an audit can replay exactly what the
  /// policies were told. Off by default: the table grows with every send.
  public var keepsSendLog = false

  /// For the benchmark's comparison only: the worker polls every
  /// ``safetyPollInterval`` for due work, as job systems do, with no local
  /// timer, no notification and no prompt fold of its own sends.
  package var pollsOnly = false

  /// The defaults.
  public init() {}
}
