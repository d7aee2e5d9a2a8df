/**
 * `npm run wa-sim -- --port P [--verbose]`: runs the simulator by hand and prints its URL.
 */
import { parseArgs } from 'node:util'
import { startSimulator } from './start'

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { port: { type: 'string', default: '0' }, verbose: { type: 'boolean', default: false } },
})
const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`wa-sim: bad --port ${values.port}`)
  process.exit(2)
}
const simulator = await startSimulator({ port, verbose: values.verbose })
console.log(`wa-sim listening on ${simulator.url}`)
console.log(`  WebSocket: ${simulator.wsUrl}`)
console.log(`  root key:  ${simulator.root.publicKey} (serial ${simulator.root.serial})`)
const stop = () => void simulator.stop().then(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
