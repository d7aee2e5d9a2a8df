// A JSON import: the bundler inlines the version, so the compiled executable knows it without the package.
import { version } from '@whiskeysockets/baileys/package.json' with { type: 'json' }

/** The Baileys package this build runs (shown per connection: `health.baileysVersion`). */
export const BAILEYS_VERSION: string = version
