import { optionsFromArgs, USAGE } from './cli-args.js';
import { startEmulator } from './index.js';
import { resolveOptions } from './options.js';

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** Why the servers could not start, in the words of the flag that fixes it. */
function startFailure(error: unknown): string {
  const { code, address, port } = error as { code?: unknown; address?: unknown; port?: unknown };
  if (code === 'EADDRINUSE' && typeof address === 'string' && typeof port === 'number') {
    return `${address}:${port} is already in use: choose another --port or --store-port (0 picks a free one)`;
  }
  return messageOf(error);
}

/** Starts the emulator from the command line and stops it cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  let parsed: ReturnType<typeof optionsFromArgs>;
  try {
    parsed = optionsFromArgs(process.argv.slice(2));
    // Values out of range are usage errors too, reported before any port is taken.
    resolveOptions({ ...parsed, log: false });
  } catch (error) {
    console.error(`${messageOf(error)}\n${USAGE}`);
    process.exit(2);
  }
  const { help, ...options } = parsed;
  if (help === true) {
    console.log(USAGE);
    return;
  }
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator(options);
  } catch (error) {
    console.error(`The emulator could not start: ${startFailure(error)}`);
    process.exit(1);
  }
  console.log(`Admin API:    ${emulator.baseUrl}`);
  console.log(`Object store: ${emulator.storeUrl}`);
  console.log(`Write key:    ${emulator.keys.write}`);
  console.log(`Read key:     ${emulator.keys.read}`);
  console.log(`Control:      ${emulator.baseUrl}/__emulator/ (faults, requests, clock/advance)`);
  const shutdown = (): void => {
    emulator.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

await main();
