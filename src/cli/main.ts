/** Program entry of the `basalt` command (see bin/basalt.js). */
import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
