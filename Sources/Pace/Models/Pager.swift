//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Observation

/// Loads a paged list one page at a time, on demand: infinite scroll that
/// never loads a page twice, never loads past the end, and never lets a page
/// of an old list land in a refreshed one.
///
/// ```swift
/// @MainActor @Observable final class FeedModel {
///   let posts = Pager<Post, String> { cursor in   // cursor nil: the first page
///     let response = try await api.posts(after: cursor)
///     return Page(items: response.posts, next: response.nextCursor)   // next nil: the last page
///   }
/// }
///
/// struct FeedView: View {
///   let model: FeedModel
///   var body: some View {
///     List(model.posts.items) { post in
///       PostRow(post).onAppear { model.posts.loadNextIfNeeded(for: post) }
///     }
///     .task { model.posts.loadNext() }
///     .refreshable { await model.posts.refresh() }
///   }
/// }
/// ```
///
/// A pager is the model of a list on screen, so it lives on the main actor
/// and is `@Observable`: ``items``, ``isLoading``, ``error`` and ``hasMore``
/// change only on the main actor, and only when their value changes. The
/// loader runs off the main actor, in a task the pager owns.
///
/// - One load at a time: the guard takes effect synchronously, before any
///   suspension, so two ``loadNext()`` calls in the same main-actor turn
///   start one load. A request while a load runs is dropped, not queued.
/// - Never past the end: once a page has no ``Page/next`` cursor,
///   ``hasMore`` is false and nothing loads until ``refresh()``.
/// - An error keeps the items and ends the load; ``error`` holds it until a
///   page lands. Loading then waits for ``retry()`` (the page that failed)
///   or ``refresh()``: ``loadNext()`` does nothing, so a failing server is
///   not asked again at every row that appears.
/// - ``refresh()`` cancels the running load and loads the first page; the
///   items stay until it arrives, then it replaces them. A result of a load
///   that a refresh or ``cancel()`` superseded is dropped, even when the
///   loader ignores its cancellation: which load is current is decided by a
///   generation number, as in ``LatestTask``.
/// - ``cancel()`` and the pager's deinit cancel the running load. The load's
///   task holds the pager weakly, so a running load never keeps it alive.
///
/// The decisions are a pure policy's, with ``OnBusy/drop`` for "one load at
/// a time"; the pager only runs its answers.
@MainActor @Observable
public final class Pager<Item: Sendable, Cursor: Sendable> {
  /// The items of every page loaded so far, in order.
  public private(set) var items: [Item] = []
  /// Whether a page is loading.
  public private(set) var isLoading = false
  /// The error the last load threw, until a page lands.
  public private(set) var error: (any Error)?
  /// Whether there is a page to load: false once a page had no next cursor,
  /// and true again from the start of a refresh.
  public private(set) var hasMore = true

  private let loadPage: @Sendable (Cursor?) async throws -> Page<Item, Cursor>
  @ObservationIgnored private var paging = PagingStateMachine<Cursor>()
  @ObservationIgnored private var task: Task<Void, Never>?
  /// Whether no load runs, mirrored under a lock for the tasks that wait
  /// for it (their cancellation handlers run off the main actor).
  @ObservationIgnored private let idle = LockedState(Idle())
  /// Called each time a load's task ends, with what its result did (`.drop`:
  /// superseded); for tests, not API.
  @ObservationIgnored package var didEndLoad: ((PagingStateMachine<Cursor>.Landing) -> Void)?

  /// Creates a pager that loads pages with `loadPage`. Nothing loads until
  /// the first ``loadNext()`` or ``refresh()``.
  ///
  /// ```swift
  /// let numbers = Pager<Int, Int> { cursor in
  ///   let start = cursor ?? 0
  ///   return Page(items: Array(start..<start + 20), next: start + 20 < 100 ? start + 20 : nil)
  /// }
  /// ```
  ///
  /// - Parameter loadPage: Loads the page that starts at its cursor (`nil`:
  ///   the first page). It runs off the main actor, and is cancelled when a
  ///   refresh or ``cancel()`` supersedes its load.
  public init(loadPage: @escaping @Sendable (Cursor?) async throws -> Page<Item, Cursor>) {
    self.loadPage = loadPage
  }

  deinit {
    task?.cancel()
  }

  /// Starts loading the next page, unless a load runs, the last page has
  /// landed, or the last load threw (then ``retry()`` loads).
  ///
  /// ```swift
  /// Button("Load more") { pager.loadNext() }
  /// ```
  ///
  /// It returns at once; ``waitUntilIdle()`` waits for the load. The guard
  /// takes effect before it returns: a second call in the same main-actor
  /// turn starts nothing.
  public func loadNext() {
    perform(paging.nextPageRequested())
  }

  /// Starts loading the next page when the item at `index` is one of the
  /// last `threshold` items, as ``loadNext()`` does.
  ///
  /// ```swift
  /// ForEach(Array(pager.items.enumerated()), id: \.offset) { index, item in
  ///   Row(item).onAppear { pager.loadNextIfNeeded(at: index) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - index: The position in ``items`` of an item that appeared. An index
  ///     outside ``items`` (a row of a list a refresh replaced) loads nothing.
  ///   - threshold: How close to the end an item must be; below 1 counts as 1
  ///     (the last item only).
  public func loadNextIfNeeded(at index: Int, threshold: Int = 5) {
    guard items.indices.contains(index), items.count - index <= max(threshold, 1) else { return }
    loadNext()
  }

  /// Starts loading the next page when `item` is one of the last
  /// `threshold` items, as ``loadNext()`` does.
  ///
  /// ```swift
  /// List(pager.items) { item in
  ///   Row(item).onAppear { pager.loadNextIfNeeded(for: item) }
  /// }
  /// ```
  ///
  /// It looks only at the last `threshold` items, however long the list.
  ///
  /// - Parameters:
  ///   - item: An item that appeared; it is found by its `id`.
  ///   - threshold: How close to the end the item must be; below 1 counts as
  ///     1 (the last item only).
  public func loadNextIfNeeded(for item: Item, threshold: Int = 5) where Item: Identifiable {
    guard items.suffix(max(threshold, 1)).contains(where: { $0.id == item.id }) else { return }
    loadNext()
  }

  /// Loads again the page whose load threw; with no error, it is ``loadNext()``.
  ///
  /// ```swift
  /// if pager.error != nil { Button("Retry") { pager.retry() } }
  /// ```
  ///
  /// A load that runs is left alone, and ``error`` stays until a page lands.
  public func retry() {
    perform(paging.retryRequested())
  }

  /// Starts the list again from its first page (pull to refresh), and
  /// returns once no load runs.
  ///
  /// ```swift
  /// List(pager.items) { … }
  ///   .refreshable { await pager.refresh() }
  /// ```
  ///
  /// Before its first suspension, it cancels the running load and starts
  /// the first page: a result of the cancelled load never lands, even if the
  /// loader ignores its cancellation. ``items`` stay on screen until the
  /// first page arrives, which replaces them; if its load throws, they stay,
  /// and ``retry()`` loads the first page again. Cancelling the task that
  /// awaits it ends the wait, not the load.
  public func refresh() async {
    perform(paging.refreshRequested())
    await waitUntilIdle()
  }

  /// Cancels the running load, if any; its result is dropped, and the next
  /// ``loadNext()`` loads the same page again.
  ///
  /// ```swift
  /// .onDisappear { pager.cancel() }
  /// ```
  public func cancel() {
    perform(paging.cancelled())
  }

  /// Returns once no load runs: at once when none does.
  ///
  /// ```swift
  /// pager.loadNext()
  /// await pager.waitUntilIdle()   // the page landed, or its error is in `error`
  /// ```
  ///
  /// Cancelling the waiting task ends the wait at once; the load goes on.
  public func waitUntilIdle() async {
    guard isLoading else { return }
    await idle.wait(in: \.waiters, until: { $0 }, now: \.isIdle)
  }

  private func perform(_ action: PagingStateMachine<Cursor>.Action) {
    switch action {
    case .none:
      return
    case .start(let cursor, let generation):
      start(cursor, generation: generation)
    case .restart(_, let cursor, let generation):
      task?.cancel()
      start(cursor, generation: generation)
    case .cancel:
      task?.cancel()
      task = nil
    }
    publish()
  }

  private func start(_ cursor: Cursor?, generation: UInt64) {
    let loadPage = self.loadPage
    task = Task { [weak self] in
      let result: Result<Page<Item, Cursor>, any Error>
      do {
        result = .success(try await loadPage(cursor))
      } catch {
        result = .failure(error)
      }
      self?.loadEnded(generation, with: result)
    }
  }

  private func loadEnded(_ generation: UInt64, with result: Result<Page<Item, Cursor>, any Error>) {
    let landing =
      switch result {
      case .success(let page): paging.pageLoaded(next: page.next, generation: generation)
      case .failure: paging.loadFailed(generation: generation)
      }
    switch (landing, result) {
    case (.drop, _):
      break  // A refresh or cancel() superseded this load: its result never lands.
    case (.append, .success(let page)):
      items.append(contentsOf: page.items)
      if error != nil { error = nil }
    case (.replace, .success(let page)):
      items = page.items
      if error != nil { error = nil }
    case (.pause, .failure(let failure)):
      error = failure
    case (.append, .failure), (.replace, .failure), (.pause, .success):
      preconditionFailure("Invalid landing \(landing) for the result \(result)")
    }
    if landing != .drop {
      task = nil
      publish()
    }
    didEndLoad?(landing)
  }

  /// Shows the policy's state, writing only what changed (so observers hear
  /// only real changes), and wakes the waiters once no load runs.
  private func publish() {
    if isLoading != paging.isLoading { isLoading = paging.isLoading }
    if hasMore != paging.hasMore { hasMore = paging.hasMore }
    let isIdle = !paging.isLoading
    let reached = idle.withLock { idle in
      idle.isIdle = isIdle
      return isIdle ? idle.waiters.takeReached(true) : []
    }
    for waiter in reached { waiter.resume() }
  }
}

/// Whether no load runs, and the tasks that wait until then.
private struct Idle {
  var isIdle = true
  var waiters = ProgressWaiters<Bool>()
}
