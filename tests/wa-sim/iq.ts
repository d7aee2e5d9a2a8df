/**
 * The iq handler table: every iq a companion sends is answered, by a handler keyed by
 * `xmlns`, `type` and the first child's tag, or with an error iq (never silence: Baileys would
 * wait for its query timeout).
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { CompanionConnection, Simulator } from './server'

export class IqError extends Error {
  constructor(
    readonly code: number,
    readonly text: string,
  ) {
    super(`${code} ${text}`)
  }
}

export type IqContext = { sim: Simulator; connection: CompanionConnection; node: BinaryNode }
/** The content of the `result` iq, or nothing for an empty result; throw IqError for an error iq. */
export type IqHandler = (context: IqContext) => BinaryNode[] | undefined | Promise<BinaryNode[] | undefined>

export const firstChildTag = (node: BinaryNode): string => {
  const first = Array.isArray(node.content) ? node.content[0] : undefined
  return first?.tag ?? ''
}

export class IqTable {
  private readonly handlers = new Map<string, IqHandler>()

  /** Registers a handler; `child` narrows to iqs whose first child has that tag. Later registrations win. */
  on(xmlns: string, type: string, handler: IqHandler, child?: string): void {
    this.handlers.set(child === undefined ? `${xmlns}|${type}` : `${xmlns}|${type}|${child}`, handler)
  }

  find(node: BinaryNode): IqHandler | undefined {
    const xmlns = node.attrs.xmlns ?? ''
    const type = node.attrs.type ?? ''
    return (
      this.handlers.get(`${xmlns}|${type}|${firstChildTag(node)}`) ?? this.handlers.get(`${xmlns}|${type}`)
    )
  }
}
