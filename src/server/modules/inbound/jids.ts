/** Digits of a LID JID (`123@lid` -> `123`): the contacts table keeps the LID without its server. */
export function lidDigits(lid: string | undefined | null): string | null {
  if (!lid) return null
  const at = lid.indexOf('@')
  return (at < 0 ? lid : lid.slice(0, at)) || null
}

/** The user part of a JID (a group's id, a number). */
export function jidUser(jid: string): string {
  const at = jid.indexOf('@')
  return at < 0 ? jid : jid.slice(0, at)
}
