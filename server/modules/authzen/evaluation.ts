/**
 * The Access Evaluation and Access Evaluations APIs (AuthZEN 1.0 sections 6 and 7) over the embedded FGA
 * engine: each evaluation is the check check_permissions makes for the same user, relation and object
 * (fga checkForSubject), so the two always agree (docs/authzen.md#mapping).
 *
 * Who may be asked about: the caller is a PDP client (pdp-client.ts), which check_permissions' subject rule
 * (fga/subject.ts) would treat as it treats a super-admin, since an administrator granted the client the PDP:
 * any subject may be named. Nothing else reaches here (the auth kind refuses it).
 *
 * Errors: a request the PDP cannot read at all (a required entity missing after the defaults of section
 * 7.1.1, an unknown semantic) is a 400 for the whole payload; within a batch, one evaluation that cannot be
 * asked (an id FGA cannot hold, a relation the type lacks) is `decision: false` with `context.error`, as
 * section 7.2.1 has it, and counts as a denial for deny_on_first_deny. A single evaluation with such an error
 * is a 400, as check_permissions refuses the same check.
 */
import { AppError } from '../../kernel/errors.ts';
import type { Caller } from '../../kernel/context.ts';
import type { Deps } from '../../kernel/deps.ts';
import type { RequestBudget } from '../../kernel/request-budget.ts';
import { checkForSubject, requireFga, type CheckRun } from '../fga/index.ts';
import { fgaQuestion, type ActionInput, type EntityInput, type FgaQuestion } from './mapping.ts';

/** The store, model and one engine for the whole request (its cache serves every evaluation of a batch). */
export type Pdp = Omit<CheckRun, 'subject'>;

export async function openPdp(deps: Pick<Deps, 'fga'>, caller: Caller): Promise<Pdp> {
  if (caller.kind !== 'client') throw AppError.unauthenticated();
  const service = requireFga(deps);
  const model = await service.requireModel();
  return { service, model, engine: service.engineFor(model) };
}

/** The FGA answer to one question, as check_permissions gives it; `where` names it in errors. */
export async function decide(pdp: Pdp, question: FgaQuestion, where: string): Promise<boolean> {
  const run: CheckRun = { ...pdp, subject: { user: question.user } };
  return checkForSubject(run, { relation: question.relation, object: question.object, context: question.context }, where);
}

interface EvaluationFields {
  subject?: EntityInput;
  action?: ActionInput;
  resource?: EntityInput;
  context?: Record<string, unknown>;
}

export interface Decision {
  decision: boolean;
  context?: Record<string, unknown>;
}

/** AuthZEN 1.0 section 6. */
export async function evaluateOne(pdp: Pdp, request: Required<Omit<EvaluationFields, 'context'>> & EvaluationFields, budget: RequestBudget): Promise<Decision> {
  budget.spend(1);
  const question = fgaQuestion(request);
  return { decision: await decide(pdp, question, 'evaluation') };
}

export const SEMANTICS = ['execute_all', 'deny_on_first_deny', 'permit_on_first_permit'] as const;
export type Semantic = (typeof SEMANTICS)[number];

export interface EvaluationsRequest extends EvaluationFields {
  evaluations?: EvaluationFields[];
  options?: { evaluations_semantic?: string };
}

function semanticOf(request: EvaluationsRequest): Semantic {
  const given = request.options?.evaluations_semantic;
  if (given === undefined || given === '') return 'execute_all';
  const known = SEMANTICS.find((semantic) => semantic === given);
  if (!known) throw AppError.invalid(`options.evaluations_semantic: must be one of ${SEMANTICS.join(', ')}`);
  return known;
}

type Complete = Required<Omit<EvaluationFields, 'context'>> & EvaluationFields;

/** Each evaluation with the top-level defaults filled in (AuthZEN 1.0 section 7.1.1); a gap is the payload's error. */
function withDefaults(request: EvaluationsRequest, items: EvaluationFields[]): Complete[] {
  return items.map((item, index) => {
    const merged = {
      subject: item.subject ?? request.subject,
      action: item.action ?? request.action,
      resource: item.resource ?? request.resource,
      context: item.context ?? request.context,
    };
    for (const key of ['subject', 'action', 'resource'] as const) {
      if (!merged[key]) throw AppError.invalid(`evaluations[${index}].${key}: is required, in the evaluation or at the top level`);
    }
    return merged as Complete;
  });
}

/** One evaluation of a batch: its decision, or `decision: false` with the error that kept it from being asked. */
async function evaluateItem(pdp: Pdp, item: Complete, index: number): Promise<Decision> {
  const prefix = `evaluations[${index}].`;
  try {
    return { decision: await decide(pdp, fgaQuestion(item, prefix), `evaluations[${index}]`) };
  } catch (err) {
    if (!(err instanceof AppError) || err.kind !== 'invalid_argument') throw err;
    return { decision: false, context: { error: { status: 400, message: err.message } } };
  }
}

/** Every evaluation, a few at a time, answered in order. */
async function executeAll(pdp: Pdp, items: Complete[]): Promise<Decision[]> {
  const results: Decision[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await evaluateItem(pdp, items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, items.length) }, worker));
  return results;
}

/** In order, stopping at the first decision equal to `stopAt` (AuthZEN 1.0 section 7.1.2.1: `&&` and `||`). */
async function shortCircuit(pdp: Pdp, items: Complete[], stopAt: boolean, semantic: Semantic): Promise<Decision[]> {
  const results: Decision[] = [];
  for (const [index, item] of items.entries()) {
    const result = await evaluateItem(pdp, item, index);
    results.push(result);
    if (result.decision !== stopAt) continue;
    // Says why the answer is shorter than the request, when it is.
    if (index < items.length - 1) result.context = { ...result.context, reason: semantic };
    break;
  }
  return results;
}

/** AuthZEN 1.0 section 7: without evaluations it is the single evaluation of section 6. */
export async function evaluateMany(pdp: Pdp, request: EvaluationsRequest, budget: RequestBudget): Promise<{ decision?: boolean; evaluations?: Decision[] }> {
  const semantic = semanticOf(request);
  const items = request.evaluations ?? [];
  if (items.length === 0) {
    for (const key of ['subject', 'action', 'resource'] as const) {
      if (!request[key]) throw AppError.invalid(`${key}: is required when there are no evaluations`);
    }
    return evaluateOne(pdp, request as Complete, budget);
  }
  const complete = withDefaults(request, items);
  budget.spend(complete.length);
  if (semantic === 'execute_all') return { evaluations: await executeAll(pdp, complete) };
  const stopAt = semantic === 'permit_on_first_permit';
  return { evaluations: await shortCircuit(pdp, complete, stopAt, semantic) };
}
