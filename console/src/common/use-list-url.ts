/**
 * A server-paged list's place kept in the URL (?q=&page=): a reload, the back button or a shared link shows
 * the same list.
 */
import { useEffect, useRef, useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { useSearchParams } from 'react-router';

const SEARCH_DEBOUNCE_MS = 300;

/** The page in the URL (?page=, from 1; anything else reads as the first). */
export function usePageInUrl() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const setPage = (next: number) => setParams({ page: String(next) });
  return { page, setPage };
}

/**
 * The search and the page in the URL (?q=&page=). `search` is the box's text, written to `q` debounced while
 * typing; `query` is what the list asks the server for.
 */
export function useSearchInUrl() {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [search, setSearch] = useState(query);
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  // The last search this page wrote to the URL: a change of `q` from elsewhere (back button) refills the box.
  const written = useRef(query);
  useEffect(() => {
    if (debounced === written.current) return;
    written.current = debounced;
    // A new search starts from its first page.
    if (debounced !== query) setParams(debounced ? { q: debounced } : {});
  }, [debounced, query, setParams]);
  useEffect(() => {
    if (query === written.current) return;
    written.current = query;
    setSearch(query);
  }, [query]);
  const setPage = (next: number) => setParams({ ...(query ? { q: query } : {}), page: String(next) });
  return { query, page, search, setSearch, setPage };
}
