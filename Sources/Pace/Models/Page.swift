//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// One page of a paged list, as a ``Pager``'s loader returns it: its items
/// and where the next page starts.
///
/// ```swift
/// let pager = Pager<Post, String> { cursor in
///   let response = try await api.posts(after: cursor)   // nil: the first page
///   return Page(items: response.posts, next: response.nextCursor)
/// }
/// ```
///
/// A `nil` ``next`` ends the list: the pager never asks for a page after it.
/// An empty page with a cursor is a page like any other (the list goes on).
public struct Page<Item, Cursor> {
  /// The page's items, in the order the list shows them.
  public var items: [Item]
  /// Where the next page starts, or `nil` when this page is the last.
  public var next: Cursor?

  /// Creates a page of `items`, followed by the page at `next` (`nil`: none).
  ///
  /// ```swift
  /// Page(items: ["a", "b"], next: 2)   // the page at cursor 2 comes next
  /// Page(items: ["z"], next: nil)      // the last page
  /// ```
  public init(items: [Item], next: Cursor?) {
    self.items = items
    self.next = next
  }
}

extension Page: Sendable where Item: Sendable, Cursor: Sendable {}
extension Page: Equatable where Item: Equatable, Cursor: Equatable {}
