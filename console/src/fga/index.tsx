/**
 * The console's FGA section (routed at /dashboard/fga/*) and the GraphQL playground page (/dashboard/playground).
 * Placeholders until the section is built.
 */
export function FgaPage() {
  return <div>FGA</div>;
}

export function PlaygroundPage() {
  return <div>Playground</div>;
}
