/**
 * /scim/v2/Users and /scim/v2/Groups (RFC 7644 section 3): POST creates (section 3.3, 201 with Location), GET
 * reads one or a filtered, sorted, paged list (section 3.4), PUT replaces (section 3.5.1), PATCH modifies
 * (section 3.5.2), DELETE removes (section 3.6, 204); entity tags per section 3.14. One base URL for every
 * organization, since the bearer token names the organization (what Entra ID and Okta expect).
 */
import { defineEndpoint, type Endpoint, type EndpointAnswer, type EndpointRequest } from '../../ops/endpoint.ts';
import { GROUP_VIEW, USER_VIEW } from './scim-attributes.ts';
import { createScimGroup, deleteScimGroup, findScimGroup, replaceScimGroup, toScimGroup } from './scim-groups.service.ts';
import { patchAnsweredEmpty, patchScimGroup } from './scim-group-patch.ts';
import { applyPatch, readPatchBody, type PatchOperation } from './scim-patch.ts';
import { listResources, type ListSource } from './scim-list.ts';
import { groupListSource, userListSource } from './scim-list-sources.ts';
import { project, type ListQuery } from './scim-query.ts';
import { authenticateScimRequest, checkIfMatch, inScope, notModified, requiredBody, scimAnswer, SCIM_CSRF } from './scim-request.ts';
import { etagOf, type ScimScope } from './scim-scope.ts';
import { createScimUser, deleteScimUser, findScimUser, replaceScimUser, toScimUser, writableUser } from './scim-users.service.ts';

/** One resource type's services, so Users and Groups share the protocol and differ only in their service. */
interface ResourceKind<Row> {
  /** The path segment and, singular, the name of its endpoints. */
  readonly path: 'Users' | 'Groups';
  readonly singular: 'user' | 'group';
  readonly view: typeof USER_VIEW;
  create(scope: ScimScope, body: unknown): Promise<Row>;
  /** `query`: the read's projection, so that a kind may leave out what it drops (a group's members). */
  find(scope: ScimScope, id: string, query?: ListQuery): Promise<Row>;
  replace(scope: ScimScope, row: Row, body: unknown): Promise<Row>;
  /** PATCH (RFC 7644 section 3.5.2): the operations applied, the result stored. */
  patch(scope: ScimScope, row: Row, operations: readonly PatchOperation[], query: ListQuery): Promise<Row>;
  /** Whether the PATCH answer is 204 No Content rather than the resource (section 3.5.2 allows either). */
  patchAnsweredEmpty(row: Row, query: ListQuery): boolean;
  remove(scope: ScimScope, row: Row): Promise<void>;
  /** The rows of its list (scim-list.ts). */
  listSource(scope: ScimScope): ListSource;
  represent(scope: ScimScope, row: Row): Record<string, unknown>;
  version(row: Row): number;
}

const users: ResourceKind<Awaited<ReturnType<typeof findScimUser>>> = {
  path: 'Users', singular: 'user', view: USER_VIEW, create: createScimUser, find: findScimUser, replace: replaceScimUser,
  patch: async (scope, row, operations) => replaceScimUser(scope, row, await applyPatch(USER_VIEW, writableUser(row), operations)),
  patchAnsweredEmpty: () => false,
  remove: deleteScimUser, listSource: userListSource, represent: toScimUser, version: (r) => r.link.version,
};
const groups: ResourceKind<Awaited<ReturnType<typeof findScimGroup>>> = {
  path: 'Groups', singular: 'group', view: GROUP_VIEW, create: createScimGroup, find: findScimGroup, replace: replaceScimGroup,
  patch: patchScimGroup, patchAnsweredEmpty,
  remove: deleteScimGroup, listSource: groupListSource, represent: toScimGroup, version: (r) => r.group.version,
};

function resourceEndpoints<Row>(kind: ResourceKind<Row>): Endpoint[] {
  const collection = `/scim/v2/${kind.path}`;
  const one = `${collection}/:id`;
  /** The resource as the query's attributes select it, with its version and, on 201, its location. */
  const answer = (request: EndpointRequest, status: number, scope: ScimScope, row: Row): EndpointAnswer => {
    const resource = kind.represent(scope, row);
    const meta = resource.meta as { version: string; location: string };
    return scimAnswer(status, project(kind.view, resource, request.query), meta.version, status === 201 ? meta.location : undefined);
  };
  const endpoint = (name: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, handler: Endpoint['handler']) =>
    defineEndpoint({ name: `scim_${name}`, methods: [method], path, csrf: SCIM_CSRF, body: 'json', errors: 'scim', handler });

  return [
    endpoint(`create_${kind.singular}`, 'POST', collection, async (request, ctx) => {
      const org = await authenticateScimRequest(ctx);
      return inScope(ctx, org, async (s) => answer(request, 201, s, await kind.create(s, requiredBody(request))));
    }),
    endpoint(`list_${kind.path.toLowerCase()}`, 'GET', collection, async (request, ctx) => {
      const org = await authenticateScimRequest(ctx);
      const list = await inScope(ctx, org, (s) => listResources(kind.view, kind.listSource(s), request.query));
      return scimAnswer(200, list);
    }),
    endpoint(`get_${kind.singular}`, 'GET', one, async (request, ctx) => {
      const org = await authenticateScimRequest(ctx);
      return inScope(ctx, org, async (s): Promise<EndpointAnswer> => {
        const row = await kind.find(s, request.params.id!, request.query);
        const version = etagOf(kind.version(row));
        // RFC 7644 section 3.14: the version the client holds is current.
        return notModified(request, version) ? { kind: 'empty', status: 304, headers: { etag: version } } : answer(request, 200, s, row);
      });
    }),
    endpoint(`replace_${kind.singular}`, 'PUT', one, async (request, ctx) => {
      const org = await authenticateScimRequest(ctx);
      return inScope(ctx, org, async (s) => {
        const row = await kind.find(s, request.params.id!);
        checkIfMatch(request, etagOf(kind.version(row)));
        return answer(request, 200, s, await kind.replace(s, row, requiredBody(request)));
      });
    }),
    endpoint(`patch_${kind.singular}`, 'PATCH', one, async (request, ctx) => {
      const org = await authenticateScimRequest(ctx);
      const operations = readPatchBody(requiredBody(request));
      return inScope(ctx, org, async (s): Promise<EndpointAnswer> => {
        const row = await kind.find(s, request.params.id!);
        checkIfMatch(request, etagOf(kind.version(row)));
        const patched = await kind.patch(s, row, operations, request.query);
        if (kind.patchAnsweredEmpty(patched, request.query)) return { kind: 'empty', status: 204, headers: { etag: etagOf(kind.version(patched)) } };
        return answer(request, 200, s, patched);
      });
    }),
    endpoint(`delete_${kind.singular}`, 'DELETE', one, async (request, ctx) => {
      const org = await authenticateScimRequest(ctx);
      return inScope(ctx, org, async (s): Promise<EndpointAnswer> => {
        const row = await kind.find(s, request.params.id!);
        checkIfMatch(request, etagOf(kind.version(row)));
        await kind.remove(s, row);
        return { kind: 'empty', status: 204 };
      });
    }),
  ];
}

export const scimResourceEndpoints: readonly Endpoint[] = [...resourceEndpoints(users), ...resourceEndpoints(groups)];
