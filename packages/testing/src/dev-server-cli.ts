#!/usr/bin/env node
import { runDevServerCli } from "./dev-server-args.js";

process.exit(await runDevServerCli(process.argv.slice(2)));
