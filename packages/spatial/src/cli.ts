#!/usr/bin/env node
import { runSpatialCli } from "./run-cli.js";

process.exitCode = await runSpatialCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
