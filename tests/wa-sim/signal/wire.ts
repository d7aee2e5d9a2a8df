import {
  type BinaryNode,
  decodeBinaryNode,
  encodeBinaryNode,
} from '@whiskeysockets/baileys/lib/WABinary/index.js'

/**
 * A node as the other side reads it after WhatsApp's binary codec (Baileys's own encoder and
 * decoder): tests pass stanzas through it so attribute and byte shapes are proven on the wire.
 */
export async function throughTheWire(node: BinaryNode): Promise<BinaryNode> {
  const frame = encodeBinaryNode(node)
  // encodeBinaryNode prefixes the frame's flags byte (0 = uncompressed), which decodeBinaryNode reads.
  return decodeBinaryNode(frame)
}
