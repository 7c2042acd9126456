/**
 * An operation is a value, defined once and served by GraphQL, REST and gRPC
 * (docs/architecture.md#one-operation-three-protocols). The protocol names are derived from the operation's name:
 * GraphQL `name` (admin: `_name`), REST `POST /v1/name` (admin: `/v1/admin/name`), gRPC `Name` on the
 * public or admin service. Overrides exist for the paths the released API spells differently.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Static, TObject } from './schema.ts';
import type { OpContext } from '../kernel/context.ts';
import type { AuthKind } from './auth.ts';

export type HandlerContext = OpContext & {
  readonly em: EntityManager;
  /**
   * Work that must wait until the operation's writes are committed and must not hold the database meanwhile
   * (sending an email or an SMS). Runs in order once the handler has succeeded; dropped when it fails.
   */
  readonly afterCommit: (task: () => Promise<void>) => void;
};

export interface OperationSpec<I extends TObject, O extends TObject> {
  /** The operation's name (docs/operations.md), snake_case, without the GraphQL underscore. */
  name: string;
  admin: boolean;
  /** GraphQL root type; also decides whether the handler runs in a transaction. */
  kind: 'query' | 'mutation';
  description: string;
  input: I;
  output: O;
  auth: AuthKind;
  graphql?: {
    /** Defaults to name, or `_name` for admin operations. */
    name?: string;
    /** Name of the single input argument; default `params`. */
    argName?: string;
    /** The argument may be omitted (docs/operations.md#session: `session`, `validate_session`). */
    nullableArg?: boolean;
    /** Input fields become top-level arguments instead of one input object. */
    flatArgs?: boolean;
  };
  /** false: not served over REST. */
  rest?: { method?: 'GET' | 'POST'; path?: string } | false;
  /** false: not served over gRPC. */
  grpc?: { method?: string } | false;
  /** Runs the handler in a database transaction; default true for mutations. */
  transaction?: boolean;
  handler: (input: Static<I>, ctx: HandlerContext) => Promise<Static<O>>;
}

export interface Operation<I extends TObject = TObject, O extends TObject = TObject> extends OperationSpec<I, O> {
  readonly graphqlName: string;
  readonly graphqlArgName: string;
  /** undefined when the operation is not served over REST. */
  readonly restRoute?: { method: 'GET' | 'POST'; path: string };
  /** undefined when the operation is not served over gRPC. */
  readonly grpcMethod?: string;
  readonly grpcService: 'PublicService' | 'AdminService';
}

export function pascalCase(snake: string): string {
  return snake
    .split(/[_/]/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

export function defineOperation<I extends TObject, O extends TObject>(spec: OperationSpec<I, O>): Operation<I, O> {
  const restRoute =
    spec.rest === false
      ? undefined
      : {
          method: spec.rest?.method ?? 'POST',
          path: spec.rest?.path ?? (spec.admin ? `/v1/admin/${spec.name}` : `/v1/${spec.name}`),
        };
  return {
    ...spec,
    graphqlName: spec.graphql?.name ?? (spec.admin ? `_${spec.name}` : spec.name),
    graphqlArgName: spec.graphql?.argName ?? 'params',
    restRoute,
    grpcMethod: spec.grpc === false ? undefined : (spec.grpc?.method ?? pascalCase(spec.name)),
    grpcService: spec.admin ? 'AdminService' : 'PublicService',
  };
}

/** Operations are stored in the registry with their schemas erased to TObject. */
export type AnyOperation = Operation<TObject, TObject>;
