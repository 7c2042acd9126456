/**
 * Instance branding (--organization-name, --organization-logo), written by the server into each app's
 * index.html as <meta> tags when it serves the page (server/transports/http/ui), so the first paint already
 * shows the right name: no inline script (Content-Security-Policy) and no extra round trip.
 */
export interface Branding {
  organizationName: string;
  organizationLogo: string;
  /** --enable-playground: the console links to its GraphQL playground. */
  playground: boolean;
}

function metaContent(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
}

export function readBranding(): Branding {
  return {
    organizationName: metaContent('portcullis:organization-name') || 'Portcullis',
    organizationLogo: metaContent('portcullis:organization-logo'),
    playground: metaContent('portcullis:playground') === 'on',
  };
}
