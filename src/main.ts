// Entry point: placeholder until the command tree lands.
export async function run(argv: string[]): Promise<void> {
  process.stdout.write(`svc ${__SVC_VERSION__} ${argv.join(' ')}\n`);
}
