/** Plan prices: monthly, in BRL (the spec), typed the Brazilian way ('99,90') or with a dot ('99.90'). */

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' })

/** 99.9 -> 'R$ 99,90' (always pt-BR: the price is in reais whatever the user's language). */
export function formatBrl(value: number): string {
  return brl.format(value)
}

// The price parser is shared with the server, which accepts the same texts in a plan's `value`.
export { PLAN_VALUE_MAX, parseBrl } from '../../../shared/plans'

/** A price as the input shows it: 99.9 -> '99,90'. */
export function brlInput(value: number): string {
  return value.toFixed(2).replace('.', ',')
}
