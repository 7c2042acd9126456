/**
 * The module graph of server/modules, checked by test/architecture/module-graph.test.ts (npm test).
 *
 * Layers, each importing only the layers below it (what a module is sits low, the flows spanning several
 * modules sit above them):
 *
 *   1. foundations  events, email, sms, passwords, limits, fga          (no other module)
 *   2. users        users, their contact, address proofs and roles, the admin user operations
 *   3. records      sessions, clients, organizations (with their domain rows), audit, verification, mfa
 *                   (factors and challenges), messages (the outbox), email-templates, webhooks
 *   4. tokens       tokens and the session lifecycle built on them (issue, refresh, validate, end);
 *                   org-domains (proof and routing of an organization's domains)
 *   5. accounts     the account flows: sign-up, sign-in policy and its MFA steps, profile, resets, the
 *                   super-admin account operations, message delivery, clean takeover
 *   6. flows above  social, webauthn (passkey ceremonies), oauth, org-sso, scim, saml-idp, authzen (the AuthZEN
 *                   PDP over fga), meta, admin
 *
 * A lower module that must let an upper one act defines a hook (server/kernel/hooks.ts) and the upper
 * module subscribes in its manifest: users' onAdminMfaReset (update_user's reset_mfa; mfa resets),
 * sessions' onSessionRevoked (revoke_session; tokens stop the session's tokens), mfa's onMfaReset (webauthn
 * deletes the passkeys), accounts' onAccountTakeover (oauth, social and org-sso drop what the previous holder
 * left). accounts declares the outbox worker in its manifest, with its delivery function (accounts/message-delivery.ts).
 *
 * Rules (both count type-only imports too):
 *   no-module-cycle  no cycle between module folders; a module's own subfolders may depend on each other.
 *   no-deep-import   a module imports another module only through that module's index.ts.
 * Only files inside a module folder are cruised: the composition root (modules/index.ts, ops/, transports/,
 * app.ts) imports every module and would close a cycle through itself that no module takes part in.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-module-cycle',
      comment: 'Modules form layers (see the top of this file): an upward call becomes a hook (server/kernel/hooks.ts).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^server/modules/([^/]+)' },
      to: { pathNot: '^server/modules/$1(/|$)', circular: true },
    },
    {
      name: 'no-deep-import',
      comment: "Import another module through its index.ts; export what you need there. A module's own files import their siblings directly.",
      severity: 'error',
      from: { path: '^server/modules/([^/]+)/' },
      to: { path: '^server/modules/[^/]+/', pathNot: ['^server/modules/$1/', '^server/modules/[^/]+/index\\.ts$'] },
    },
  ],
  options: {
    includeOnly: '^server/modules/[^/]+/',
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    // Type-only imports are dependencies too: a type pulled through a cycle is still a cycle in the design.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
