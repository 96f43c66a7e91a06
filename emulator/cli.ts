import { optionsFromArgs, USAGE } from './cli-args.js';
import { startEmulator } from './index.js';

/** Starts the emulator from the command line and stops it cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  let parsed: ReturnType<typeof optionsFromArgs>;
  try {
    parsed = optionsFromArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
  const { help, ...options } = parsed;
  if (help === true) {
    console.log(USAGE);
    return;
  }
  const emulator = await startEmulator(options);
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
