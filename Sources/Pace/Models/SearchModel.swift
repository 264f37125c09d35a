//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

public import Observation

/// Search as you type, done right: set ``query``, read ``results``.
///
/// ```swift
/// struct SearchView: View {
///   @State private var model = SearchModel<Book>(debounce: .milliseconds(300)) { query in
///     try await library.books(matching: query)
///   }
///   var body: some View {
///     List(model.results) { BookRow(book: $0) }
///       .searchable(text: $model.query)
///       .overlay { if model.isLoading { ProgressView() } }
///   }
/// }
/// ```
///
/// Built from Pace's pieces: a ``Debouncer`` waits for the typing to pause;
/// a query equal to the last one searched is not searched again; a
/// ``LatestTask`` runs the search, so a newer search cancels the one before
/// and a superseded search never shows its results.
///
/// - An empty query (or only spaces) clears the results at once, and
///   cancels the search in flight.
/// - Results are shown only for the query they belong to: a response that
///   arrives after the query has changed is dropped.
/// - ``isLoading`` is true while a search runs; ``error`` holds the last
///   search's failure until the next search starts.
///
/// It is `@Observable` (from the toolchain's Observation module), so SwiftUI
/// views redraw when it changes, on Apple platforms and on Linux alike.
@MainActor
@Observable
public final class SearchModel<Result: Sendable> {
  /// What the model did, in order; see ``onEvent``.
  public enum Event: Sendable, Hashable {
    /// The typing paused on `query`.
    case debounced(String)
    /// `query` is the query searched last: not searched again.
    case skipped(String)
    /// A search for `query` started.
    case started(String)
    /// The search for `query` was cancelled: a newer one started, or the query was cleared.
    case cancelled(String)
    /// The results of the search for `query` arrived after the query changed: not shown.
    case discarded(String)
    /// The results of the search for `query` are shown.
    case shown(String, count: Int)
    /// The search for `query` failed.
    case failed(String)
    /// The query became empty: no results.
    case cleared
  }

  /// The text to search for; set it as the user types.
  public var query: String = "" {
    didSet {
      if query != oldValue { queryChanged() }
    }
  }

  /// The results of the last search, for ``resultsQuery``.
  public private(set) var results: [Result] = []

  /// The query ``results`` belong to; `nil` when there are none.
  public private(set) var resultsQuery: String?

  /// Whether a search runs.
  public private(set) var isLoading = false

  /// Why the last search failed; `nil` once a new search starts.
  public private(set) var error: (any Error)?

  /// Called with every ``Event``, on the main actor: for logs, analytics or
  /// a timeline such as `pace demo`'s.
  @ObservationIgnored public var onEvent: (@MainActor (Event) -> Void)?

  @ObservationIgnored private let search: @Sendable (String) async throws -> [Result]
  @ObservationIgnored private let searches = LatestTask<[Result]>()
  @ObservationIgnored private var queries: Debouncer<String>?
  /// The query of the search started last, until it fails or is dropped.
  @ObservationIgnored private var lastSearched: String?
  /// Searches begun and ended, for tests that wait until every search ended
  /// (under a lock: a waiting test's cancellation comes off the main actor).
  @ObservationIgnored private let searchesProgress = LockedState(SearchProgress())

  /// Creates a search model.
  ///
  ///     let model = SearchModel<String>(debounce: .milliseconds(300)) { query in
  ///       try await api.search(query)
  ///     }
  ///     model.query = "swift"
  ///
  /// - Parameters:
  ///   - interval: How long the typing must pause before a search.
  ///   - clock: The clock that measures it; the continuous clock by default.
  ///   - search: Runs a search; it is cancelled when a newer search starts.
  public init<C: Clock>(
    debounce interval: Duration = .milliseconds(300),
    clock: C = ContinuousClock(),
    search: @escaping @Sendable (String) async throws -> [Result]
  ) where C.Duration == Duration {
    self.search = search
    queries = Debouncer<String>(.debounce(for: interval), clock: clock, owner: self) { @MainActor model, query in
      model.debounced(query)
    }
  }

  /// Searches the current query again, at once: after an error, or to refresh.
  public func retry() {
    let query = Self.normalized(query)
    guard !query.isEmpty else { return }
    queries?.cancel()
    lastSearched = nil
    debounced(query)
  }

  /// Returns once every search started so far has ended and its outcome is
  /// shown; for tests, not API.
  package func waitUntilSearchesEnded() async {
    await searchesProgress.wait(in: \.waiters, until: { $0 }, now: \.isSettled)
  }

  /// A query as searched: without surrounding spaces.
  private static func normalized(_ query: String) -> String {
    String(query.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }

  private func queryChanged() {
    let query = Self.normalized(query)
    guard query.isEmpty else {
      queries?.send(query)
      return
    }
    // Cleared: at once, with no search left to land.
    queries?.cancel()
    lastSearched = nil
    searches.cancel()
    results = []
    resultsQuery = nil
    isLoading = false
    error = nil
    onEvent?(.cleared)
  }

  private func debounced(_ query: String) {
    guard query == Self.normalized(self.query) else { return }  // Pending when the query changed; cleared since.
    onEvent?(.debounced(query))
    guard query != lastSearched else {
      onEvent?(.skipped(query))
      return
    }
    lastSearched = query
    isLoading = true
    error = nil
    onEvent?(.started(query))
    let (searches, search) = (searches, search)
    searchesProgress.withLock { $0.begun += 1 }
    // Started at once, so that searches reach `LatestTask` in the order they
    // were made: a search that is no longer the latest never supersedes a
    // newer one.
    _ = startTask { [weak self] in
      do {
        let results = try await searches.run { try await search(query) }
        self?.show(results, for: query)
      } catch is CancellationError {
        self?.onEvent?(.cancelled(query))
      } catch {
        self?.failed(error, for: query)
      }
      self?.searchEnded()
    }
  }

  private func searchEnded() {
    let reached = searchesProgress.withLock { progress in
      progress.ended += 1
      return progress.isSettled ? progress.waiters.takeReached(true) : []
    }
    for waiter in reached { waiter.resume() }
  }

  private func show(_ results: [Result], for query: String) {
    isLoading = false
    guard query == Self.normalized(self.query) else {
      // The query moved on: these results belong to no query shown.
      lastSearched = nil
      onEvent?(.discarded(query))
      return
    }
    self.results = results
    resultsQuery = query
    onEvent?(.shown(query, count: results.count))
  }

  private func failed(_ error: any Error, for query: String) {
    isLoading = false
    lastSearched = nil  // Typing the same query again searches again.
    guard query == Self.normalized(self.query) else {
      onEvent?(.discarded(query))
      return
    }
    self.error = error
    onEvent?(.failed(query))
  }
}

/// How many searches began and ended, and the tests that wait until all ended.
private struct SearchProgress {
  var begun = 0
  var ended = 0
  var waiters = ProgressWaiters<Bool>()

  var isSettled: Bool { begun == ended }
}
