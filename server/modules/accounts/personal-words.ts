/**
 * What a person's own account says about them, handed to the password strength estimate as words an
 * attacker who targets that person tries first (docs/passwords.md#minimum-strength): the email address,
 * the phone number and the names.
 */
import type { UserRow } from '../users/index.ts';

interface GivenProfile {
  email?: string | null;
  phone_number?: string | null;
  given_name?: string | null;
  family_name?: string | null;
  middle_name?: string | null;
  nickname?: string | null;
}

type Word = string | null | undefined;

/** The full name as people write it into passwords: "adalovelace", "ada.lovelace" (each name alone is a word too). */
function fullNames(given: Word, family: Word): string[] {
  return given && family ? [`${given}${family}`, `${given}.${family}`] : [];
}

/** From a request that creates the account (signup, an administrator's create_user). */
export function personalWordsOfInput(input: GivenProfile): Word[] {
  return [
    input.email, input.phone_number, input.given_name, input.family_name, input.middle_name, input.nickname,
    ...fullNames(input.given_name, input.family_name),
  ];
}

/** From the stored account (a password change, the replacement of an initial password). */
export function personalWordsOfUser(user: UserRow): Word[] {
  return [
    user.email, user.phoneNumber, user.givenName, user.familyName, user.middleName, user.nickname, user.preferredUsername,
    ...fullNames(user.givenName, user.familyName),
  ];
}
