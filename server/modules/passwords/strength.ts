/**
 * The optional minimum strength of a new password (--password-min-strength, 1 to 4; 0 is off): zxcvbn's
 * score, an estimate of how many guesses an attacker who knows common passwords, words, keyboard patterns,
 * dates and substitutions needs (docs/passwords.md#minimum-strength). The person's own email address and
 * names count as words of the attacker's dictionary, so "ada.lovelace1815" is weak for Ada Lovelace.
 *
 * zxcvbn's matching grows faster than linearly with the length it sees (a 64-character mix of symbols took
 * 190-290 ms a check with the default of 100 l33t substitutions), and it runs on the event loop. So it sees
 * at most the first ESTIMATOR_MAX_LENGTH characters, and tries at most L33T_MAX_SUBSTITUTIONS l33t
 * substitutions: a check then stays within a few milliseconds (docs/passwords.md#minimum-strength gives the
 * figures). Scoring the beginning errs on the side of refusing: characters past the bound add guesses the
 * score does not count, so a long password is never passed on the strength of characters nobody looked at.
 */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

export const ESTIMATOR_MAX_LENGTH = 32;
const L33T_MAX_SUBSTITUTIONS = 8;
/** Each user input (an email address, a name) is cut as well: they are words to match, not prose. */
const USER_INPUT_MAX_LENGTH = 64;

let loading: Promise<ZxcvbnFactory> | undefined;

/** The estimator, built once per process at the first check with the flag on (about 4 MiB, 100-150 ms). */
function estimator(): Promise<ZxcvbnFactory> {
  loading ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')])
    .then(([core, common]) => new core.ZxcvbnFactory({
      dictionary: common.dictionary,
      graphs: common.adjacencyGraphs,
      maxLength: ESTIMATOR_MAX_LENGTH,
      l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
    }))
    .catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
  return loading;
}

function firstCharacters(text: string, count: number): string {
  return [...text].slice(0, count).join('');
}

/**
 * The words of the person's own that an attacker would try first: each input whole, and of an email address
 * its local part and the pieces of that part ("ada", "lovelace" of ada.lovelace@…). Empty values are dropped.
 */
export function personalWords(inputs: readonly (string | undefined | null)[]): string[] {
  const words: string[] = [];
  for (const input of inputs) {
    if (!input) continue;
    const value = firstCharacters(input.trim(), USER_INPUT_MAX_LENGTH);
    if (!value) continue;
    words.push(value);
    const at = value.indexOf('@');
    if (at > 0) {
      const local = value.slice(0, at);
      words.push(local, ...local.split(/[._+-]/).filter((piece) => piece.length > 1 && piece !== local));
    }
  }
  return words;
}

/** zxcvbn's score (0 to 4) of the password's first ESTIMATOR_MAX_LENGTH characters. */
export async function passwordStrength(password: string, userInputs: readonly (string | undefined | null)[] = []): Promise<number> {
  const zxcvbn = await estimator();
  return zxcvbn.check(firstCharacters(password, ESTIMATOR_MAX_LENGTH), personalWords(userInputs)).score;
}
