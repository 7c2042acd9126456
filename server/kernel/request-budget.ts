/**
 * Work one transport request may do across every operation it carries. A GraphQL document runs each root
 * field as its own operation, so aliases multiply any per-call limit (20 aliased check_permissions fields
 * of 100 checks each were 2,000 checks in one HTTP request); the budget is attached per HTTP request and
 * shared by all its root fields (OWASP ASVS 4.0 13.4.1 / 11.1.4: bound the cost of one request).
 */
import { AppError } from './errors.ts';

export class RequestBudget {
  private spent = 0;
  readonly limit: number;
  private readonly what: string;
  private readonly why: string;

  /** `limit` units; `what` names them in the refusal ("permission checks"), `why` cites the rule. */
  constructor(limit: number, what: string, why: string) {
    this.limit = limit;
    this.what = what;
    this.why = why;
  }

  get remaining(): number {
    return this.limit - this.spent;
  }

  /** Takes `amount` units or refuses with invalid_argument naming the limit; a refusal spends nothing. */
  spend(amount: number): void {
    if (this.spent + amount > this.limit) {
      throw AppError.invalid(`at most ${this.limit} ${this.what} per request (${this.why}); this request asked for ${this.spent + amount}`);
    }
    this.spent += amount;
  }
}

/** Permission checks per request: at most 100, list_permissions pairs included. */
export const PERMISSION_CHECKS_PER_REQUEST = 100;

export function permissionCheckBudget(): RequestBudget {
  return new RequestBudget(PERMISSION_CHECKS_PER_REQUEST, 'permission checks', 'GraphQL aliases count together');
}
