#!/usr/bin/env node
// `txc`: the exchange API v4 from the command line (see docs/guides/txc.md).
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
