/**
 * Extra validation rules run on every document before execution.
 * - Introspection off (`--enable-graphql-introspection=false`, docs/configuration.md: "false prevents schema
 *   discovery"): `__schema` and `__type` are refused; `__typename` stays, clients need it.
 * - A cap on root fields per operation: aliases would otherwise let one HTTP request run an operation (a
 *   login, say) hundreds of times, side-stepping any per-request limit.
 */
import { GraphQLError, Kind, type ASTVisitor, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';
import { GRAPHQL_ERROR_CODES } from '../../kernel/errors.ts';

export const MAX_ROOT_FIELDS = 20;

export function introspectionDisabledRule(context: ValidationContext): ASTVisitor {
  return {
    Field(node) {
      const name = node.name.value;
      if (name !== '__schema' && name !== '__type') return;
      context.reportError(new GraphQLError(`GraphQL introspection is disabled on this server (the query asked for ${name})`, {
        nodes: node,
        extensions: { code: GRAPHQL_ERROR_CODES.permission_denied },
      }));
    },
  };
}

function countRootFields(context: ValidationContext, selectionSet: SelectionSetNode, seen: Set<string>): number {
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value !== '__typename') count += 1;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      count += countRootFields(context, selection.selectionSet, seen);
    } else {
      // Fragment cycles are reported by the standard rules; `seen` only keeps this count from looping.
      const name = selection.name.value;
      const fragment = context.getFragment(name);
      if (!fragment || seen.has(name)) continue;
      seen.add(name);
      count += countRootFields(context, fragment.selectionSet, seen);
    }
  }
  return count;
}

export function maxRootFieldsRule(limit: number): ValidationRule {
  return (context) => ({
    OperationDefinition(node) {
      const count = countRootFields(context, node.selectionSet, new Set());
      if (count <= limit) return;
      context.reportError(new GraphQLError(`an operation may select at most ${limit} root fields; this one selects ${count}`, {
        nodes: node,
        extensions: { code: GRAPHQL_ERROR_CODES.invalid_argument },
      }));
    },
  });
}

export function graphqlValidationRules(options: { introspection: boolean }): ValidationRule[] {
  const rules = [maxRootFieldsRule(MAX_ROOT_FIELDS)];
  if (!options.introspection) rules.push(introspectionDisabledRule);
  return rules;
}
