/**
 * The other spellings of a phone number WhatsApp treats as the same account, so a number check
 * finds a customer however the number was typed and answers with the JID WhatsApp keeps:
 * - Brazil (55): mobiles exist with and without the ninth digit after the area code; accounts
 *   registered before the change keep the 8-digit JID (`55 11 9999 0001`).
 * - Mexico (52): mobile JIDs carry a 1 after the country code (`521…`).
 * - Argentina (54): mobile JIDs carry a 9 after the country code (`549…`).
 * The number itself comes first. Digits only, no `+`.
 */
export function phoneVariants(digits: string): string[] {
  const variants = [digits]
  const br = /^55(\d{2})(\d{8,9})$/.exec(digits)
  if (br) {
    const [, area, local] = br as unknown as [string, string, string]
    if (local.length === 9 && local.startsWith('9')) variants.push(`55${area}${local.slice(1)}`)
    if (local.length === 8 && /^[6-9]/.test(local)) variants.push(`55${area}9${local}`)
  }
  const mx = /^52(1?)(\d{10})$/.exec(digits)
  if (mx) variants.push(mx[1] ? `52${mx[2]}` : `521${mx[2]}`)
  const ar = /^54(9?)(\d{10})$/.exec(digits)
  if (ar) variants.push(ar[1] ? `54${ar[2]}` : `549${ar[2]}`)
  return variants
}
