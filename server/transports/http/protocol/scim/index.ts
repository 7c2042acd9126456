/**
 * /scim/v2/ (RFC 7644): one base URL for every organization, since the bearer token names the organization
 * (what Entra ID and Okta expect). Users and Groups with POST, GET (one or a filtered, sorted, paged list),
 * PUT, PATCH and DELETE; ServiceProviderConfig, ResourceTypes and Schemas. Bodies: scim-body.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import {
  GROUP_VIEW, ScimError, USER_VIEW, applyPatch, createScimGroup, createScimUser, deleteScimGroup, deleteScimUser, equalityOf,
  etagOf, filterOf, findScimGroup, findScimUser, listResponse, listScimGroups, listScimUsers, project, readPatchBody, replaceScimGroup,
  replaceScimUser, resourceTypes, schemas, scimBaseUrl, serviceProviderConfig, toScimGroup, toScimUser, writableGroup, writableUser,
  type ScimScope,
} from '../../../../modules/scim/index.ts';
import { registerScimBodyParsers, requiredBody } from './scim-body.ts';
import { checkIfMatch, inScope, notModified, queryOf, scimAuthentication, scimErrorHandler, sendResource, SCIM_CONTENT_TYPE } from './scim-http.ts';

const BASE = '';
type Params = { id: string };

/** One resource type's handlers, so Users and Groups share the protocol and differ only in their service. */
interface ResourceKind<Row> {
  readonly path: string;
  readonly view: typeof USER_VIEW;
  create(scope: ScimScope, body: unknown): Promise<Row>;
  find(scope: ScimScope, id: string): Promise<Row>;
  replace(scope: ScimScope, row: Row, body: unknown): Promise<Row>;
  remove(scope: ScimScope, row: Row): Promise<void>;
  list(scope: ScimScope, equality?: { attribute: string; value: string }): Promise<Row[]>;
  represent(scope: ScimScope, row: Row): Record<string, unknown>;
  writable(row: Row): Record<string, unknown>;
  version(row: Row): number;
}

const users: ResourceKind<Awaited<ReturnType<typeof findScimUser>>> = {
  path: 'Users', view: USER_VIEW, create: createScimUser, find: findScimUser, replace: replaceScimUser, remove: deleteScimUser,
  list: listScimUsers, represent: toScimUser, writable: writableUser, version: (r) => r.link.version,
};
const groups: ResourceKind<Awaited<ReturnType<typeof findScimGroup>>> = {
  path: 'Groups', view: GROUP_VIEW, create: createScimGroup, find: findScimGroup, replace: replaceScimGroup, remove: deleteScimGroup,
  list: listScimGroups, represent: toScimGroup, writable: writableGroup, version: (r) => r.version,
};

/** What a handler answers, sent only after its transaction committed. */
type Answer = { status: number; resource?: Record<string, unknown>; version?: string; location?: string };

function registerResource<Row>(scope: FastifyInstance, deps: Deps, kind: ResourceKind<Row>): void {
  const url = `${BASE}/${kind.path}`;
  const answer = (request: FastifyRequest, status: number, s: ScimScope, row: Row): Answer => {
    const resource = kind.represent(s, row);
    const meta = resource.meta as { version: string; location: string };
    return { status, resource: project(kind.view, resource, queryOf(request)), version: meta.version, location: status === 201 ? meta.location : undefined };
  };
  const send = (reply: FastifyReply, result: Answer) => {
    if (!result.resource) {
      if (result.version) reply.header('etag', result.version);
      return reply.status(result.status).send();
    }
    return sendResource(reply, result.status, result.resource, result.version, result.location);
  };

  scope.post(url, async (request, reply) =>
    send(reply, await inScope(deps, request, async (s) => answer(request, 201, s, await kind.create(s, requiredBody(request))))));

  scope.get(url, async (request, reply) => {
    const query = queryOf(request);
    const matches = await filterOf(kind.view, query);
    const equality = query.filter ? await equalityOf(kind.view, query.filter) : undefined;
    const list = await inScope(deps, request, async (s) => listResponse(kind.view, (await kind.list(s, equality)).map((r) => kind.represent(s, r)), query, matches));
    return sendResource(reply, 200, list);
  });

  scope.get<{ Params: Params }>(`${url}/:id`, async (request, reply) =>
    send(reply, await inScope(deps, request, async (s) => {
      const row = await kind.find(s, request.params.id);
      const version = etagOf(kind.version(row));
      return notModified(request, version) ? { status: 304, version } : answer(request, 200, s, row);
    })));

  scope.put<{ Params: Params }>(`${url}/:id`, async (request, reply) =>
    send(reply, await inScope(deps, request, async (s) => {
      const row = await kind.find(s, request.params.id);
      checkIfMatch(request, etagOf(kind.version(row)));
      return answer(request, 200, s, await kind.replace(s, row, requiredBody(request)));
    })));

  scope.patch<{ Params: Params }>(`${url}/:id`, async (request, reply) => {
    const operations = readPatchBody(requiredBody(request));
    return send(reply, await inScope(deps, request, async (s) => {
      const row = await kind.find(s, request.params.id);
      checkIfMatch(request, etagOf(kind.version(row)));
      const patched = await applyPatch(kind.view, kind.writable(row), operations);
      return answer(request, 200, s, await kind.replace(s, row, patched));
    }));
  });

  scope.delete<{ Params: Params }>(`${url}/:id`, async (request, reply) =>
    send(reply, await inScope(deps, request, async (s) => {
      const row = await kind.find(s, request.params.id);
      checkIfMatch(request, etagOf(kind.version(row)));
      await kind.remove(s, row);
      return { status: 204 };
    })));
}

function listOf(resources: Record<string, unknown>[]): Record<string, unknown> {
  return { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: resources.length, itemsPerPage: resources.length, startIndex: 1, Resources: resources };
}

function registerDiscovery(scope: FastifyInstance, deps: Deps): void {
  const base = scimBaseUrl(deps.config);
  scope.get(`${BASE}/ServiceProviderConfig`, async (_request, reply) => sendResource(reply, 200, serviceProviderConfig(base)));
  scope.get(`${BASE}/ResourceTypes`, async (_request, reply) => sendResource(reply, 200, listOf(resourceTypes(base))));
  scope.get<{ Params: Params }>(`${BASE}/ResourceTypes/:id`, async (request, reply) => {
    const found = resourceTypes(base).find((r) => r.id === request.params.id);
    if (!found) throw ScimError.notFound(`ResourceType ${request.params.id} not found`);
    return sendResource(reply, 200, found);
  });
  scope.get(`${BASE}/Schemas`, async (_request, reply) => sendResource(reply, 200, listOf(schemas(base))));
  scope.get<{ Params: Params }>(`${BASE}/Schemas/:id`, async (request, reply) => {
    const found = schemas(base).find((r) => r.id === request.params.id);
    if (!found) throw ScimError.notFound(`Schema ${request.params.id} not found`);
    return sendResource(reply, 200, found);
  });
}

export async function registerScimRoutes(http: FastifyInstance, deps: Deps): Promise<void> {
  await http.register(async (scope) => {
    scope.setErrorHandler(scimErrorHandler);
    scope.setNotFoundHandler((_request, reply) => reply.status(404).type(SCIM_CONTENT_TYPE).send({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404', detail: 'no such SCIM endpoint' }));
    registerScimBodyParsers(scope);
    scope.addHook('preHandler', scimAuthentication(deps));
    registerDiscovery(scope, deps);
    registerResource(scope, deps, users);
    registerResource(scope, deps, groups);
  }, { prefix: '/scim/v2' });
}
