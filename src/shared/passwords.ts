/**
 * The one password rule, for every password a person chooses (users, sign-up, a company's first admin, the
 * operator's commands, recovery): the spec's reset rule, 8 to 50 characters with an upper-case letter, a
 * lower-case letter and a digit. Plain (no arktype), so the server's start-up path can use it.
 */
export const PASSWORD_RULE = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,50}$/
