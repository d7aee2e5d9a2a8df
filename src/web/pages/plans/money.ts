/** Plan prices: monthly, in BRL (the spec), typed the Brazilian way ('99,90') or with a dot ('99.90'). */

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' })

/** 99.9 -> 'R$ 99,90' (always pt-BR: the price is in reais whatever the user's language). */
export function formatBrl(value: number): string {
  return brl.format(value)
}

/** The server's bound (src/shared/schemas/companies.ts planBody). */
export const PLAN_VALUE_MAX = 1_000_000

/**
 * What the user typed as a price, in reais: '99,90', '99.90', '1.234,56', '1,234.56', 'R$ 99', '0'. At most two
 * decimals; null when it is not a price (empty, negative, letters, more than the server accepts).
 */
export function parseBrl(text: string): number | null {
  let s = text.replace(/R\$/i, '').replace(/[\s\u00a0]/g, '')
  if (!s) return null
  const comma = s.lastIndexOf(',')
  const dot = s.lastIndexOf('.')
  if (comma > dot) {
    // Brazilian: dots group thousands, the comma is the decimal mark.
    if (dot !== -1 && !/^\d{1,3}(\.\d{3})+,/.test(s)) return null
    s = s.replace(/\./g, '').replace(',', '.')
  } else if (dot > comma && comma !== -1) {
    // English: commas group thousands.
    if (!/^\d{1,3}(,\d{3})+\./.test(s)) return null
    s = s.replace(/,/g, '')
  } else if (dot !== -1 && /^\d{1,3}(\.\d{3})+$/.test(s)) {
    // '1.234': thousands (a price has two decimals at most).
    s = s.replace(/\./g, '')
  }
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return null
  const value = Number(s)
  return Number.isFinite(value) && value <= PLAN_VALUE_MAX ? value : null
}

/** A price as the input shows it: 99.9 -> '99,90'. */
export function brlInput(value: number): string {
  return value.toFixed(2).replace('.', ',')
}
