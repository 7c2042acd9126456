/**
 * The GraphQL playground (GraphiQL 5) against this server's /graphql, served entirely from the executable:
 * no CDN. GraphiQL 5 edits with Monaco, whose language services run in web workers; the `vite` worker set-up
 * makes Vite emit them as files of their own under assets/, which the page's CSP allows (worker-src 'self').
 * Loaded lazily (index.tsx), so the console's first load does not carry Monaco.
 *
 * Calls carry the admin cookie (same origin), so nothing secret is typed into the headers editor; headers
 * are never persisted (shouldPersistHeaders off), and tabs and history live in sessionStorage under a name
 * of their own, gone when the tab closes: a query may hold a secret (an `_admin_login` mutation), and
 * localStorage would keep it on disk indefinitely (OWASP ASVS 4.0 8.2.2: no sensitive data in browser storage).
 */
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import type { ComponentProps } from 'react';
import { GraphiQL } from 'graphiql';

type Fetcher = ComponentProps<typeof GraphiQL>['fetcher'];

const fetcher: Fetcher = async (params, options) => {
  const response = await fetch('/graphql', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { ...(options?.headers ?? {}), 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(params),
  });
  return response.json();
};

const NAMESPACE = 'portcullis-playground:';

/** sessionStorage, namespaced so the playground's keys cannot collide with anything else on this origin. */
const storage: Storage = {
  get length() {
    return Object.keys(sessionStorage).filter((key) => key.startsWith(NAMESPACE)).length;
  },
  clear() {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(NAMESPACE)) sessionStorage.removeItem(key);
  },
  key(index) {
    return Object.keys(sessionStorage).filter((key) => key.startsWith(NAMESPACE))[index]?.slice(NAMESPACE.length) ?? null;
  },
  getItem: (key) => sessionStorage.getItem(NAMESPACE + key),
  setItem: (key, value) => sessionStorage.setItem(NAMESPACE + key, value),
  removeItem: (key) => sessionStorage.removeItem(NAMESPACE + key),
};

const DEFAULT_QUERY = `{
  meta {
    version
  }
}
`;

export default function Playground() {
  return (
    <GraphiQL
      fetcher={fetcher}
      storage={storage}
      shouldPersistHeaders={false}
      showPersistHeadersSettings={false}
      defaultQuery={DEFAULT_QUERY}
      forcedTheme="light"
    />
  );
}
