/** Paging limits of protocol.md §5. */
export const PAGING = Object.freeze({
  /** Records per page when the query gives no `limit`. */
  defaultLimit: 20,
  /** Records per page at most. */
  maxLimit: 1000,
  /** `skip + limit` at most. */
  maxDepth: 50_000,
  /** Facet rows when the query gives no `limit`. */
  defaultFacetLimit: 20,
  /** Facet rows at most. */
  maxFacetLimit: 1000,
});
