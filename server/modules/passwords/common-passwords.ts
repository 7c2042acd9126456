/**
 * The list of commonly used passwords every new password is compared with (NIST SP 800-63B §5.1.1.2: the
 * verifier compares a prospective secret against values known to be commonly used, expected or compromised,
 * such as passwords from previous breach corpuses; docs/passwords.md#commonly-used-passwords).
 *
 * The list is the `passwords-common` dictionary of @zxcvbn-ts/language-common: 49,233 entries built from
 * leaked-password frequency lists, all in lower case. It ships inside the bundle (a static specifier, which
 * esbuild bundles and lowers to a lazy require: docs/architecture.md#the-single-executable), and is loaded at
 * the first password check rather than at start: the decompressed list and its Set cost about 4 MiB of heap
 * (12 MiB of resident size) and about 90 ms, which an instance that never sets a password (the token and
 * validation paths) should not pay. Once loaded it stays: it is immutable, and a later check costs one Set
 * lookup.
 */

let loading: Promise<ReadonlySet<string>> | undefined;

function loadList(): Promise<ReadonlySet<string>> {
  return import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common']));
}

/** The list as a Set of comparison forms, loaded once per process on first use. */
export function commonPasswordList(): Promise<ReadonlySet<string>> {
  loading ??= loadList().catch((err: unknown) => {
    loading = undefined; // A failed load is retried by the next check rather than cached.
    throw err;
  });
  return loading;
}

/**
 * The form a password is compared in: Unicode NFKC (NIST SP 800-63B §5.1.1.2 normalises before comparing
 * and hashing) and lower case. Case-insensitive on purpose: the list is lower case, and changing the case
 * of a listed word ("Password1", "PASSWORD1") is the first rule every guessing tool applies, so those are
 * as guessable as the entry itself.
 */
export function comparisonForm(password: string): string {
  return password.normalize('NFKC').toLowerCase();
}

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswordList()).has(comparisonForm(password));
}
