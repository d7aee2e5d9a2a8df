#!/usr/bin/env bun
import pkg from '../package.json'
import { buildProgram } from './cli/program'

await buildProgram(pkg.version).parseAsync(process.argv)
