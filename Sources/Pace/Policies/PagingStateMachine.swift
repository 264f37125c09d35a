//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The paging policy behind ``Pager``: told that a page was requested, that
/// a load returned or threw, or that the list is refreshed or cancelled, it
/// answers which page to load, which load to cancel and what a result does
/// to the list. Pure, like the other policies: no task, no lock, no items.
///
/// One load runs at a time; the decision is ``OnBusyStateMachine``'s, with
/// ``OnBusy/drop``. Every load has a generation, and a result lands only if
/// its generation is the running one: a refresh or a cancel makes the late
/// result of the load before it stale.
///
///     var paging = PagingStateMachine<Int>()
///     paging.nextPageRequested()                    // .start(cursor: nil, generation: 1)
///     paging.nextPageRequested()                    // .none: a load runs
///     paging.pageLoaded(next: 2, generation: 1)     // .replace: the first page
///     paging.nextPageRequested()                    // .start(cursor: 2, generation: 2)
///     paging.refreshRequested()                     // .restart(cancelling: 2, cursor: nil, generation: 3)
///     paging.pageLoaded(next: 3, generation: 2)     // .drop: page 2 of the old list never lands
package struct PagingStateMachine<Cursor> {
  /// What a request asks the driver to do.
  package enum Action {
    /// Nothing: a load runs, the last page was loaded, or loading waits for a retry.
    case none
    /// Load the page at `cursor` (`nil`: the first) as `generation`.
    case start(cursor: Cursor?, generation: UInt64)
    /// Cancel the load of `cancelling`, and load the page at `cursor` as `generation`, at once.
    case restart(cancelling: UInt64, cursor: Cursor?, generation: UInt64)
    /// Cancel the load of `generation`; its result will be stale.
    case cancel(generation: UInt64)
  }

  /// What the end of a load does to the list.
  package enum Landing: Hashable, Sendable {
    /// Nothing: the load was refreshed or cancelled away, and its result is dropped.
    case drop
    /// The page's items go after the list's.
    case append
    /// The page is the first: its items replace the list's.
    case replace
    /// The load threw: show the error; loading waits for a retry or a refresh.
    case pause
  }

  /// The page the next load asks for.
  enum Next {
    /// The first page: nothing was loaded yet, or the list is being refreshed.
    case first
    /// The page that starts at this cursor.
    case after(Cursor)
    /// None: the last page said there is no next one.
    case end
  }

  private var loads = OnBusyStateMachine<Cursor?>(.drop)
  private var next = Next.first
  /// Whether the last load threw, and no page has landed since.
  package private(set) var isPaused = false

  /// Creates the policy for a list of which nothing is loaded yet.
  package init() {}

  /// Whether a load runs.
  package var isLoading: Bool {
    loads.runningGeneration != nil
  }

  /// Whether there is a page to load: false once the last page has landed.
  package var hasMore: Bool {
    if case .end = next { return false }
    return true
  }

  /// The next page is wanted (a list nearing its end, a button).
  package mutating func nextPageRequested() -> Action {
    guard !isPaused else {
      return .none  // A load threw: only a retry or a refresh loads again.
    }
    return load()
  }

  /// The page that failed is wanted again; without a failure, the next page.
  package mutating func retryRequested() -> Action {
    load()
  }

  /// The list starts again from its first page (pull to refresh): a running
  /// load is cancelled, and its result will be stale.
  package mutating func refreshRequested() -> Action {
    next = .first
    switch loads.cancelled() {
    case .cancelAll(let cancelling, _):
      // A load runs: it goes, the first page starts at once.
      guard case .start(let cursor, let generation) = start() else { preconditionFailure("idle always starts") }
      return .restart(cancelling: cancelling, cursor: cursor, generation: generation)
    case .none:
      // Nothing runs.
      return start()
    case .start, .wait, .drop, .restart:
      preconditionFailure("cancelled() only cancels")
    }
  }

  /// The load of `generation` returned a page whose next page starts at `cursor` (`nil`: none).
  package mutating func pageLoaded(next cursor: Cursor?, generation: UInt64) -> Landing {
    guard finish(generation) else {
      return .drop  // Refreshed or cancelled away: a late page of an old list.
    }
    let landing: Landing
    if case .first = next { landing = .replace } else { landing = .append }
    next = cursor.map(Next.after) ?? .end
    isPaused = false
    return landing
  }

  /// The load of `generation` threw.
  package mutating func loadFailed(generation: UInt64) -> Landing {
    guard finish(generation) else {
      return .drop  // Refreshed or cancelled away: its error is no longer news.
    }
    isPaused = true
    return .pause
  }

  /// The running load is cancelled (the list goes away, or its owner says
  /// so); the next request loads the same page again.
  package mutating func cancelled() -> Action {
    switch loads.cancelled() {
    case .cancelAll(let cancelling, _):
      // A load runs: it goes.
      return .cancel(generation: cancelling)
    case .none:
      // Nothing runs.
      return .none
    case .start, .wait, .drop, .restart:
      preconditionFailure("cancelled() only cancels")
    }
  }

  private mutating func load() -> Action {
    if case .end = next {
      return .none  // The last page has landed: never load past the end.
    }
    return start()
  }

  private mutating func start() -> Action {
    let cursor: Cursor?
    switch next {
    case .first:
      // Nothing loaded yet, or a refresh.
      cursor = nil
    case .after(let after):
      // The list goes on from here.
      cursor = after
    case .end:
      preconditionFailure("Invalid state \(next) for start(): past the end")
    }
    switch loads.workRequested(cursor) {
    case .start(let cursor, let generation):
      // No load runs.
      return .start(cursor: cursor, generation: generation)
    case .drop:
      // A load runs: never two at once.
      return .none
    case .none, .wait, .restart, .cancelAll:
      preconditionFailure("drop only starts or drops")
    }
  }

  /// Ends the load of `generation`; whether it was the running one.
  private mutating func finish(_ generation: UInt64) -> Bool {
    guard loads.runningGeneration == generation else { return false }
    _ = loads.workFinished(generation: generation)
    return true
  }
}

extension PagingStateMachine: Sendable where Cursor: Sendable {}
extension PagingStateMachine.Action: Equatable where Cursor: Equatable {}
extension PagingStateMachine.Action: Sendable where Cursor: Sendable {}
extension PagingStateMachine.Next: Sendable where Cursor: Sendable {}
