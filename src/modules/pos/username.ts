/**
 * Validator name rule (LIP 0057 "Validator registration"; lisk-sdk 6.1 pos/utils.ts isUsername).
 */

// lisk-sdk also rejects the escape sequences `\0`, `\u0000` and `\x00` written out as text; the
// character class below already excludes the backslash, so they can never pass it anyway.
const USERNAME_CHARACTERS = /^[a-z0-9!@$&_.]+$/;

/** Whether `name` is a non-empty string of lowercase letters, digits and `!@$&_.` only. */
export function isUsername(name: string): boolean {
  if (name !== name.trim().toLowerCase()) return false;
  return USERNAME_CHARACTERS.test(name);
}
